// The `clients` table's writes that other folders need, as named statements: the table belongs to accounts
// (test/architecture/table-owners.test.ts), so admin, partners and subscriptions change a client through
// these rather than with SQL of their own.
import type { Queryable } from '../../db/db.ts';

/** The operator's view of a client (decisions 23). */
export interface AdminClient {
  id: number;
  name: string;
  email: string;
  plan: string;
  trial_ends_at: Date;
  plan_expires_at: Date | null;
  disabled: boolean;
  disabled_at: Date | null;
  /** the operator's own client (migration 0011), which takes plan payments */
  is_platform: boolean;
  created_at: Date;
}

const ADMIN_COLUMNS =
  'id, name, email, plan, trial_ends_at, plan_expires_at, disabled_at IS NOT NULL AS disabled, disabled_at, ' +
  'is_platform, created_at';

/** One page of clients, newest first; `text`: an id, or a part of the name or e-mail (case-insensitive). */
export async function searchClientRows(
  db: Queryable,
  text: string | undefined,
  after: { createdAt: Date | string; id: number } | undefined,
  take: number,
): Promise<AdminClient[]> {
  const params: unknown[] = [];
  const where: string[] = [];
  if (text) {
    const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const byId = /^\d{1,15}$/.test(text) ? ` OR id = $${params.push(Number(text))}` : '';
    where.push(`(name ILIKE $${params.push(like)} OR email ILIKE $${params.length}${byId})`);
  }
  if (after) where.push(`(created_at, id) < ($${params.push(after.createdAt)}, $${params.push(after.id)})`);
  const r = await db.query<AdminClient>(
    `SELECT ${ADMIN_COLUMNS} FROM clients ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY created_at DESC, id DESC LIMIT ${take}`,
    params,
  );
  return r.rows;
}

/** The operator's switches: plan, its end, disabled. Null when there is no such client. */
export async function patchClient(
  tx: Queryable,
  id: number,
  patch: { plan?: string; plan_expires_at?: Date | null; disabled?: boolean },
): Promise<AdminClient | null> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  if (patch.plan !== undefined) sets.push(`plan = $${params.push(patch.plan)}`);
  if (patch.plan_expires_at !== undefined) sets.push(`plan_expires_at = $${params.push(patch.plan_expires_at)}`);
  if (patch.disabled !== undefined)
    sets.push(patch.disabled ? 'disabled_at = COALESCE(disabled_at, now())' : 'disabled_at = NULL');
  const r = await tx.query<AdminClient>(
    `UPDATE clients SET ${sets.length ? sets.join(', ') : 'id = id'} WHERE id = $1 RETURNING ${ADMIN_COLUMNS}`,
    params,
  );
  return r.rows[0] ?? null;
}

/** A bought plan: the plan and the end of its paid period. */
export async function setClientPlan(tx: Queryable, clientId: number, plan: string, expiresAt: Date): Promise<void> {
  await tx.query('UPDATE clients SET plan = $2, plan_expires_at = $3 WHERE id = $1', [clientId, plan, expiresAt]);
}

/** A new client's partner, from a referral link (with the link) or a partner's invitation (decisions 21). */
export async function attributeClientToPartner(
  tx: Queryable,
  clientId: number,
  partnerId: number,
  by: { origin: 'invite' } | { origin: 'referral'; referralLinkId: number },
): Promise<void> {
  if (by.origin === 'invite')
    await tx.query(`UPDATE clients SET partner_id = $2, partner_origin = 'invite' WHERE id = $1`, [
      clientId,
      partnerId,
    ]);
  else
    await tx.query(
      `UPDATE clients SET partner_id = $2, partner_origin = 'referral', referral_link_id = $3 WHERE id = $1`,
      [clientId, partnerId, by.referralLinkId],
    );
}

/**
 * A platform's merchant opened through the partner API (decisions 21: origin api): the platform may act in
 * its account from the start.
 */
export async function attachManagedClient(
  tx: Queryable,
  clientId: number,
  m: { partnerId: number; externalId: string; phone: string | null; metadata: string | null },
): Promise<void> {
  await tx.query(
    `UPDATE clients SET partner_id = $2, partner_origin = 'api', external_id = $3, phone = $4, metadata = $5::jsonb,
                        allow_partner_impersonation = true
      WHERE id = $1`,
    [clientId, m.partnerId, m.externalId, m.phone, m.metadata],
  );
}

