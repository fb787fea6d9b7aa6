// The emulator's HTTPS server: client-certificate TLS (a missing or foreign certificate is answered with
// StatusCode -10000, as the provider does, rather than a failed handshake), the Api-Key of r1, the
// control API under /__emulator/, and the faults of decisions 24 applied around each answer.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { ensureCertificates } from './certificates.ts';
import { control, sendJson } from './control.ts';
import { answerFault, takeFault } from './faults.ts';
import { handle, NOT_IN_SCHEME, type Scheme } from './routes.ts';
import { EmulatorState } from './state.ts';

/**
 * The state both ways: `state()` (the contract) and `state.payments`, `state.faults = [...]` (how the
 * driver's tests already reach in). A function can carry no class fields, so a proxy forwards them.
 */
export type StateHandle = EmulatorState & (() => EmulatorState);

function stateHandle(s: EmulatorState): StateHandle {
  return new Proxy(() => s, {
    apply: () => s,
    get: (_f, k) => Reflect.get(s, k),
    set: (_f, k, v) => Reflect.set(s, k, v),
    has: (_f, k) => Reflect.has(s, k),
  }) as unknown as StateHandle;
}

export interface RunningEmulator {
  url: string;
  /** absolute path of the CA certificate to trust */
  ca: string;
  caPem: string;
  /** absolute path of the client certificate bundle (PKCS#12) */
  clientPfx: string;
  clientPassword: string;
  apiKey: string;
  /** the emulator's CA key, so tests can make other client certificates (an expired one) */
  caKeyFile: string;
  state: StateHandle;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        req.destroy();
        reject(new Error('body too large'));
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startEmulator(opts: { port?: number; dir: string; host?: '127.0.0.1' }): Promise<RunningEmulator> {
  const files = ensureCertificates(opts.dir);
  const state = new EmulatorState();
  const hanging = new Set<ServerResponse>();

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://emulator');
    const text = await readBody(req);
    if (url.pathname.startsWith('/__emulator/')) return control(state, req, res, url.pathname.slice('/__emulator/'.length), text);
    const m = url.pathname.match(/^\/(r[123])\/(v01|v02)\/(.+)$/);
    if (!m) return sendJson(res, 404, { StatusCode: -1, Message: 'no such path' });
    const [, scheme, version, path] = m as unknown as [string, Scheme, 'v01' | 'v02', string];
    // Recorded, never required: the document asks for X-Request-ID, and tests check that the driver sends it.
    const requestId = req.headers['x-request-id'];
    state.record(typeof requestId === 'string' ? requestId : null, req.method ?? 'GET', url.pathname);

    const fault = takeFault(state, url.pathname);
    if (await answerFault(fault, res, hanging)) return;

    const socket = req.socket as TLSSocket;
    const authorized = scheme === 'r1' ? req.headers['api-key'] === files.apiKey : socket.authorized === true;
    if (!authorized) return sendJson(res, 200, { StatusCode: -10000, Message: scheme === 'r1' ? 'bad api key' : 'no client certificate' });
    if (fault?.kind === 'code') return sendJson(res, 200, { StatusCode: fault.code ?? -999, Message: 'injected' });

    let body: Record<string, unknown> = {};
    try {
      const parsed = text ? JSON.parse(text) : {};
      if (parsed && typeof parsed === 'object') body = parsed;
    } catch {
      return sendJson(res, 200, { StatusCode: -1, Message: 'the body is not JSON' });
    }
    const answer = handle(state, { scheme, version, method: req.method ?? 'GET', path, query: url.searchParams, body, fault });
    if (answer === NOT_IN_SCHEME) return sendJson(res, 404, { StatusCode: -1, Message: 'not available in this scheme' });
    if (!answer) return sendJson(res, 404, { StatusCode: -1, Message: 'no such path' });
    // Committed, and then the answer is lost on the way back.
    if (fault?.kind === 'lost') return void socket.destroy();
    sendJson(res, 200, answer);
  };

  const server: Server = createServer(
    { key: files.serverKey, cert: files.serverCert, ca: files.caPem, requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.2' },
    (req, res) => {
      onRequest(req, res).catch((err) => {
        if (!res.headersSent && !res.destroyed) res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      });
    },
  );
  // Connections stay open as a web front's do (nginx keeps them 75 s), not Node's 5 s: a client polling
  // every few seconds reuses its TLS session instead of paying a client-certificate handshake each time.
  server.keepAliveTimeout = 75_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8543, opts.host ?? '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`, ca: files.ca, caPem: files.caPem, clientPfx: files.clientPfx, clientPassword: files.clientPassword,
    apiKey: files.apiKey, caKeyFile: files.caKey, state: stateHandle(state),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
