// Fiscal actors for tests: a cash register set up through POST /me/fiscal/registers, and the receipts worker
// run until nothing is due (what the worker process does in the background).
import type { TestApp } from './app.ts';
import { api } from './api.ts';
import { idem, type Merchant } from './factories.ts';
import { FiscalWorker } from '../../src/jobs/fiscal.ts';

export interface RegisterOptions {
  mode?: 'live' | 'test';
  driver?: 'sandbox' | 'webkassa' | 'rekassa';
  credentials?: Record<string, string>;
  register_number?: string;
  vat_payer?: boolean;
  vat_rate_bps?: number;
  payment_type?: 'mobile' | 'card';
  provider_account_id?: number | null;
  auto?: boolean;
  default_item_name?: string;
}

let counter = 0;

/** A register of `m` (test mode and the sandbox driver unless told), answered as the API shows it. */
export async function newRegister(t: TestApp, m: Merchant, o: RegisterOptions = {}) {
  const { mode = 'test', driver = 'sandbox', credentials = {}, ...settings } = o;
  const res = await api(t.app, m).post(`/me/fiscal/registers?mode=${mode}`, {
    body: { driver, credentials, register_number: `SWK${process.pid}${++counter}`, ...settings },
    headers: idem(),
  });
  if (res.status !== 201) throw new Error(`register set-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Runs the receipts worker until a pass settles nothing (bounded: at most `passes` passes). */
export async function issueReceipts(t: TestApp, passes = 20): Promise<number> {
  const w = new FiscalWorker(t.runtime.deps, t.app.log);
  let total = 0;
  for (let i = 0; i < passes; i++) {
    const n = await w.runOnce();
    total += n;
    if (!n) break;
  }
  return total;
}
