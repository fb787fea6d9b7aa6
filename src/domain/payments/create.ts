import type { Deps, DbDeps } from '../../deps.ts';
import type { Mode, Tenant } from '../tenant.ts';
import type { Receipt } from '../receipt.ts';
import { AppError } from '../../errors.ts';
import { ProviderOutcomeUnknown } from '../../providers/types.ts';
import { newId } from '../ids.ts';
import { checkAmount, normalizePhone } from './input.ts';
import { resolveItems, type Line, type LineInput } from './line-items.ts';
import type { Operation } from './operations.ts';
import { assertPlanAllowsCreate } from './plan-check.ts';
import { providerCall } from './provider-call.ts';
import { providerFor, requireCapability, resolveProviderAccount } from './provider-accounts.ts';
import { watchQr } from './watch.ts';
import { payerPageUrl } from './payer-url.ts';

export const QR_LIFETIME_S = 300;
export const V1_QR_LIFETIME_S = 180;
export const INVOICE_LIFETIME_S = 24 * 3600;

/** Whose payment, and through what it is made. */
export interface CreateContext extends Tenant {
  /** X-Provider-Account, raw */
  account?: string;
  source: Operation['source'];
  linkToken?: string | null;
  metadata?: Record<string, unknown> | null;
  /** decisions 28: a QR made at a counter (source `counter`), by this cashier (a user id) */
  counter?: { id: string; cashierId: number };
  /** How long the QR may be scanned; the provider's own deadline wins when it is earlier. */
  lifetimeS?: number;
}

/** What an insert leaves to the database; everything else of the operation is what we inserted. */
type Generated = Pick<Operation, 'seq' | 'created_at' | 'updated_at'>;

/** The new operation with the columns' defaults filled in: all of it but what the database generates. */
export type Inserted = Omit<Operation, keyof Generated>;
// Object.assign rather than spreads: see docs/architecture.md (object shapes on hot paths).
const withDefaults = (row: NewOperation): Inserted =>
  Object.assign(
    {
      refunded_amount: 0,
      comment: null,
      items: null,
      phone: null,
      sender_name: null,
      transaction_id: null,
      raw_provider_status: null,
      qr_token: null,
      deep_link: null,
      link_token: null,
      metadata: null,
      counter_id: null,
      cashier_id: null,
      paid_at: null,
    },
    row,
  );

export type NewOperation = Pick<
  Operation,
  | 'id'
  | 'client_id'
  | 'mode'
  | 'type'
  | 'status'
  | 'amount'
  | 'provider_account_id'
  | 'provider_ref'
  | 'source'
  | 'expires_at'
> &
  Partial<
    Pick<
      Operation,
      'comment' | 'items' | 'phone' | 'qr_token' | 'deep_link' | 'link_token' | 'metadata' | 'counter_id' | 'cashier_id'
    >
  >;

/** jsonb columns go to the driver as JSON text. */
const JSON_COLUMNS = new Set(['items', 'metadata']);

// Statement texts by column list (a creation has one of a handful), so a request neither rebuilds the
// text nor makes the driver hash a new string to find its prepared statement.
const insertTexts = new Map<string, string>();
const withAlsoTexts = new Map<string, Map<string, string>>();

function insertText(cols: string[]): string {
  const key = cols.join(',');
  let text = insertTexts.get(key);
  if (!text) {
    text = `INSERT INTO operations (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})
            RETURNING seq, created_at, updated_at`;
    insertTexts.set(key, text);
  }
  return text;
}

/** `insert` and `also` are texts memoized by their makers: the same string objects every time. */
function withAlsoText(insert: string, also: string): string {
  let byAlso = withAlsoTexts.get(insert);
  if (!byAlso) withAlsoTexts.set(insert, (byAlso = new Map()));
  let text = byAlso.get(also);
  if (!text) byAlso.set(also, (text = `WITH op AS (${insert}), also AS (${also}) SELECT * FROM op`));
  return text;
}

// Only the generated columns are returned: the rest is what we inserted (on the embedded store,
// returning all 25 columns cost about a third of the statement). A receipt that can save in one
// statement is written as a CTE of the insert: one round trip, no BEGIN/COMMIT.
async function insertOperation(deps: DbDeps, row: NewOperation, receipt?: Receipt<Operation>): Promise<Operation> {
  const cols = Object.keys(row) as (keyof NewOperation)[];
  const values = cols.map((c) => (JSON_COLUMNS.has(c) && row[c] != null ? JSON.stringify(row[c]) : row[c]));
  const insert = insertText(cols);
  const inserted = withDefaults(row);
  if (receipt?.saveStatement) {
    // The answer is made from the row as inserted (ReceiptOptions.oneStatement: it needs no generated column).
    const extra = receipt.saveStatement(inserted as Operation, cols.length);
    const r = await deps.db.query<Generated>(withAlsoText(insert, extra.sql), [...values, ...extra.params]);
    return Object.assign(inserted, r.rows[0]);
  }
  return deps.db.tx(async (tx) => {
    const r = await tx.query<Generated>(insert, values);
    const op: Operation = Object.assign(inserted, r.rows[0]);
    if (receipt) await receipt.save(tx, op);
    return op;
  });
}