/** A managed client's details again from its platform; absent fields stay as they are. */
export async function updateManagedClient(
  tx: Queryable,
  clientId: number,
  m: { name: string; phone: string | null; metadata: string | null },
): Promise<void> {
  await tx.query(
    `UPDATE clients SET name = $2, phone = COALESCE($3, phone), metadata = COALESCE($4::jsonb, metadata) WHERE id = $1`,
    [clientId, m.name, m.phone, m.metadata],
  );
}

/** The client a platform knows by `externalId`, if it has made one. */
export async function findManagedClientId(
  tx: Queryable,
  partnerId: number,
  externalId: string,
): Promise<number | null> {
  const r = await tx.query<{ id: number }>('SELECT id FROM clients WHERE partner_id = $1 AND external_id = $2', [
    partnerId,
    externalId,
  ]);
  return r.rows[0]?.id ?? null;
}

let platformId: { db: unknown; id: number } | undefined;
/** The operator's own client, which takes plan payments (migration 0011); read once per store. */
export async function platformClientId(db: Queryable): Promise<number> {
  if (platformId?.db === db) return platformId.id;
  const r = await db.query<{ id: number }>('SELECT id FROM clients WHERE is_platform');
  if (!r.rows[0]) throw new Error('the platform client is missing (migration 0011)');
  platformId = { db, id: r.rows[0].id };
  return r.rows[0].id;
}

/**
 * Holds the client's row until the transaction ends: changes to one client queue behind each other.
 * `noKey` takes the weaker lock (FOR NO KEY UPDATE) that serializes work under one client without blocking
 * rows that only reference it.
 */
export async function lockClient(tx: Queryable, clientId: number, opts: { noKey?: boolean } = {}): Promise<void> {
  await tx.query(
    opts.noKey
      ? 'SELECT 1 FROM clients WHERE id = $1 FOR NO KEY UPDATE'
      : 'SELECT 1 FROM clients WHERE id = $1 FOR UPDATE',
    [clientId],
  );
}

export interface ClientPlan {
  plan: string;
  trial_ends_at: Date;
  plan_expires_at: Date | null;
}

/** The client's plan and its dates; `lock` holds the row for a change of plan in the same transaction. */
export async function clientPlan(db: Queryable, clientId: number, opts: { lock?: boolean } = {}): Promise<ClientPlan> {
  const r = await db.query<ClientPlan>(
    opts.lock
      ? 'SELECT plan, trial_ends_at, plan_expires_at FROM clients WHERE id = $1 FOR UPDATE'
      : 'SELECT plan, trial_ends_at, plan_expires_at FROM clients WHERE id = $1',
    [clientId],
  );
  return r.rows[0];
}

/** Whether the client belongs to this partner. */
export async function isClientOfPartner(db: Queryable, clientId: number, partnerId: number): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM clients WHERE id = $1 AND partner_id = $2', [clientId, partnerId]);
  return r.rows.length > 0;
}

/** A partner's client as the partner API names it (decisions 21): its id, how it came, whether it is disabled. */
export interface ClientOfPartner {
  id: number;
  origin: string;
  disabled: boolean;
}

const REF_COLUMNS = 'id, partner_origin AS origin, disabled_at IS NOT NULL AS disabled';

/** The partner's client by the platform's external id, or by Tolem's id; undefined for any other. */
export async function clientOfPartner(
  db: Queryable,
  partnerId: number,
  by: { externalId: string } | { id: string },
): Promise<ClientOfPartner | undefined> {
  const r =
    'externalId' in by
      ? await db.query<ClientOfPartner>(
          `SELECT ${REF_COLUMNS} FROM clients WHERE partner_id = $1 AND external_id = $2`,
          [partnerId, by.externalId],
        )
      : await db.query<ClientOfPartner>(`SELECT ${REF_COLUMNS} FROM clients WHERE partner_id = $1 AND id = $2`, [
          partnerId,
          by.id,
        ]);
  return r.rows[0];
}
