// The fiscal emulator's HTTPS server: one port serving Webkassa's paths (/api/v4, /api-history/v4,
// /api-portal/v4), reKassa's (/api/auth/login, /api/crs) and the control API (/__fiscal/). Around each
// API call: the global latency and one-at-a-time queue, the register's concurrency mode, its faults, and
// a record of the call.
import { randomInt, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Answer, ApiRequest } from './api.ts';
import { ensureFiles } from './certificates.ts';
import { readBody } from '../emulator/body.ts';
import { control } from './control.ts';
import { htmlError, sleep, takeFaults, type Fault } from './faults.ts';
import { parseBody } from './jsonc.ts';
import { isRekassaPath, REKASSA_ERRORS, rekassa, rekassaRegister, error as rekassaError } from './rekassa-routes.ts';
import { FiscalState, type Register } from './state.ts';
import { errors, isWebkassaPath, webkassa, webkassaRegister, WEBKASSA_CODES } from './webkassa-routes.ts';

export interface Seed {
  /** the register every start and reset creates, and the logins to it */
  register: string;
  webkassaLogin: string;
  webkassaPassword: string;
}

export const DEFAULT_SEED: Seed = {
  register: 'SWK00033717',
  webkassaLogin: 'cashier@tolem.test',
  webkassaPassword: 'Cashier1!',
};

export interface FiscalEmulatorOptions {
  port?: number;
  dir: string;
  host?: string;
  hostnames?: string[];
  seed?: Seed;
}

export interface RunningFiscalEmulator {
  url: string;
  port: number;
  ca: string;
  caPem: string;
  controlToken: string;
  webkassa: { apiKey: string; login: string; password: string; cashbox: string };
  rekassa: { apiKey: string; id: number; number: string; password: string; pin: string };
  state: FiscalState;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

function send(res: ServerResponse, a: Answer): void {
  if (a.text !== undefined)
    return void res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers }).end(a.text);
  res
    .writeHead(a.status, { 'content-type': 'application/json; charset=utf-8', ...a.headers })
    .end(JSON.stringify(a.body));
}

/** A request for a register already being answered: the register's concurrency mode decides. */
function busy(surface: 'webkassa' | 'rekassa', path: string): Answer {
  const text = 'Запрос по этой кассе уже выполняется: запросы по одной кассе должны идти последовательно';
  return surface === 'webkassa'
    ? errors(WEBKASSA_CODES.busy, text)
    : rekassaError(REKASSA_ERRORS.busy[0], REKASSA_ERRORS.busy[1], text, path);
}

