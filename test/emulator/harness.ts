// A client of an emulator started for one test file: real HTTPS with the emulator's client certificate
// (or without one, for r1 and the control API), the control calls, and the customer's test calls. Also a
// reader of every date form the provider writes, for checking which instant a date names.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { Agent, request, type Dispatcher } from 'undici';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';

/** A BIN with a valid check digit: an organization of the emulator with trade points 1 and 2. */
export const BIN = '990140001233';

export interface CallOptions {
  method?: 'GET' | 'POST';
  /** an object is sent as JSON; a string is sent as it is */
  body?: object | string;
  agent?: Dispatcher;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export interface Reply {
  status: number;
  text: string;
  /** the parsed body; undefined when it is not JSON */
  json: any;
}

export class EmulatorClient {
  readonly withCert: Agent;
  readonly noCert: Agent;

  /** `localAddress`: the source address of its connections (any of 127.0.0.0/8 reaches the emulator) */
  constructor(
    readonly e: RunningEmulator,
    localAddress?: string,
  ) {
    this.withCert = new Agent({
      localAddress,
      connect: { ca: e.caPem, pfx: readFileSync(e.clientPfx), passphrase: e.clientPassword, minVersion: 'TLSv1.2' },
    });
    this.noCert = new Agent({ localAddress, connect: { ca: e.caPem, minVersion: 'TLSv1.2' } });
  }

  async call(pathName: string, o: CallOptions = {}): Promise<Reply> {
    const body = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    const res = await request(`${this.e.url}${pathName}`, {
      method: o.method ?? (body === undefined ? 'GET' : 'POST'),
      dispatcher: o.agent ?? this.withCert,
      headers: {
        'x-request-id': crypto.randomUUID(),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...o.headers,
      },
      body,
      headersTimeout: o.timeoutMs ?? 4000,
      bodyTimeout: o.timeoutMs ?? 4000,
    });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, text, json };
  }

  /** The control API needs no client certificate. */
  control(name: string, body?: object, agent: Dispatcher = this.noCert): Promise<Reply> {
    return this.call(`/__emulator/${name}`, { agent, method: body ? 'POST' : 'GET', body });
  }

  r3(name: string, body: object): Promise<Reply> {
    return this.call(`/r3/v01/${name}`, { body: { OrganizationBin: BIN, ...body } });
  }

  r2(name: string, body?: object): Promise<Reply> {
    return this.call(`/r2/v01/${name}`, { body });
  }

  async device(scheme: 'r2' | 'r3' = 'r3', tradePointId = 1, id = newId()): Promise<string> {
    const res =
      scheme === 'r3'
        ? await this.r3('device/register', { DeviceId: id, TradePointId: tradePointId })
        : await this.r2('device/register', { DeviceId: id, TradePointId: tradePointId });
    return res.json.Data.DeviceToken;
  }

  async qr(token: string, amount = 100, scheme: 'r2' | 'r3' = 'r3') {
    const res =
      scheme === 'r3'
        ? await this.r3('qr/create', { DeviceToken: token, Amount: amount })
        : await this.r2('qr/create', { DeviceToken: token, Amount: amount });
    return res.json.Data;
  }

  /** The customer in the provider's app; `extra` carries confirm's `customer` and `productType`. */
  async customer(action: 'scan' | 'confirm' | 'scanerror' | 'confirmerror', id: number, extra: object = {}) {
    return (await this.call(`/r3/v01/test/payment/${action}`, { body: { qrPaymentId: String(id), ...extra } })).json;
  }

  /** A QR paid by `customer`: its QrPaymentId. */
  async paid(token: string, amount: number, customer?: string, scheme: 'r2' | 'r3' = 'r3'): Promise<number> {
    const p = await this.qr(token, amount, scheme);
    await this.customer('scan', p.QrPaymentId);
    await this.customer('confirm', p.QrPaymentId, customer ? { customer } : {});
    return p.QrPaymentId;
  }

  async close(): Promise<void> {
    await this.withCert.close();
    await this.noCert.close();
  }
}

export const newId = () => `dev-${Math.random().toString(36).slice(2)}`;

/**
 * The instant a provider date names, in any of its forms: offset `+05`, `+0500`, `+05:00` or none (then
 * `localOffsetHours`), one-digit month, day and hour, 0 to 7 fractional digits. NaN when it is none.
 */
export function readProviderDate(text: string, localOffsetHours = 5): number {
  const m =
    /^(\d{4})-(\d{1,2})-(\d{1,2})T(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?(Z|([+-])(\d{2})(?::?(\d{2}))?)?$/.exec(
      text,
    );
  if (!m) return NaN;
  const [, y, mo, d, h, mi, s, frac, zone, sign, oh, om] = m;
  const wall = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, Math.floor(Number(`0.${frac ?? '0'}`) * 1000));
  const offsetMinutes =
    zone === undefined ? localOffsetHours * 60 : zone === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (+oh * 60 + +(om ?? 0));
  return wall - offsetMinutes * 60_000;
}

/** The form of a provider date, told by its shape. */
export function formOf(text: string): string {
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d$/.test(text)) return 'doc';
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/.test(text)) return 'offset';
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}$/.test(text)) return 'local';
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}$/.test(text)) return 'plus-hhmm';
  if (/^\d{4}-\d{1,2}-\d{1,2}T\d{1,2}:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/.test(text)) return 'one-digit';
  return 'unknown';
}

/**
 * The emulator of one test file: started before its tests in a folder of its own, reset before each, and
 * closed after; `client()` reaches it from 127.0.0.1. Read them inside tests (they are set in beforeAll).
 */
export function useEmulator(name: string): { emulator: () => RunningEmulator; client: () => EmulatorClient } {
  let e: RunningEmulator;
  let c: EmulatorClient;
  beforeAll(async () => {
    e = await startEmulator({ port: 0, dir: mkdtempSync(path.join(tmpdir(), `emu-${name}-`)) });
    c = new EmulatorClient(e);
  }, 20_000);
  afterAll(async () => {
    await c?.close();
    await e?.close();
  });
  beforeEach(async () => {
    expect((await c.control('reset', {})).status).toBe(200);
  });
  return { emulator: () => e, client: () => c };
}
