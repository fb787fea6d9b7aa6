// Partner money, part two (decisions 21): paying a client's plan from the balance, bank details (sealed,
// IBAN masked, frozen while a withdrawal is open), and withdrawals confirmed by a code sent by messenger.
// Every movement of the balance is a ledger entry in the same transaction (ledger.ts); the balance row is
// locked first, so concurrent requests queue and none overdraws.
import { userMessengerChat } from '../accounts/users-store.ts';
import { isClientOfPartner } from '../accounts/clients-store.ts';
import { randomInt } from 'node:crypto';
import type { Deps, DbDeps, DbSecretsDeps } from '../../deps.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors.ts';
import { sha256Hex, safeEqual } from '../../crypto.ts';
import { enqueueMessage } from '../channels/outbox.ts';
import { checkBik, checkBin, checkIban, checkKbe } from '../organization/requisites.ts';
import { applyPlan } from '../subscriptions/activate.ts';
import { purchasablePrice } from '../subscriptions/subscriptions.ts';
import { page, type PageResult, type Position, type Paging } from '../pagination.ts';
import { post } from './ledger.ts';

export const WITHDRAWAL_MIN = 30_000;
export const CONFIRMATION_CODE_MINUTES = 10;
export const CODE_TRIES = 5;

async function lockBalance(tx: Queryable, partnerId: number): Promise<number> {
  await tx.query('INSERT INTO partner_balances (partner_id) VALUES ($1) ON CONFLICT DO NOTHING', [partnerId]);
  const r = await tx.query<{ available_kzt: string }>(
    'SELECT available_kzt FROM partner_balances WHERE partner_id = $1 FOR UPDATE',
    [partnerId],
  );
  return Number(r.rows[0].available_kzt);
}

/** POST /partner/clients/{id}/pay-subscription: the plan from the available balance, no commission on it. */
export async function payClientPlan(
  deps: Pick<Deps, 'config' | 'db' | 'clock'>,
  partnerId: number,
  targetClientId: number,
  plan: string,
  save?: (tx: Queryable, answer: object) => Promise<void>,
) {
  const price = purchasablePrice(deps, plan);
  return deps.db.tx(async (tx) => {
    if (!(await isClientOfPartner(tx, targetClientId, partnerId)))
      throw new AppError('client_not_found', `client ${targetClientId} not found`);
    const available = await lockBalance(tx, partnerId);
    if (available < price)
      throw new AppError('insufficient_balance', `the plan costs ${price} tenge; ${available} are available`);
    await post(tx, partnerId, {
      type: 'subscription',
      amount: -price,
      available: -price,
      pending: 0,
      ref: `client:${targetClientId}:${plan}`,
    });
    const { expires_at } = await applyPlan(tx, targetClientId, plan, deps.clock.now(), { paid_by_partner: partnerId });
    const answer = { client_id: targetClientId, plan, amount: price, plan_expires_at: expires_at };
    await save?.(tx, answer);
    return answer;
  });
}

// Bank details.
export interface BankDetails {
  recipient_name: string | null;
  bin: string | null;
  iban: string | null;
  bik: string | null;
  bank_name: string | null;
  kbe: string | null;
}
const EMPTY: BankDetails = { recipient_name: null, bin: null, iban: null, bik: null, bank_name: null, kbe: null };
const masked = (iban: string | null) =>
  iban ? `${iban.slice(0, 4)}${'*'.repeat(Math.max(0, iban.length - 8))}${iban.slice(-4)}` : null;

async function bankOf(
  deps: Pick<Deps, 'secrets'>,
  db: Queryable,
  partnerId: number,
): Promise<{ details: BankDetails; updated_at: Date | null }> {
  const r = await db.query<{ details_sealed: string; updated_at: Date }>(
    'SELECT details_sealed, updated_at FROM partner_bank WHERE partner_id = $1',
    [partnerId],
  );
  if (!r.rows[0]) return { details: EMPTY, updated_at: null };
  return { details: JSON.parse(deps.secrets.sealer.open(r.rows[0].details_sealed)), updated_at: r.rows[0].updated_at };
}

/** The bank details a withdrawal needs (recipient and IBAN) are there: the profile's bank_details_set. */
export async function bankDetailsSet(deps: DbSecretsDeps, partnerId: number): Promise<boolean> {
  const { details } = await bankOf(deps, deps.db, partnerId);
  return Boolean(details.iban && details.recipient_name);
}

export async function getBank(deps: DbSecretsDeps, partnerId: number) {
  const b = await bankOf(deps, deps.db, partnerId);
  return { ...b.details, iban: masked(b.details.iban), updated_at: b.updated_at };
}

