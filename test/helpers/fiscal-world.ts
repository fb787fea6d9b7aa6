// Live mode with receipts on: Tolem's qrapi driver against the provider's emulator and a Webkassa or reKassa
// register per merchant at the fiscal emulator (both in-process, over TLS with their own CAs). The fiscal
// emulator's control API is there for the faults.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Config } from '../../src/config.ts';
import { loadConfig } from '../../src/config.ts';
import { pollWatchedQrs } from '../../src/domain/payments/watch.ts';
import { startFiscalEmulator, type RunningFiscalEmulator } from '../../fiscal-emulator/server.ts';
import { FiscalClient } from '../fiscal-emulator/harness.ts';
import { api } from './api.ts';
import type { TestApp } from './app.ts';
import { idem, type Merchant } from './factories.ts';
import { qrapiWorld, type QrapiWorld } from './qrapi.ts';

export interface FiscalMerchant extends Merchant {
  liveKey: string;
  /** Tolem's register id */
  registerId: string;
  /** the register's ЗНМ at the emulator (its control API's name for it) */
  unique: string;
}

export interface FiscalWorld {
  t: TestApp;
  qrapi: QrapiWorld;
  fe: RunningFiscalEmulator;
  /** the fiscal emulator's client: control API and direct calls */
  fc: FiscalClient;
  merchant(opts?: Record<string, unknown>): Promise<FiscalMerchant>;
  /** a live QR of `amount` created and paid by the customer, seen paid by the watcher */
  paidQr(m: FiscalMerchant, amount: number, body?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

let registers = 0;

export async function fiscalWorld(
  driver: 'webkassa' | 'rekassa',
  overrides: Partial<Config> = {},
): Promise<FiscalWorld> {
  const fe = await startFiscalEmulator({ port: 0, dir: mkdtempSync(path.join(tmpdir(), `fiscal-${driver}-`)) });
  const fc = new FiscalClient(fe);
  const qrapi = await qrapiWorld({
    fiscal: {
      ...loadConfig({}).fiscal,
      webkassaUrl: fe.url,
      webkassaApiKey: fe.webkassa.apiKey,
      rekassaUrl: fe.url,
      rekassaApiKey: fe.rekassa.apiKey,
      caFile: fe.ca,
      timeoutMs: 3000,
    },
    ...overrides,
  });
  const t = qrapi.t;
  return {
    t,
    qrapi,
    fe,
    fc,
    async merchant(opts = {}) {
      const m = await qrapi.liveMerchant('r3');
      // A register of its own at the service, as the merchant's account there would have.
      const n = `${String(process.pid).slice(-3)}${String(++registers).padStart(4, '0')}`;
      const reg = await fc.ok('POST', 'registers', { unique_number: `SWK9${n}`, rekassa: { number: `8${n}` } });
      const setup =
        driver === 'webkassa'
          ? {
              credentials: { login: fe.webkassa.login, password: fe.webkassa.password },
              register_number: reg.unique_number,
            }
          : {
              credentials: { password: reg.rekassa.password as string, pin: reg.rekassa.pin as string },
              register_number: reg.rekassa.number as string,
            };
      const res = await api(t.app, m).post('/me/fiscal/registers', {
        body: { driver, ...setup, vat_payer: true, ...opts } as never,
        headers: idem(),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { ...m, registerId: (res.body as { id: string }).id, unique: reg.unique_number as string };
    },
    async paidQr(m, amount, body = {}) {
      const c = api(t.app, { apiKey: m.liveKey });
      const created = await c.post('/v2/qr', { body: { amount, ...body } as never, headers: idem() });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const opId = (created.body as { operation_id: string }).operation_id;
      await qrapi.customer('scan', opId);
      await qrapi.customer('confirm', opId);
      await t.runtime.deps.db.query('UPDATE operations SET next_poll_at = now() WHERE id = $1', [opId]);
      await pollWatchedQrs(t.runtime.deps, { batch: 100, perAccount: 100 });
      return opId;
    },
    async close() {
      await qrapi.close();
      await fc.agent.close();
      await fe.close();
    },
  };
}

/** What the register itself holds (the service's count, not Tolem's). */
export async function heldAt(
  w: FiscalWorld,
  unique: string,
): Promise<{ external_id: string; fiscal_sign: string; kind: string; offline: boolean; shift_number: number }[]> {
  return (await w.fc.ok('GET', `receipts?register=${unique}`)).receipts;
}
