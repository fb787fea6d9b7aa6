// The emulator's HTTPS server: client-certificate TLS (a missing or foreign certificate is answered with
// StatusCode -10000, as the provider does, rather than a failed handshake), the Api-Key of r1, the
// control API under /__emulator/, and the fault injection of decisions 24 applied before each answer.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { ensureCertificates } from './certificates.ts';
import { handle, NOT_IN_SCHEME, type Envelope, type Scheme } from './api.ts';
import { EmulatorState, type Fault } from './state.ts';

export interface RunningEmulator {
  url: string;
  ca: string;
  caPem: string;
  clientPfx: string;
  clientPassword: string;
  apiKey: string;
  /** the emulator's CA key, so tests can make other client certificates (an expired one) */
  caKeyFile: string;
  state: EmulatorState;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' }).end(text);
}

function stateView(s: EmulatorState) {
  return {
    payments: [...s.payments.keys()].map((id) => s.current(id)!).map((p) => ({
      QrPaymentId: p.QrPaymentId, Amount: p.Amount, Status: p.Status, OrganizationBin: p.OrganizationBin, DeviceToken: p.DeviceToken,
      ExternalId: p.ExternalId, ReturnedAmount: p.ReturnedAmount,
    })),
    devices: [...s.devices.values()].map((d) => ({ DeviceToken: d.DeviceToken, DeviceId: d.DeviceId, TradePointId: d.TradePointId, OrganizationBin: d.OrganizationBin })),
    requests: s.requests,
  };
}

async function control(s: EmulatorState, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const body = req.method === 'POST' ? JSON.parse((await readBody(req)) || '{}') : {};
  if (req.method === 'POST' && path === 'reset') {
    s.reset();
    return send(res, 200, { ok: true });
  }
  if (req.method === 'POST' && path === 'clock/advance') {
    s.offsetMs += Number(body.seconds ?? 0) * 1000;
    return send(res, 200, { ok: true, now: new Date(s.now()).toISOString() });
  }
  if (req.method === 'POST' && path === 'faults') {
    s.faults = (body.faults ?? []) as Fault[];
    return send(res, 200, { ok: true, faults: s.faults.length });
  }
  if (req.method === 'POST' && path === 'timing') {
    s.timing = { ...s.timing, ...body };
    return send(res, 200, { ok: true, timing: s.timing });
  }
  if (req.method === 'GET' && path === 'state') return send(res, 200, stateView(s));
  return send(res, 404, { error: 'no such control call' });
}

export async function startEmulator(opts: { port?: number; dir: string; host?: string }): Promise<RunningEmulator> {
  const files = ensureCertificates(opts.dir);
  const state = new EmulatorState();
  const hanging = new Set<ServerResponse>();

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://emulator');
    if (url.pathname.startsWith('/__emulator/')) return control(state, req, res, url.pathname.slice('/__emulator/'.length));
    const m = url.pathname.match(/^\/(r[123])\/(v01|v02)\/(.+)$/);
    if (!m) return send(res, 404, { StatusCode: -1, Message: 'no such path' });
    const [, scheme, version, path] = m as unknown as [string, Scheme, 'v01' | 'v02', string];
    state.record(typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'] : null, req.method ?? 'GET', url.pathname);
    const text = await readBody(req);

    const fault = state.takeFault(path);
    const socket = req.socket as TLSSocket;
    if (fault?.kind === 'tls_refuse' || fault?.kind === 'reset') return void socket.destroy();
    if (fault?.kind === 'hang') return void hanging.add(res);
    if (fault?.kind === 'latency') await new Promise((r) => setTimeout(r, fault.ms ?? 500));
    if (fault?.kind === 'http5xx') return send(res, fault.status ?? 503, 'Service Unavailable');
    if (fault?.kind === 'malformed') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"StatusCode": 0, "Data": ');
    if (fault?.kind === 'expired_cert') return send(res, 200, { StatusCode: -10000, Message: 'client certificate expired' });

    // Credentials: r1 its Api-Key, r2 and r3 a client certificate of the emulator's CA, still valid.
    const authorized = scheme === 'r1' ? req.headers['api-key'] === files.apiKey : socket.authorized === true;
    if (!authorized) return send(res, 200, { StatusCode: -10000, Message: scheme === 'r1' ? 'bad api key' : 'no client certificate' });
    if (fault?.kind === 'code') return send(res, 200, { StatusCode: fault.code ?? -999, Message: 'injected' });

    let body: Record<string, unknown> = {};
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        return send(res, 200, { StatusCode: -1, Message: 'the body is not JSON' });
      }
    }
    const answer = handle(state, { scheme, version, method: req.method ?? 'GET', path, query: url.searchParams, body });
    if (answer === NOT_IN_SCHEME) return send(res, 404, { StatusCode: -1, Message: 'not available in this scheme' });
    if (!answer) return send(res, 404, { StatusCode: -1, Message: 'no such path' });
    // Committed, then the answer is lost on the way back.
    if (fault?.kind === 'lost') return void socket.destroy();
    send(res, 200, answer satisfies Envelope);
  };

  const server: Server = createServer(
    { key: files.serverKey, cert: files.serverCert, ca: files.caPem, requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.2' },
    (req, res) => {
      onRequest(req, res).catch((err) => send(res, 500, String(err)));
    },
  );
  await new Promise<void>((resolve) => server.listen(opts.port ?? 8543, opts.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`, ca: files.ca, caPem: files.caPem, clientPfx: files.clientPfx, clientPassword: files.clientPassword,
    apiKey: files.apiKey, caKeyFile: `${files.dir}/ca-key.pem`, state,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
