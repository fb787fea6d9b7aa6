// GET /me and the small account actions around it.
import type { Deps, DbDeps, DbClockDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import { planActive } from '../plans.ts';
import { issueApiKey, type IssuedKey } from './api-keys.ts';

export interface Profile {
  id: number;
  name: string;
  email: string;
  plan: string;
  plan_active: boolean;
  session_alive: boolean;
  api_key_prefix: string | null;
  test_api_key_prefix: string | null;
  is_admin: boolean;
  role: string;
  terms_accepted_at: Date | null;
  trial_ends_at: Date;
  plan_expires_at: Date | null;
  /** this user's messenger chat is bound (POST /me/messenger-link, then /start in the bot) */
  messenger_linked: boolean;
}

export async function getProfile(deps: DbClockDeps, tenant: Tenant, userId: number): Promise<Profile> {
  const { clientId } = tenant;
  const r = await deps.db.query<Omit<Profile, 'plan_active'>>(
    `SELECT c.id, c.name, c.email, c.plan, c.trial_ends_at, c.plan_expires_at, c.terms_accepted_at,
            u.is_admin, u.role, u.messenger_chat_id IS NOT NULL AS messenger_linked,
            (SELECT prefix FROM api_keys
              WHERE client_id = c.id AND mode = 'live' AND revoked_at IS NULL) AS api_key_prefix,
            (SELECT prefix FROM api_keys
              WHERE client_id = c.id AND mode = 'test' AND revoked_at IS NULL) AS test_api_key_prefix,
            COALESCE((SELECT session_alive FROM provider_accounts
                       WHERE client_id = c.id AND mode = 'live' AND is_default AND deleted_at IS NULL), false)
              AS session_alive
       FROM clients c JOIN users u ON u.client_id = c.id AND u.id = $2
      WHERE c.id = $1`,
    [clientId, userId],
  );
  const row = r.rows[0];
  if (!row) throw new AppError('merchant_not_found', 'account not found');
  return Object.assign(row, { plan_active: planActive(row, deps.clock.now()) });
}

export async function acceptTerms(deps: DbDeps, tenant: Tenant): Promise<{ accepted_at: Date }> {
  const { clientId } = tenant;
  // The first acceptance is the one that counts; accepting again keeps its date.
  const r = await deps.db.query<{ terms_accepted_at: Date }>(
    `UPDATE clients SET terms_accepted_at = COALESCE(terms_accepted_at, now())
      WHERE id = $1 RETURNING terms_accepted_at`,
    [clientId],
  );
  return { accepted_at: r.rows[0].terms_accepted_at };
}

export async function regenerateApiKey(deps: Pick<Deps, 'db' | 'caches'>, tenant: Tenant): Promise<IssuedKey> {
  return deps.db.tx((tx) => issueApiKey(tx, tenant, deps.caches));
}

export interface LogItem {
  id: number;
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  api_key_prefix: string | null;
  /** a partner acting in the account made the call */
  actor: { kind: 'partner'; partner_id: number | null; session: string | null } | null;
  created_at: Date;
}

export async function listRequestLogs(deps: DbDeps, tenant: Tenant, limit: number): Promise<LogItem[]> {
  const { clientId } = tenant;
  const r = await deps.db.query<Omit<LogItem, 'actor'> & { actor: string | null }>(
    `SELECT id, request_id, method, path, status, duration_ms, api_key_prefix, actor, created_at
       FROM request_logs WHERE client_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [clientId, limit],
  );
  return r.rows.map((row) => ({ ...row, actor: row.actor ? JSON.parse(row.actor) : null }));
}