export async function patchBank(deps: DbSecretsDeps, partnerId: number, patch: Partial<BankDetails>) {
  const check = (v: string | null | undefined, param: string, fn: typeof checkBin) => {
    if (v === undefined || v === null || v === '') return v === '' ? null : v;
    const c = fn(v);
    if (!c.ok) throw new AppError('invalid_parameter', `${param} ${c.why}`, { param });
    return c.value;
  };
  const clean: Partial<BankDetails> = {
    ...patch,
    bin: check(patch.bin, 'bin', checkBin),
    iban: check(patch.iban, 'iban', checkIban),
    bik: check(patch.bik, 'bik', checkBik),
    kbe: check(patch.kbe, 'kbe', checkKbe),
  };
  await deps.db.tx(async (tx) => {
    await tx.query('SELECT 1 FROM partners WHERE id = $1 FOR UPDATE', [partnerId]);
    const open = await tx.query(
      `SELECT 1 FROM withdrawals WHERE partner_id = $1 AND status IN ('confirmation_required', 'processing')`,
      [partnerId],
    );
    if (open.rows.length)
      throw new AppError('withdrawal_in_progress', 'bank details are frozen while a withdrawal is open');
    const now = await bankOf(deps, tx, partnerId);
    const next: BankDetails = { ...now.details };
    for (const k of Object.keys(EMPTY) as (keyof BankDetails)[]) if (clean[k] !== undefined) next[k] = clean[k] ?? null;
    await tx.query(
      `INSERT INTO partner_bank (partner_id, details_sealed) VALUES ($1, $2)
       ON CONFLICT (partner_id) DO UPDATE SET details_sealed = EXCLUDED.details_sealed, updated_at = now()`,
      [partnerId, deps.secrets.sealer.seal(JSON.stringify(next))],
    );
  });
  return getBank(deps, partnerId);
}

// Withdrawals.
export interface Withdrawal {
  id: number;
  partner_id: number;
  amount: number;
  status: 'confirmation_required' | 'processing' | 'paid' | 'rejected' | 'cancelled';
  code_expires_at: Date | null;
  attempts_left: number;
  reference: string | null;
  reason: string | null;
  paid_at: Date | null;
  created_at: Date;
}
const W = `id, partner_id, amount::float8 AS amount, status, code_expires_at, attempts_left, reference, reason, paid_at,
  created_at`;

export async function requestWithdrawal(
  deps: DbSecretsDeps,
  partnerId: number,
  userId: number,
  amount: number,
  save?: (tx: Queryable, w: Withdrawal) => Promise<void>,
): Promise<Withdrawal> {
  if (!Number.isInteger(amount) || amount < WITHDRAWAL_MIN)
    throw new AppError('withdrawal_below_minimum', `at least ${WITHDRAWAL_MIN} tenge`, { param: 'amount' });
  const bank = await bankOf(deps, deps.db, partnerId);
  // The same rule as bankDetailsSet.
  if (!bank.details.iban || !bank.details.recipient_name)
    throw new AppError('bank_details_required', 'set the bank details first (PATCH /partner/settings/bank)');
  const chat = await userMessengerChat(deps.db, userId);
  if (!chat)
    throw new AppError(
      'messenger_not_linked',
      'link your messenger first (POST /me/messenger-link): the confirmation code goes there',
    );
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return deps.db.tx(async (tx) => {
    const available = await lockBalance(tx, partnerId);
    if (available < amount) throw new AppError('insufficient_balance', `${available} tenge are available`);
    const open = await tx.query(
      `SELECT 1 FROM withdrawals WHERE partner_id = $1 AND status IN ('confirmation_required', 'processing')`,
      [partnerId],
    );
    if (open.rows.length)
      throw new AppError('withdrawal_in_progress', 'a withdrawal is already open; confirm or wait for it');
    const r = await tx.query<Withdrawal>(
      `INSERT INTO withdrawals (partner_id, amount, status, requested_by, code_sealed, code_expires_at, attempts_left,
                               bank_sealed)
       VALUES ($1, $2, 'confirmation_required', $3, $4,
               now() + make_interval(mins => ${CONFIRMATION_CODE_MINUTES}), ${CODE_TRIES},
               $5)
       RETURNING ${W}`,
      [
        partnerId,
        amount,
        userId,
        deps.secrets.sealer.seal(code),
        deps.secrets.sealer.seal(JSON.stringify(bank.details)),
      ],
    );
    const w = r.rows[0];
    await post(tx, partnerId, {
      type: 'withdrawal_hold',
      amount: -amount,
      available: -amount,
      pending: 0,
      ref: `withdrawal:${w.id}`,
    });
    await enqueueMessage(
      tx,
      {
        channel: 'messenger',
        recipient: chat,
        purpose: 'withdrawal_code',
        body:
          `Tolem: the code to confirm withdrawing ${amount} tenge is ${code}. ` +
          `Valid ${CONFIRMATION_CODE_MINUTES} minutes.`,
        secrets: [code],
      },
      deps.secrets.sealer,
    );
    await save?.(tx, w);
    return w;
  });
}