export interface QrInput {
  amount: number;
  items?: LineInput[];
  /** items already resolved (a link's, made when the link was): stored as they are */
  lines?: Line[] | null;
  comment?: string;
}

export async function createQr(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock' | 'providers' | 'caches'>,
  ctx: CreateContext,
  input: QrInput,
  receipt?: Receipt<Operation>,
): Promise<Operation> {
  const lifetimeS = ctx.lifetimeS ?? QR_LIFETIME_S;
  checkAmount(input.amount, deps.config.amountMax);
  const items = input.lines ?? (await resolveItems(deps.db, ctx, input.items, input.amount, deps.config.amountMax));
  await assertPlanAllowsCreate(deps, ctx);
  const account = await resolveProviderAccount(deps, ctx, ctx.account);
  const provider = await providerFor(deps, ctx.mode, account.id);
  const qr = await providerCall(deps, ctx.mode, account.id, () =>
    provider.createQr({ amount: input.amount, comment: input.comment, lifetimeS, requestId: receipt?.requestId }),
  );
  const id = newId('op');
  const op = await insertOperation(
    deps,
    {
      id,
      client_id: ctx.clientId,
      mode: ctx.mode,
      type: 'qr',
      status: 'created',
      amount: input.amount,
      comment: input.comment ?? null,
      items: items ?? null,
      provider_account_id: account.id,
      provider_ref: qr.ref,
      qr_token: qr.qrToken,
      deep_link: deepLinkOf(deps, ctx.mode, id, qr.deepLink),
      source: ctx.source,
      link_token: ctx.linkToken ?? null,
      metadata: ctx.metadata ?? null,
      // Only a counter's QR names these columns: every other creation keeps its statement text.
      ...(ctx.counter && { counter_id: ctx.counter.id, cashier_id: ctx.counter.cashierId }),
      // Our deadline is ours: never later than the provider's.
      expires_at: new Date(Math.min(qr.expiresAt.getTime(), deps.clock.now().getTime() + lifetimeS * 1000)),
    },
    receipt,
  );
  if (qr.timing && ctx.mode === 'live') await watchQr(deps, op.id, qr.timing);
  return op;
}

/**
 * `deep_link` is always a URL that opens this payment (decisions 26): Tolem's payer page for a live
 * operation (the provider's token is what the QR encodes, a digit string, not a link), the sandbox's
 * payer page for a test one.
 */
function deepLinkOf(deps: Pick<Deps, 'config'>, mode: Mode, opId: string, providerLink: string | undefined): string {
  if (mode === 'test' && providerLink) return providerLink;
  return payerPageUrl(deps.config.publicBaseUrl, opId);
}

export async function createInvoice(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock' | 'providers' | 'caches'>,
  ctx: CreateContext,
  input: { phone: string; amount: number; items?: LineInput[]; comment?: string },
  receipt?: Receipt<Operation>,
): Promise<Operation> {
  checkAmount(input.amount, deps.config.amountMax);
  const phone = normalizePhone(input.phone);
  const items = await resolveItems(deps.db, ctx, input.items, input.amount, deps.config.amountMax);
  await assertPlanAllowsCreate(deps, ctx);
  const account = await resolveProviderAccount(deps, ctx, ctx.account);
  const provider = await providerFor(deps, ctx.mode, account.id);
  requireCapability(provider, 'invoice', 'send invoices to a phone');
  const customer = await providerCall(deps, ctx.mode, account.id, () => provider.findCustomer(phone));
  if (!customer) throw new AppError('client_not_found', `${phone} is not a customer of the provider`);
  const inv = await providerCall(deps, ctx.mode, account.id, () =>
    provider.createInvoice({
      phone,
      amount: input.amount,
      comment: input.comment,
      lifetimeS: INVOICE_LIFETIME_S,
      requestId: receipt?.requestId,
    }),
  ).catch(async (err: unknown) => {
    // Drivers whose creations are idempotent by request id (the sandbox, the gateway) may simply be asked
    // again; qrapi's may not.
    if (provider.name === 'qrapi' && err instanceof AppError && err.cause instanceof ProviderOutcomeUnknown)
      await receipt?.outcomeUnknown?.();
    throw err;
  });
  return insertOperation(
    deps,
    {
      id: newId('op'),
      client_id: ctx.clientId,
      mode: ctx.mode,
      type: 'invoice',
      status: 'created',
      amount: input.amount,
      comment: input.comment ?? null,
      items,
      phone,
      provider_account_id: account.id,
      provider_ref: inv.ref,
      source: ctx.source,
      link_token: ctx.linkToken ?? null,
      metadata: ctx.metadata ?? null,
      expires_at: new Date(Math.min(inv.expiresAt.getTime(), deps.clock.now().getTime() + INVOICE_LIFETIME_S * 1000)),
    },
    receipt,
  );
}
