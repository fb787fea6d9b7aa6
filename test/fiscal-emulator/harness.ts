// A client of a fiscal emulator started for one test file, over real HTTPS trusting its CA: Webkassa and
// reKassa calls, the control API, and a valid receipt body of each surface.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { Agent, request } from 'undici';
import { startFiscalEmulator, type RunningFiscalEmulator } from '../../fiscal-emulator/server.ts';

export interface Reply {
  status: number;
  text: string;
  json: any;
  headers: Record<string, string | string[] | undefined>;
}

export class FiscalClient {
  readonly agent: Agent;
  token = '';
  rkToken = '';
  constructor(readonly e: RunningFiscalEmulator) {
    this.agent = new Agent({ connect: { ca: e.caPem } });
  }

  async call(
    method: string,
    p: string,
    body?: unknown,
    headers: Record<string, string> = {},
    o: { host?: string; timeoutMs?: number } = {},
  ): Promise<Reply> {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const res = await request(`https://${o.host ?? '127.0.0.1'}:${this.e.port}${p}`, {
      method: method as 'GET',
      dispatcher: this.agent,
      headers: { ...(text === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: text,
      headersTimeout: o.timeoutMs ?? 5000,
      bodyTimeout: o.timeoutMs ?? 5000,
    });
    const t = await res.body.text();
    let json: unknown;
    try {
      json = JSON.parse(t);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, text: t, json, headers: res.headers };
  }

  control(method: string, p: string, body?: object): Promise<Reply> {
    return this.call(method, `/__fiscal/${p}`, body, { 'x-control-token': this.e.controlToken });
  }

  async ok(method: string, p: string, body?: object): Promise<any> {
    const r = await this.control(method, p, body);
    expect(r.status, r.text).toBeLessThan(300);
    return r.json;
  }

  /** A Webkassa call with the API key and (unless the body has one) the current token. */
  wk(p: string, body: object = {}, o: { host?: string; timeoutMs?: number } = {}): Promise<Reply> {
    return this.call(
      'POST',
      `/api/v4/${p}`,
      { Token: this.token, ...body },
      { 'x-api-key': this.e.webkassa.apiKey },
      o,
    );
  }

  async login(): Promise<string> {
    const r = await this.wk('Authorize', { Login: this.e.webkassa.login, Password: this.e.webkassa.password });
    this.token = r.json.Data.Token;
    return this.token;
  }

  rk(method: string, p: string, body?: object, headers: Record<string, string> = {}, timeoutMs?: number) {
    return this.call(
      method,
      p,
      body,
      { authorization: `Bearer ${this.rkToken}`, 'x-request-id': crypto.randomUUID(), ...headers },
      { timeoutMs },
    );
  }

  async rkLogin(number = this.e.rekassa.number, password = this.e.rekassa.password): Promise<Reply> {
    const r = await this.call('POST', `/api/auth/login?apiKey=${this.e.rekassa.apiKey}&format=json`, {
      number,
      password,
    });
    if (r.status === 200) this.rkToken = r.json.token;
    return r;
  }

  close() {
    return this.agent.close();
  }
}

/** A Webkassa sale of one line at 12% VAT inside, paid by card. */
export function sale(ext: string = crypto.randomUUID(), price = 500, extra: object = {}, cashbox = 'SWK00033717') {
  return {
    CashboxUniqueNumber: cashbox,
    OperationType: 2,
    Positions: [
      {
        Count: 1,
        Price: price,
        TaxType: 100,
        TaxPercent: 12,
        Tax: Math.round((price * 12 * 100) / 112) / 100,
        PositionName: 'Оплата',
        UnitCode: 796,
        ...extra,
      },
    ],
    Payments: [{ Sum: price, PaymentType: 4 }],
    ExternalCheckNumber: ext,
  };
}

/** A return of `amount` from a sale of `saleTotal` answered by /check: its basis from that answer. */
export function saleReturn(d: any, saleTotal: number, amount = saleTotal, ext: string = crypto.randomUUID()) {
  const [dd, mm, yyyy, time] = d.DateTime.split(/[. ]/);
  return {
    ...sale(ext, amount),
    OperationType: 3,
    ReturnBasisDetails: {
      CheckNumber: d.CheckNumber,
      DateTime: `${yyyy}-${mm}-${dd}T${time}+05:00`,
      RegistrationNumber: d.Cashbox.RegistrationNumber,
      Total: saleTotal,
      IsOffline: d.OfflineMode,
    },
  };
}

/** A reKassa ticket body: one item at 12% VAT inside, priced in tenge. */
export function ticket(price = 500, operation = 'OPERATION_SELL', extra: object = {}) {
  const d = new Date(Date.now() + 5 * 3600_000);
  const tax = Math.round((price * 100 * 12) / 112);
  const m = (t: number) => ({ bills: Math.trunc(t / 100), coins: t % 100 });
  return {
    operation,
    dateTime: {
      date: { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() },
      time: { hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() },
    },
    domain: { type: 'DOMAIN_SERVICES' },
    items: [
      {
        type: 'ITEM_TYPE_COMMODITY',
        commodity: {
          name: 'Оплата',
          sectionCode: '1',
          quantity: 1000,
          price: m(price * 100),
          sum: m(price * 100),
          measureUnitCode: '796',
          taxes: [{ taxType: 100, taxationType: 100, percent: 12000, sum: m(tax), isInTotalSum: true }],
        },
      },
    ],
    payments: [{ type: 'PAYMENT_CARD', sum: m(price * 100) }],
    amounts: { total: m(price * 100), taken: m(price * 100), change: m(0) },
    ...extra,
  };
}

export function useFiscalEmulator(name: string): () => FiscalClient {
  let e: RunningFiscalEmulator;
  let c: FiscalClient;
  beforeAll(async () => {
    e = await startFiscalEmulator({ port: 0, dir: mkdtempSync(path.join(tmpdir(), `fiscal-${name}-`)) });
    c = new FiscalClient(e);
  }, 30_000);
  afterAll(async () => {
    await c?.close();
    await e?.close();
  });
  beforeEach(async () => {
    await c.ok('POST', 'reset', {});
    c.token = '';
    c.rkToken = '';
  });
  return () => c;
}
