// Partner analytics at scale (issue 20): a partner with 10,000 clients (the seeded 100 with their million
// operations, and 9,900 more), a plan payment and a commission each, 100,000 paid live payments and
// 10,000 clicks. Each statement is timed through Tolem's domain function and the same SQL run bare on the
// same connection; the ratio shows what the domain adds (balance read, mapping), the p99 what a partner waits.
import { performance } from 'node:perf_hooks';
import type { Db } from '../src/db/db.ts';
import type { Deps } from '../src/deps.ts';
import { systemClock } from '../src/deps.ts';
import { funnel, FUNNEL_SQL, periodRange, summary, SUMMARY_SQL } from '../src/domain/partners/analytics.ts';
import type { Partner } from '../src/domain/partners/profile.ts';
import { sha256Hex } from '../src/crypto.ts';
import type { Figures } from './load.ts';
import type { Seeded } from './seed.ts';

export const PARTNER_CLIENTS = 10_000;
/** The seeded partner's test-mode integration key (the partner payments list scenario). */
export const PARTNER_KEY = `pk_test_benchpartner${'x'.repeat(28)}`;

export async function seedPartner(db: Db, seeded: Seeded): Promise<Partner> {
  const owner = seeded.clients[0].id;
  const p = (
    await db.query<Partner>(
      `INSERT INTO partners (client_id, company_name, status, created_at)
     VALUES ($1, 'Bench partner', 'active', now() - interval '400 days')
     RETURNING id, client_id, company_name, website, contact_phone, status, commission_rate_bps, created_at`,
      [owner],
    )
  ).rows[0];
  // (A trigger gives their million operations the partner too: the partner payments list reads them.)
  await db.query(`UPDATE clients SET partner_id = $1, partner_origin = 'referral' WHERE id = ANY($2::bigint[])`, [
    p.id,
    seeded.clients.map((c) => c.id),
  ]);
  await db.query(`INSERT INTO partner_api_keys (partner_id, mode, key_hash, prefix) VALUES ($1, 'test', $2, $3)`, [
    p.id,
    sha256Hex(PARTNER_KEY),
    PARTNER_KEY.slice(0, 12),
  ]);
  // The rest, registered over the last year.
  await db.query(
    `INSERT INTO clients (name, email, trial_ends_at, partner_id, partner_origin, created_at)
     SELECT 'P' || g, 'pc' || g || '@bench.kz', now() + interval '14 days', $1, 'referral',
            now() - make_interval(mins => g * 52)
       FROM generate_series(1, $2) g`,
    [p.id, PARTNER_CLIENTS - seeded.clients.length],
  );
  const platform = (await db.query<{ id: number }>('SELECT id FROM clients WHERE is_platform')).rows[0].id;
  const account = (
    await db.query<{ id: number }>(
      `INSERT INTO provider_accounts (client_id, mode, driver, display_name, is_default)
       VALUES ($1, 'live', 'sandbox', 'Platform', true) RETURNING id`,
      [platform],
    )
  ).rows[0].id;
  // A plan payment for each client, paid at its registration, and its commission.
  await db.query(
    `INSERT INTO operations (id, client_id, mode, type, status, amount, provider_account_id, provider_ref, source,
                             created_at, expires_at, paid_at, subscription_client_id, subscription_plan)
     SELECT 'op_P' || lpad(c.id::text, 22, '0'), $2::bigint, 'live', 'qr', 'paid', 10000, $3, 'sbx_plan_' || c.id,
            'subscription', c.created_at, c.created_at + interval '5 minutes', c.created_at + interval '1 minute',
            c.id, 'starter'
       FROM clients c WHERE c.partner_id = $1`,
    [p.id, platform, account],
  );
  await db.query(
    `INSERT INTO commissions (partner_id, client_id, operation_id, plan, base_amount, rate_bps, amount, status,
                              available_at, created_at)
     SELECT $1, c.id, 'op_P' || lpad(c.id::text, 22, '0'), 'starter', 10000, 2000, 2000, 'available',
            c.created_at + interval '14 days', c.created_at
       FROM clients c WHERE c.partner_id = $1`,
    [p.id],
  );
  // 100,000 paid live payments over the seeded hundred, and their live accounts.
  for (const c of seeded.clients) {
    const a = (
      await db.query<{ id: number }>(
        `INSERT INTO provider_accounts (client_id, mode, driver, display_name, is_default)
         VALUES ($1, 'live', 'sandbox', 'Live', true) RETURNING id`,
        [c.id],
      )
    ).rows[0].id;
    await db.query(
      `INSERT INTO operations (id, client_id, mode, type, status, amount, provider_account_id, provider_ref, source,
                               created_at, expires_at, paid_at)
       SELECT 'op_L' || lpad($3, 4, '0') || lpad(g::text, 22, '0'), $1::bigint, 'live', 'qr', 'paid', 2000, $2,
              'sbx_live_' || $3 || '_' || g, 'api',
              now() - make_interval(mins => g * 5), now() - make_interval(mins => g * 5 - 5),
              now() - make_interval(mins => g * 5 - 1)
         FROM generate_series(1, 1000) g`,
      [c.id, a, String(c.id)],
    );
  }
  const link = (
    await db.query<{ id: number }>(
      `INSERT INTO referral_links (partner_id, code) VALUES ($1, 'benchlink1') RETURNING id`,
      [p.id],
    )
  ).rows[0].id;
  await db.query(
    `INSERT INTO referral_clicks (link_id, partner_id, created_at)
     SELECT $1, $2, now() - make_interval(mins => g * 50) FROM generate_series(1, 10000) g`,
    [link, p.id],
  );
  // Giving the seeded clients a partner rewrote their million operations (the trigger that keeps
  // operations.partner_id): vacuum, or the embedded store, which has no autovacuum, measures every later
  // scenario on a table and indexes twice their size (seen: create QR 0.42x instead of 1.58x).
  await db.query('VACUUM ANALYZE operations');
  await db.query('ANALYZE');
  return p;
}

