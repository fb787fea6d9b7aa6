// Creating a QR or an invoice: check the input and the plan, pick the provider account, ask the provider
// (outside any transaction), then record the operation in one transaction. `inTx` lets the caller write
// in that same transaction (the idempotency record, a payment link's bookkeeping), so that the operation
// and the stored response commit together or not at all.
import type { Queryable } from '../../db/db.ts';
import type { Deps, Mode } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../ids.ts';
import { checkAmount, checkItems, normalizePhone, type Item } from './input.ts';
import { OP_COLUMNS, type Operation } from './operations.ts';
import { assertPlanAllowsCreate } from './plan-check.ts';
import { providerCall } from './provider-call.ts';
import { providerFor, resolveProviderAccount } from './provider-accounts.ts';

export const QR_LIFETIME_S = 300;
export const V1_QR_LIFETIME_S = 180;
export const INVOICE_LIFETIME_S = 24 * 3600;

export interface CreateContext {
  clientId: number;
  mode: Mode;
  /** X-Provider-Account, raw */
  account?: string;
  source: Operation['source'];
  linkToken?: string | null;
  metadata?: Record<string, unknown> | null;
  inTx?: (tx: Queryable, op: Operation) => Promise<void>;
  /**
   * A statement to run atomically with the insert, as a data-modifying CTE of the same statement (one
   * round trip, no BEGIN/COMMIT): the idempotency record. Gets the row to be inserted and the number of
   * parameters already used.
   */
  alsoWrite?: (row: Record<string, unknown>, offset: number) => { sql: string; params: unknown[] };
}

async function insertOperation(deps: Deps, ctx: CreateContext, row: Record<string, unknown>): Promise<Operation> {
  const cols = Object.keys(row);
  if (ctx.alsoWrite && !ctx.inTx) {
    const extra = ctx.alsoWrite(row, cols.length);
    const r = await deps.db.query<Operation>(
      `WITH op AS (INSERT INTO operations (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${OP_COLUMNS}),
            also AS (${extra.sql})
       SELECT * FROM op`,
      [...cols.map((c) => row[c]), ...extra.params],
    );
    return r.rows[0];
  }
  return deps.db.tx(async (tx) => {
    const r = await tx.query<Operation>(
      `INSERT INTO operations (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${OP_COLUMNS}`,
      cols.map((c) => row[c]),
    );
    const op = r.rows[0];
    if (ctx.inTx) await ctx.inTx(tx, op);
    return op;
  });
}

export async function createQr(
  deps: Deps,
  ctx: CreateContext,
  input: { amount: number; items?: Item[]; comment?: string },
  lifetimeS = QR_LIFETIME_S,
): Promise<Operation> {
  checkAmount(input.amount, deps.config.amountMax);
  const items = checkItems(input.items, input.amount, deps.config.amountMax);
  await assertPlanAllowsCreate(deps, ctx.clientId, ctx.mode);
  const account = await resolveProviderAccount(deps, ctx.clientId, ctx.mode, ctx.account);
  const provider = providerFor(deps, ctx.mode);
  const qr = await providerCall(deps, ctx.mode, account.id, () =>
    provider.createQr({ amount: input.amount, comment: input.comment, lifetimeS }),
  );
  return insertOperation(deps, ctx, {
    id: newId('op'), client_id: ctx.clientId, mode: ctx.mode, type: 'qr', status: 'created', amount: input.amount,
    comment: input.comment ?? null, items: items ? JSON.stringify(items) : null, provider_account_id: account.id,
    provider_ref: qr.ref, qr_token: qr.qrToken, deep_link: qr.deepLink, source: ctx.source, link_token: ctx.linkToken ?? null,
    metadata: ctx.metadata ? JSON.stringify(ctx.metadata) : null,
    // Our deadline is ours: never later than the provider's.
    expires_at: new Date(Math.min(qr.expiresAt.getTime(), deps.clock.now().getTime() + lifetimeS * 1000)),
  });
}

export async function createInvoice(
  deps: Deps,
  ctx: CreateContext,
  input: { phone: string; amount: number; comment?: string },
): Promise<Operation> {
  checkAmount(input.amount, deps.config.amountMax);
  const phone = normalizePhone(input.phone);
  await assertPlanAllowsCreate(deps, ctx.clientId, ctx.mode);
  const account = await resolveProviderAccount(deps, ctx.clientId, ctx.mode, ctx.account);
  const provider = providerFor(deps, ctx.mode);
  const customer = await providerCall(deps, ctx.mode, account.id, () => provider.findCustomer(phone));
  if (!customer) throw new AppError('client_not_found', `${phone} is not a customer of the provider`, { param: 'phone' });
  const inv = await providerCall(deps, ctx.mode, account.id, () =>
    provider.createInvoice({ phone, amount: input.amount, comment: input.comment, lifetimeS: INVOICE_LIFETIME_S }),
  );
  return insertOperation(deps, ctx, {
    id: newId('op'), client_id: ctx.clientId, mode: ctx.mode, type: 'invoice', status: 'created', amount: input.amount,
    comment: input.comment ?? null, phone, provider_account_id: account.id, provider_ref: inv.ref, source: ctx.source,
    link_token: ctx.linkToken ?? null, metadata: ctx.metadata ? JSON.stringify(ctx.metadata) : null,
    expires_at: new Date(Math.min(inv.expiresAt.getTime(), deps.clock.now().getTime() + INVOICE_LIFETIME_S * 1000)),
  });
}
