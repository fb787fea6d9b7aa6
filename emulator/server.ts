// The emulator's HTTPS server: client-certificate TLS (a missing or foreign certificate is answered with
// StatusCode -10000, as the provider does, rather than a failed handshake), the Api-Key of r1, r3's
// allow-list, the control API under /__emulator/, the faults of decisions 24 applied around each answer,
// and the sign of the codes set for the answers on their way out.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { admits, refuseUnlistedHandshakes } from './allowlist.ts';
import { ensureCertificates } from './certificates.ts';
import { control, sendJson } from './control.ts';
import { DATE_STYLES, DEFAULT_UTC_OFFSET_HOURS, validUtcOffset, type DateStyle } from './dates.ts';
import { signed } from './envelope.ts';
import { answerFault, takeFault } from './faults.ts';
import { lenientRequest } from './lenient.ts';
import { handle, NOT_IN_SCHEME, type Scheme } from './routes.ts';
import { EmulatorState } from './state.ts';
import { readBody } from './body.ts';

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

export interface EmulatorOptions {
  port?: number;
  dir: string;
  /** the address to listen on: 127.0.0.1 unless a container must be reached from outside (0.0.0.0) */
  host?: string;
  /** DNS names the server certificate must also carry (the container's service name) */
  hostnames?: string[];
  /**
   * how dates are written until a control call says otherwise, and after each reset; default `offset`,
   * the form production answers take (public clients parse it; several read no other)
   */
  dateStyle?: DateStyle;
  /** the provider's local time; default 5 (UTC+5) */
  utcOffsetHours?: number;
}

export async function startEmulator(opts: EmulatorOptions): Promise<RunningEmulator> {
  const start = {
    dateStyle: opts.dateStyle ?? 'offset',
    utcOffsetHours: opts.utcOffsetHours ?? DEFAULT_UTC_OFFSET_HOURS,
  };
  if (!DATE_STYLES.includes(start.dateStyle)) throw new Error(`dateStyle must be one of ${DATE_STYLES.join(', ')}`);
  if (!validUtcOffset(start.utcOffsetHours))
    throw new Error('utcOffsetHours must be a whole number of minutes between -12 and 14 hours');
  const files = ensureCertificates(opts.dir, opts.hostnames);
  const state = new EmulatorState(start);
  const hanging = new Set<ServerResponse>();
  // The control call's own connection is busy answering it, so it stays; idle ones close.
  const hooks = { allowlistChanged: () => server.closeIdleConnections() };

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://emulator');
    const text = await readBody(req, MAX_BODY);
    if (url.pathname.startsWith('/__emulator/'))
      return control(state, req, res, url.pathname.slice('/__emulator/'.length), text, hooks);
    // Read as the provider reads (lenient.ts): from here on the path has no trailing slash and the body
    // and query names are found in any case.
    const request = lenientRequest(url, text);
    const m = request.pathname.match(/^\/(r[123])\/(v01|v02)\/(.+)$/);
    if (!m) return sendJson(res, 404, { StatusCode: -1, Message: 'no such path' });
    const [, scheme, version, path] = m as unknown as [string, Scheme, 'v01' | 'v02', string];
    // Recorded, never required: the document asks for X-Request-ID, and tests check that the driver sends it.
    const requestId = req.headers['x-request-id'];
    state.record(typeof requestId === 'string' ? requestId : null, req.method ?? 'GET', request.pathname);

    const socket = req.socket as TLSSocket;
    // The allow-list stands in front of the provider, before any fault or credential.
    if (scheme === 'r3' && !admits(state.allowlist, socket)) {
      if (state.allowlist.refuse === 'tls') return void socket.destroy();
      return void res.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden');
    }

    const fault = takeFault(state, request.pathname);
    if (await answerFault(fault, res, hanging)) return;

    const authorized = scheme === 'r1' ? req.headers['api-key'] === files.apiKey : socket.authorized === true;
    if (!authorized)
      return sendJson(res, 200, {
        StatusCode: -10000,
        Message: scheme === 'r1' ? 'bad api key' : 'no client certificate',
      });
    // An injected code is sent as the test wrote it, whatever sign the codes are set to.
    if (fault?.kind === 'code') return sendJson(res, 200, { StatusCode: fault.code ?? -999, Message: 'injected' });
    if (!request.body) return sendJson(res, 200, { StatusCode: -1, Message: 'the body is not JSON' });

    const answer = handle(state, {
      scheme,
      version,
      method: req.method ?? 'GET',
      path,
      query: request.query,
      body: request.body,
      fault,
    });
    if (answer === NOT_IN_SCHEME)
      return sendJson(res, 404, { StatusCode: -1, Message: 'not available in this scheme' });
    if (!answer) return sendJson(res, 404, { StatusCode: -1, Message: 'no such path' });
    // Committed, and then the answer is lost on the way back.
    if (fault?.kind === 'lost') return void socket.destroy();
    sendJson(res, 200, signed(answer, state.codeSign));
  };

  const server: Server = createServer(
    {
      key: files.serverKey,
      cert: files.serverCert,
      ca: files.caPem,
      requestCert: true,
      rejectUnauthorized: false,
      minVersion: 'TLSv1.2',
    },
    (req, res) => {
      onRequest(req, res).catch((err) => {
        if (!res.headersSent && !res.destroyed) res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      });
    },
  );
  refuseUnlistedHandshakes(server, () => state.allowlist);
  // Connections stay open as a web front's do (nginx keeps them 75 s), not Node's 5 s: a client polling
  // every few seconds reuses its TLS session instead of paying a client-certificate handshake each time.
  server.keepAliveTimeout = 75_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8543, opts.host ?? '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    ca: files.ca,
    caPem: files.caPem,
    clientPfx: files.clientPfx,
    clientPassword: files.clientPassword,
    apiKey: files.apiKey,
    caKeyFile: files.caKey,
    state: stateHandle(state),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
