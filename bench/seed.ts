// Bench data, written straight into a store migrated with Tolem's migrations: clients with known API keys
// and sandbox accounts, and (for the list scenario) a million operations spread over them.
import type { Db } from '../src/db/db.ts';
import { sha256Hex } from '../src/crypto.ts';

export interface Seeded {
  clients: { id: number; testKey: string; accountId: number }[];
}

export async function seedClients(db: Db, n: number): Promise<Seeded> {
  const clients: Seeded['clients'] = [];
  for (let i = 0; i < n; i++) {
    const testKey = `kp_test_bench${String(i).padStart(4, '0')}${'x'.repeat(32)}`;
    const c = await db.query<{ id: number }>(
      `INSERT INTO clients (name, email, plan, trial_ends_at) VALUES ($1, $2, 'enterprise', now() + interval '1 year') RETURNING id`,
      [`Bench ${i}`, `bench${i}@bench.kz`],
    );
    const id = c.rows[0].id;
    await db.query(`INSERT INTO api_keys (client_id, mode, key_hash, prefix) VALUES ($1, 'test', $2, $3)`, [id, sha256Hex(testKey), testKey.slice(0, 12)]);
    const a = await db.query<{ id: number }>(
      `INSERT INTO provider_accounts (client_id, mode, driver, display_name, is_default) VALUES ($1, 'test', 'sandbox', 'Sandbox', true) RETURNING id`,
      [id],
    );
    clients.push({ id, testKey, accountId: a.rows[0].id });
  }
  return { clients };
}

/** `total` operations over the seeded clients, created over the last 30 days, a third of them paid. */
export async function seedOperations(db: Db, seeded: Seeded, total: number): Promise<void> {
  const per = Math.ceil(total / seeded.clients.length);
  for (const c of seeded.clients) {
    await db.query(
      `INSERT INTO operations (id, client_id, mode, type, status, amount, provider_account_id, provider_ref, source, created_at, expires_at, paid_at)
       SELECT 'op_B' || lpad($4, 4, '0') || lpad(g::text, 22, '0'), $1::bigint, 'test', 'qr',
              CASE WHEN g % 3 = 0 THEN 'paid' ELSE 'expired' END, 1000 + g % 5000, $2, 'sbx_seed_' || g, 'api',
              now() - make_interval(secs => g * 2.5), now() - make_interval(secs => g * 2.5 - 300),
              CASE WHEN g % 3 = 0 THEN now() - make_interval(secs => g * 2.5 - 30) END
         FROM generate_series(1, $3) AS g`,
      [c.id, c.accountId, per, String(c.id)],
    );
  }
  await db.query('ANALYZE operations');
}

/** Random (created_at, id) positions inside one client's operations, for cursor pages. */
export async function samplePositions(db: Db, clientId: number, n: number): Promise<{ createdAt: Date; id: string }[]> {
  const r = await db.query<{ created_at: Date; id: string }>(
    `SELECT created_at, id FROM operations WHERE client_id = $1 AND mode = 'test' ORDER BY random() LIMIT $2`,
    [clientId, n],
  );
  return r.rows.map((x) => ({ createdAt: x.created_at, id: x.id }));
}
