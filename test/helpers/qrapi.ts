// Live mode against the shipped emulator: an app with PROVIDER_DRIVER=qrapi pointed at an emulator on a
// free port (client-certificate TLS with its CA), a merchant connected through the official-API
// mechanism, and the emulator's test calls (scan, confirm, ...) and control API.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { buildTestApp, type TestApp } from './app.ts';
import { idsOf, newMerchant, type Merchant } from './factories.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { qrapiConnect } from '../../src/domain/payments/qrapi-connect.ts';
import type { QrapiCredentials } from '../../src/providers/qrapi/connection.ts';
import type { Fault } from '../../emulator/state.ts';

/** A BIN with a valid check digit: an organization of the emulator with trade points 1 and 2. */
export const BIN = '990140001233';

export interface QrapiWorld {
  t: TestApp;
  emu: RunningEmulator;
  /** r2/r3 credentials of the emulator's client certificate, or r1's key */
  credentials(scheme: 'r1' | 'r2' | 'r3'): QrapiCredentials;
  /** a merchant whose default live account is connected through the emulator */
  liveMerchant(scheme?: 'r1' | 'r2' | 'r3'): Promise<Merchant & { accountId: number; clientId: number }>;
  /** the customer in the provider's app: scan, confirm, scanerror, confirmerror */
  customer(action: 'scan' | 'confirm' | 'scanerror' | 'confirmerror', opId: string, customer?: string): Promise<void>;
  faults(faults: Fault[]): void;
  /** the emulator's control API (POST /__emulator/<path>), as anyone driving it would call it */
  control(path: string, body?: object): Promise<Record<string, unknown>>;
  /** the payer scanning a refund's return QR (r2): scan or scanerror, optionally as another customer */
  returnScan(
    action: 'scan' | 'scanerror',
    refundId: string,
    opts?: { customer?: string; opId?: string },
  ): Promise<void>;
  refOf(opId: string): Promise<string>;
  close(): Promise<void>;
}

export async function qrapiWorld(overrides: Partial<Config> = {}): Promise<QrapiWorld> {
  const emu = await startEmulator({ port: 0, dir: mkdtempSync(path.join(tmpdir(), 'qrapi-emu-')) });
  const base = loadConfig({}).qrapi;
  const t = await buildTestApp({
    providerDriver: 'qrapi',
    providerTimeoutMs: 2000,
    webhooksAllowPrivate: true,
    qrapi: {
      ...base,
      r1: `${emu.url}/r1/v01`,
      r2: `${emu.url}/r2/v01`,
      r3: `${emu.url}/r3/v01`,
      caFile: emu.ca,
      retryBaseMs: 5,
    },
    ...overrides,
  });
  const pfx = readFileSync(emu.clientPfx);
  const agent = new Agent({ connect: { ca: emu.caPem, pfx, passphrase: emu.clientPassword } });
  const credentials = (scheme: 'r1' | 'r2' | 'r3'): QrapiCredentials =>
    scheme === 'r1' ? { scheme, apiKey: emu.apiKey } : { scheme, pfx, password: emu.clientPassword };
  const refOf = async (opId: string) =>
    (
      await t.runtime.deps.db.query<{ provider_ref: string }>('SELECT provider_ref FROM operations WHERE id = $1', [
        opId,
      ])
    ).rows[0].provider_ref;
  return {
    t,
    emu,
    credentials,
    refOf,
    async liveMerchant(scheme = 'r3') {
      const m = await newMerchant(t.app);
      const { clientId } = await idsOf(t.runtime.deps.db, m);
      const accountId = await qrapiConnect(t.runtime.deps, clientId, {
        credentials: credentials(scheme),
        orgBin: scheme === 'r3' ? BIN : null,
        tradePointId: 1,
      });
      return { ...m, accountId, clientId };
    },
    async customer(action, opId, customer) {
      const res = await request(`${emu.url}/r3/v01/test/payment/${action}`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ qrPaymentId: await refOf(opId), ...(customer ? { customer } : {}) }),
      });
      const body = (await res.body.json()) as { StatusCode: number; Message?: string };
      if (body.StatusCode !== 0) throw new Error(`emulator ${action}: ${body.StatusCode} ${body.Message}`);
    },
    faults(faults) {
      emu.state.faults = faults.map((f) => ({ ...f }));
    },
    async control(controlPath, body = {}) {
      const res = await request(`${emu.url}/__emulator/${controlPath}`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await res.body.json()) as Record<string, unknown>;
      if (res.statusCode !== 200)
        throw new Error(`emulator control ${controlPath}: ${res.statusCode} ${JSON.stringify(answer)}`);
      return answer;
    },
    async returnScan(action, refundId, opts = {}) {
      const r = await t.runtime.deps.db.query<{ return_qr_id: string }>(
        'SELECT return_qr_id FROM refunds WHERE id = $1',
        [refundId],
      );
      const body: Record<string, string> = { qrReturnId: r.rows[0].return_qr_id };
      if (opts.customer) body.customer = opts.customer;
      if (opts.opId) body.qrPaymentId = await refOf(opts.opId);
      const res = await request(`${emu.url}/r2/v01/test/return/${action}`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await res.body.json()) as { StatusCode: number; Message?: string };
      if (answer.StatusCode !== 0) throw new Error(`emulator return ${action}: ${answer.StatusCode} ${answer.Message}`);
    },
    async close() {
      await t.close();
      await agent.close();
      await emu.close();
    },
  };
}