async function release(
  tx: Queryable,
  w: { id: number; partner_id: number; amount: number },
  status: 'cancelled' | 'rejected',
  reason?: string,
): Promise<void> {
  await tx.query(
    `UPDATE withdrawals SET status = $2, reason = COALESCE($3, reason), code_hash = NULL, code_sealed = NULL
      WHERE id = $1`,
    [w.id, status, reason ?? null],
  );
  await post(tx, w.partner_id, {
    type: 'withdrawal_release',
    amount: Number(w.amount),
    available: Number(w.amount),
    pending: 0,
    ref: `withdrawal:${w.id}`,
  });
}

export async function confirmWithdrawal(
  deps: DbSecretsDeps,
  partnerId: number,
  id: number,
  code: string,
): Promise<Withdrawal> {
  const outcome = await deps.db.tx(async (tx) => {
    const w = (
      await tx.query<{
        id: number;
        partner_id: number;
        amount: number;
        status: string;
        code_hash: string | null;
        code_sealed: string | null;
        expired: boolean;
        attempts_left: number;
      }>(
        `SELECT id, partner_id, amount, status, code_hash, code_sealed, code_expires_at <= now() AS expired,
                attempts_left
           FROM withdrawals WHERE id = $1 AND partner_id = $2 FOR UPDATE`,
        [id, partnerId],
      )
    ).rows[0];
    if (!w) return { error: new AppError('withdrawal_not_found', `withdrawal ${id} not found`) };
    if (w.status !== 'confirmation_required')
      return { error: new AppError('withdrawal_state', `withdrawal ${id} is ${w.status}`) };
    if (w.expired) {
      await release(tx, w, 'cancelled', 'the code expired');
      return {
        error: new AppError(
          'confirmation_invalid',
          'the code expired; the withdrawal is cancelled and its amount released',
          { param: 'code', extra: { attempts_left: 0 } },
        ),
      };
    }
    // The code is kept sealed (its SHA-256 would give it back: six digits are a million tries); a code
    // issued before sealing still has only its hash.
    if (
      !(w.code_sealed
        ? safeEqual(code, deps.secrets.sealer.open(w.code_sealed))
        : safeEqual(sha256Hex(code), w.code_hash ?? ''))
    ) {
      const left = w.attempts_left - 1;
      if (left <= 0) {
        await release(tx, w, 'cancelled', 'too many wrong codes');
        return {
          error: new AppError(
            'confirmation_invalid',
            'the code is wrong; the withdrawal is cancelled and its amount released',
            { param: 'code', extra: { attempts_left: 0 } },
          ),
        };
      }
      await tx.query('UPDATE withdrawals SET attempts_left = $2 WHERE id = $1', [id, left]);
      return {
        error: new AppError('confirmation_invalid', 'the code is wrong', {
          param: 'code',
          extra: { attempts_left: left },
        }),
      };
    }
    await tx.query(`UPDATE withdrawals SET status = 'processing', code_hash = NULL, code_sealed = NULL WHERE id = $1`, [
      id,
    ]);
    return {};
  });
  if ('error' in outcome && outcome.error) throw outcome.error;
  return getWithdrawal(deps, partnerId, id);
}

export async function getWithdrawal(deps: DbDeps, partnerId: number | null, id: number): Promise<Withdrawal> {
  const r = await deps.db.query<Withdrawal>(
    `SELECT ${W} FROM withdrawals WHERE id = $1 ${partnerId === null ? '' : 'AND partner_id = $2'}`,
    partnerId === null ? [id] : [id, partnerId],
  );
  if (!r.rows[0]) throw new AppError('withdrawal_not_found', `withdrawal ${id} not found`);
  return r.rows[0];
}