async function time(n: number, fn: () => Promise<unknown>): Promise<Figures> {
  for (let i = 0; i < Math.min(5, n); i++) await fn(); // warm the plans and the cache
  const ms: number[] = [];
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] * 100) / 100;
  return {
    rps: Math.round((n / (performance.now() - started)) * 1000 * 10) / 10,
    p50: at(0.5),
    p99: at(0.99),
    errors: 0,
  };
}

/** Positions across the partner's test-mode payments, for cursors into its list. */
export async function partnerPositions(
  db: Db,
  partnerId: number,
  n: number,
): Promise<{ createdAt: Date; id: string }[]> {
  const r = await db.query<{ created_at: Date; id: string }>(
    `SELECT created_at, id FROM operations WHERE partner_id = $1 AND mode = 'test' ORDER BY random() LIMIT $2`,
    [partnerId, n],
  );
  return r.rows.map((x) => ({ createdAt: x.created_at, id: x.id }));
}

/** summary and funnel of 30 days: through the domain, and the same SQL bare. */
export async function benchAnalytics(
  db: Db,
  partner: Partner,
  n: number,
): Promise<Record<'summary' | 'funnel', { tolem: Figures; base: Figures }>> {
  const deps = { db, clock: systemClock } as unknown as Deps;
  const { from, to } = periodRange('30d', new Date(), partner.created_at);
  return {
    summary: {
      tolem: await time(n, () => summary(deps, partner, '30d')),
      base: await time(n, () => db.query(SUMMARY_SQL, [partner.id, from, to])),
    },
    funnel: {
      tolem: await time(n, () => funnel(deps, partner, '30d')),
      base: await time(n, () => db.query(FUNNEL_SQL, [partner.id, from, to])),
    },
  };
}