export async function startFiscalEmulator(opts: FiscalEmulatorOptions): Promise<RunningFiscalEmulator> {
  const files = ensureFiles(opts.dir, opts.hostnames);
  const seed = opts.seed ?? DEFAULT_SEED;
  // The seeded register's reKassa login is chosen once per start, so it survives resets.
  const login = { number: '700001', password: randomUUID().slice(0, 8), pin: String(randomInt(1000, 10_000)) };
  const state = new FiscalState((s) => {
    s.addRegister({ unique_number: seed.register, name: 'Касса интеграторов', ofd_code: 4, rekassa: login });
    s.users.set(seed.webkassaLogin, {
      login: seed.webkassaLogin,
      password: seed.webkassaPassword,
      name: 'Кассир',
      registers: ['*'],
    });
  });
  const hanging = new Set<ServerResponse>();
  let globalQueue: Promise<void> = Promise.resolve();
  let port = 0;

  /** Runs `fn` after the calls queued before it, when `on`; at once otherwise. */
  async function queued<T>(on: boolean, tail: { q: Promise<void> }, fn: () => Promise<T>): Promise<T> {
    if (!on) return fn();
    const before = tail.q;
    let done!: () => void;
    tail.q = new Promise<void>((resolve) => (done = resolve));
    await before;
    try {
      return await fn();
    } finally {
      done();
    }
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL, text: string): Promise<void> {
    const surface = isWebkassaPath(url.pathname) ? 'webkassa' : isRekassaPath(url.pathname) ? 'rekassa' : null;
    if (!surface) return send(res, { status: 404, body: { error: 'no such path' } });
    const body = parseBody(text);
    const r: Register | undefined =
      surface === 'webkassa' ? webkassaRegister(state, body) : rekassaRegister(state, url.pathname);
    const hostname = (req.headers.host ?? '').replace(/:\d+$/, '');
    const call = { surface, path: url.pathname, register: r?.uniqueNumber ?? null } as const;
    const faults = takeFaults(state, call, hostname);
    const has = (k: Fault['kind']) => faults.find((f) => f.kind === k);
    const record = (outcome: string) => state.record({ ...call, method: req.method ?? 'GET', outcome });
    const apiReq: ApiRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body,
      headers: req.headers,
      base: `https://${req.headers.host ?? `127.0.0.1:${port}`}`,
    };

    const serve = async () => {
      if (state.settings.latencyMs > 0) await sleep(state.settings.latencyMs);
      const slow = has('slow');
      if (slow) await sleep(slow.ms ?? 2000);
      const fiveHundred = has('http5xx');
      if (fiveHundred) {
        record(`http ${fiveHundred.status ?? 502}`);
        return htmlError(res, fiveHundred.status ?? 502);
      }
      const alt = has('domain_505');
      if (alt) {
        const other = hostname === 'localhost' ? '127.0.0.1' : 'localhost';
        record('505');
        return send(res, {
          ...errors(505, 'Сервис недоступен на этом домене'),
          headers: { AlternativeDomainNames: `${other}:${port}` },
        });
      }
      const timeout = has('timeout');
      if (timeout) {
        record('timeout');
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        await sleep(timeout.ms ?? 10_000);
        return void res.socket?.destroy();
      }
      const answer =
        surface === 'webkassa'
          ? webkassa(state, apiReq, files.webkassaApiKey)
          : rekassa(state, apiReq, files.rekassaApiKey);
      if (has('lost')) {
        record(`lost after ${answer.status}`);
        return void res.socket?.destroy();
      }
      record(String(answer.status));
      send(res, answer);
    };

    const perRegister = async () => {
      if (!r) return serve();
      if (r.concurrency === 'reject' && r.inFlight > 0) {
        record('busy');
        return send(res, busy(surface, url.pathname));
      }
      const tail = { q: r.queue };
      const run = () => {
        r.inFlight++;
        return serve().finally(() => r.inFlight--);
      };
      const p = queued(r.concurrency === 'serialize', tail, run);
      r.queue = tail.q;
      return p;
    };

    const tail = { q: globalQueue };
    const p = queued(state.settings.oneAtATime, tail, perRegister);
    globalQueue = tail.q;
    await p;
  }

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://fiscal-emulator');
    const text = await readBody(req, MAX_BODY);
    if (url.pathname.startsWith('/__fiscal/')) {
      if (req.headers['x-control-token'] !== files.controlToken)
        return send(res, { status: 401, body: { error: 'x-control-token is missing or wrong' } });
      const [status, body] = control(state, req.method ?? 'GET', url.pathname.slice(10), url.searchParams, text);
      return send(res, { status, body });
    }
    await api(req, res, url, text);
  };

  const server: Server = createServer(
    { key: files.serverKey, cert: files.serverCert, minVersion: 'TLSv1.2' },
    (req, res) => {
      onRequest(req, res).catch((err) => {
        if (!res.headersSent && !res.destroyed) res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      });
    },
  );
  server.keepAliveTimeout = 75_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8544, opts.host ?? '127.0.0.1', resolve);
  });
  port = (server.address() as AddressInfo).port;
  const first = () => state.registers.get(seed.register)!;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    ca: files.ca,
    caPem: files.caPem,
    controlToken: files.controlToken,
    webkassa: {
      apiKey: files.webkassaApiKey,
      login: seed.webkassaLogin,
      password: seed.webkassaPassword,
      cashbox: seed.register,
    },
    rekassa: { apiKey: files.rekassaApiKey, ...first().rekassa, id: first().id },
    state,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