/** How many withdrawals have `status`, counting at most `cap` (withdrawals_status_idx). */
export async function countWithdrawals(db: Queryable, status: Withdrawal['status'], cap: number): Promise<number> {
  const r = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM withdrawals WHERE status = $1 LIMIT ${cap}) AS capped`,
    [status],
  );
  return r.rows[0].n;
}

/** Every partner's withdrawals, newest first, each with its partner's name (the admin's payouts). */
export function listAllWithdrawals(
  deps: DbSecretsDeps,
  scope: { endpoint: string },
  filters: { status?: string },
  paging: Paging,
) {
  return listWithdrawals(deps, scope, filters, paging) as Promise<PageResult<Withdrawal & { partner_name: string }>>;
}

/** Withdrawals, newest first: one partner's, or (no partnerId) everyone's with the partner's name. */
export async function listWithdrawals(
  deps: DbSecretsDeps,
  scope: { partnerId?: number; endpoint: string },
  filters: { status?: string },
  paging: Paging,
): Promise<PageResult<Withdrawal>> {
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: scope.endpoint,
      filters: { status: filters.status },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after: Position | undefined, take: number) => {
      const params: unknown[] = [];
      const where: string[] = [];
      if (scope.partnerId !== undefined) where.push(`partner_id = $${params.push(scope.partnerId)}`);
      if (filters.status) where.push(`status = $${params.push(filters.status)}`);
      if (after) where.push(`(created_at, id) < ($${params.push(after.createdAt)}, $${params.push(Number(after.id))})`);
      return (
        await deps.db.query<Withdrawal>(
          `SELECT ${W}${
            scope.partnerId === undefined
              ? ', (SELECT company_name FROM partners p WHERE p.id = withdrawals.partner_id) AS partner_name'
              : ''
          }
           FROM withdrawals ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
          ORDER BY created_at DESC, id DESC LIMIT ${take}`,
          params,
        )
      ).rows;
    },
    (w) => String(w.id),
  );
}

/** The admin pays it out: the commissions it covers (oldest available first) are marked paid out. */
export async function markPaid(deps: DbDeps, id: number, reference: string): Promise<Withdrawal> {
  await deps.db.tx(async (tx) => {
    const w = (
      await tx.query<{ partner_id: number; amount: string; status: string }>(
        'SELECT partner_id, amount, status FROM withdrawals WHERE id = $1 FOR UPDATE',
        [id],
      )
    ).rows[0];
    if (!w) throw new AppError('withdrawal_not_found', `withdrawal ${id} not found`);
    if (w.status !== 'processing') throw new AppError('withdrawal_state', `withdrawal ${id} is ${w.status}`);
    await tx.query(`UPDATE withdrawals SET status = 'paid', reference = $2, paid_at = now() WHERE id = $1`, [
      id,
      reference,
    ]);
    await tx.query(
      `UPDATE commissions SET status = 'paid_out', withdrawal_id = $2 WHERE id IN (
         SELECT id FROM (SELECT id, sum(amount) OVER (ORDER BY available_at, id) AS running FROM commissions
                          WHERE partner_id = $1 AND status = 'available') x WHERE running <= $3)`,
      [w.partner_id, id, Number(w.amount)],
    );
    await post(tx, w.partner_id, {
      type: 'withdrawal_paid',
      amount: 0,
      available: 0,
      pending: 0,
      ref: `withdrawal:${id}:${reference}`,
    });
  });
  return getWithdrawal(deps, null, id);
}

export async function rejectWithdrawal(deps: DbDeps, id: number, reason: string): Promise<Withdrawal> {
  await deps.db.tx(async (tx) => {
    const w = (
      await tx.query<{ id: number; partner_id: number; amount: number; status: string }>(
        'SELECT id, partner_id, amount, status FROM withdrawals WHERE id = $1 FOR UPDATE',
        [id],
      )
    ).rows[0];
    if (!w) throw new AppError('withdrawal_not_found', `withdrawal ${id} not found`);
    if (!['processing', 'confirmation_required'].includes(w.status))
      throw new AppError('withdrawal_state', `withdrawal ${id} is ${w.status}`);
    await lockBalance(tx, w.partner_id);
    await release(tx, w, 'rejected', reason);
  });
  return getWithdrawal(deps, null, id);
}

/** The job: codes past their time cancel their withdrawal and release its amount. */
export async function cancelExpiredWithdrawals(deps: DbDeps): Promise<number> {
  return deps.db.tx(async (tx) => {
    const due = await tx.query<{ id: number; partner_id: number; amount: number }>(
      `SELECT id, partner_id, amount FROM withdrawals WHERE status = 'confirmation_required'
          AND code_expires_at <= now() ORDER BY id LIMIT 200 FOR UPDATE SKIP LOCKED`,
    );
    for (const w of due.rows) {
      await lockBalance(tx, w.partner_id);
      await release(tx, w, 'cancelled', 'the code expired');
    }
    return due.rows.length;
  });
}
