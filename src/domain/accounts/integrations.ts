// GET /me/integrations (decisions 17): a status board derived on read from what is stored, nothing kept.
// Status: connected (working), attention (set up, but something needs the client), off (not set up).
import type { Tenant } from '../tenant.ts';
import type { DbDeps } from '../../deps.ts';

export type IntegrationStatus = 'connected' | 'attention' | 'off';
export interface Integration {
  id: 'provider' | 'webhooks' | 'messenger' | 'api_keys' | 'partner';
  status: IntegrationStatus;
  details: Record<string, unknown>;
}

export async function integrationsOf(deps: DbDeps, tenant: Tenant, userId: number): Promise<Integration[]> {
  const { clientId } = tenant;
  const db = deps.db;
  const [accounts, hooks, messenger, keys, client] = await Promise.all([
    db.query<{ mode: string; accounts: number; alive: number; drivers: string[] }>(
      `SELECT mode, count(*)::int AS accounts, count(*) FILTER (WHERE session_alive)::int AS alive,
              array_agg(DISTINCT driver) AS drivers
         FROM provider_accounts WHERE client_id = $1 AND deleted_at IS NULL GROUP BY mode`,
      [clientId],
    ),
    db.query<{ active: number; failing: number }>(
      `SELECT count(*) FILTER (WHERE is_active)::int AS active,
              count(*) FILTER (WHERE is_active AND failing_since IS NOT NULL)::int AS failing
         FROM webhooks WHERE client_id = $1`,
      [clientId],
    ),
    db.query<{ me: boolean; team: number }>(
      `SELECT bool_or(id = $2 AND messenger_chat_id IS NOT NULL) AS me, count(messenger_chat_id)::int AS team
         FROM users WHERE client_id = $1 AND status = 'active'`,
      [clientId, userId],
    ),
    // Last use from the request log (kept 30 days or more by plan): recent enough for "is it in use".
    db.query<{ mode: string; prefix: string; created_at: Date; last_used_at: Date | null }>(
      `SELECT k.mode, k.prefix, k.created_at,
              (SELECT max(l.created_at) FROM request_logs l
                WHERE l.client_id = k.client_id AND l.api_key_prefix = k.prefix) AS last_used_at
         FROM api_keys k WHERE k.client_id = $1 AND k.revoked_at IS NULL ORDER BY k.mode`,
      [clientId],
    ),
    db.query<{ allow: boolean; partner_name: string | null }>(
      `SELECT c.allow_partner_impersonation AS allow, p.company_name AS partner_name
         FROM clients c LEFT JOIN partners p ON p.id = c.partner_id WHERE c.id = $1`,
      [clientId],
    ),
  ]);

  const live = accounts.rows.find((r) => r.mode === 'live');
  const test = accounts.rows.find((r) => r.mode === 'test');
  const h = hooks.rows[0];
  const m = messenger.rows[0];
  const liveKey = keys.rows.find((k) => k.mode === 'live');
  return [
    {
      id: 'provider',
      // A live account whose session died needs the client to reconnect it.
      status: !live ? 'off' : live.alive < live.accounts ? 'attention' : 'connected',
      details: {
        live: { accounts: live?.accounts ?? 0, sessions_alive: live?.alive ?? 0, drivers: live?.drivers ?? [] },
        test: { accounts: test?.accounts ?? 0, drivers: test?.drivers ?? [] },
      },
    },
    {
      id: 'webhooks',
      status: h.active === 0 ? 'off' : h.failing > 0 ? 'attention' : 'connected',
      details: { active: h.active, failing: h.failing },
    },
    {
      id: 'messenger',
      status: m?.me ? 'connected' : 'off',
      details: { linked: Boolean(m?.me), team_members_linked: m?.team ?? 0 },
    },
    {
      id: 'api_keys',
      status: liveKey?.last_used_at ? 'connected' : 'off',
      details: {
        keys: keys.rows.map((k) => ({
          mode: k.mode,
          prefix: k.prefix,
          created_at: k.created_at,
          last_used_at: k.last_used_at,
        })),
      },
    },
    {
      id: 'partner',
      // The partner that brought the client (a referral, an invitation, its platform's API); off without one.
      status: client.rows[0]?.partner_name ? 'connected' : 'off',
      details: {
        partner_name: client.rows[0]?.partner_name ?? null,
        impersonation_allowed: client.rows[0]?.allow ?? false,
      },
    },
  ];
}
