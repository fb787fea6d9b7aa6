// Bench data, written straight into a store migrated with Tolem's migrations: clients with known API keys
// and sandbox accounts, and (for the list scenario) a million operations spread over them.
import type { Db } from '../src/db/db.ts';
import { encryptSecret, sha256Hex } from '../src/crypto.ts';

export interface Seeded {
  clients: { id: number; testKey: string; accountId: number }[];
}

export async function seedClients(db: Db, n: number): Promise<Seeded> {
  const clients: Seeded['clients'] = [];
  for (let i = 0; i < n; i++) {
    const testKey = `kp_test_bench${String(i).padStart(4, '0')}${'x'.repeat(32)}`;
    const c = await db.query<{ id: number }>(
      `INSERT INTO clients (name, email, plan, trial_ends_at)
       VALUES ($1, $2, 'enterprise', now() + interval '1 year') RETURNING id`,
      [`Bench ${i}`, `bench${i}@bench.kz`],
    );
    const id = c.rows[0].id;
    await db.query(`INSERT INTO api_keys (client_id, mode, key_hash, prefix) VALUES ($1, 'test', $2, $3)`, [
      id,
      sha256Hex(testKey),
      testKey.slice(0, 12),
    ]);
    const a = await db.query<{ id: number }>(
      `INSERT INTO provider_accounts (client_id, mode, driver, display_name, is_default)
       VALUES ($1, 'test', 'sandbox', 'Sandbox', true) RETURNING id`,
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
      `INSERT INTO operations (id, client_id, mode, type, status, amount, provider_account_id, provider_ref, source,
                               created_at, expires_at, paid_at)
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

/** The payment link of the checkout scenario: active, test mode, a year to live. */
export const BENCH_LINK_TOKEN = 'BenchLink0000000000000000';

export async function seedLink(db: Db, clientId: number): Promise<string> {
  await db.query(
    `INSERT INTO payment_links (token, client_id, mode, amount, description, expires_at)
     VALUES ($1, $2, 'test', 5000, 'Бенчмарк: оплата заказа', now() + interval '1 year')`,
    [BENCH_LINK_TOKEN, clientId],
  );
  await db.query(`INSERT INTO branding (client_id, display_name, brand_color) VALUES ($1, 'Bench Shop', '#0A7A5A')`, [
    clientId,
  ]);
  return BENCH_LINK_TOKEN;
}

/** `n` test-mode webhooks of one client on payment.completed, all pointing at the bench's receiver. */
export async function seedWebhooks(
  db: Db,
  clientId: number,
  n: number,
  receiverUrl: string,
  appSecret: string,
): Promise<void> {
  for (let i = 0; i < n; i++) {
    await db.query(`INSERT INTO webhooks (client_id, mode, url, events, secret_enc) VALUES ($1, 'test', $2, $3, $4)`, [
      clientId,
      `${receiverUrl}/hook/${i}`,
      ['payment.completed'],
      encryptSecret(appSecret, `whsec_${Buffer.from(`bench-secret-${i}`).toString('base64')}`),
    ]);
  }
}

/**
 * The fan-out's backlog written straight into a store (for the durable floor, bench/baseline-durable-
 * sender.ts): one pending, due delivery of `body` per payment and webhook of the client, ids tagged by
 * `tag`. Analyzed afterwards, as a table that grew by traffic would be. Returns the rows written.
 */
export async function seedDeliveryBacklog(
  db: Db,
  clientId: number,
  payments: number,
  body: string,
  tag: string,
): Promise<number> {
  const r = await db.query(
    `INSERT INTO webhook_deliveries (webhook_id, client_id, mode, message_id, event_id, event_type, body,
                                     next_attempt_at)
     SELECT w.id, w.client_id, w.mode, 'msg_' || $4 || '_' || g || '_' || w.id, 'evt_' || $4 || '_' || g,
            'payment.completed', $3, now() - interval '1 hour'
       FROM generate_series(1, $2::int) g, webhooks w WHERE w.client_id = $1`,
    [clientId, payments, body, tag],
  );
  await db.query('ANALYZE webhook_deliveries');
  return r.rowCount;
}

/** The visitor ids (cookies) of the checkout scenario: returning payers, each with a QR still shown. */
export const checkoutVisitors = (n: number) =>
  Array.from({ length: n }, (_, i) => `BenchVisitor${String(i).padStart(10, '0')}`);
/** The operation id of visitor i's QR. */
export const checkoutOperationId = (i: number) => `op_CV${String(i).padStart(24, '0')}`;

/**
 * Each visitor's QR of the bench link, as the checkout writes it (an operation of the link and its
 * checkout_operations row), in Tolem's store and the baseline's alike, so that both answer the same QR
 * and SVG. Six hours to live: the whole run, and never under the minute below which Tolem issues anew.
 * Their ids do not start with op_B, so a reset deletes them with the other added operations.
 */
export async function seedCheckoutVisitors(
  db: Db,
  linkToken: string,
  client: Seeded['clients'][number],
  n: number,
): Promise<void> {
  await db.query(
    `WITH v AS (SELECT visitor, op_id, 'sbx_qr_bench_' || i AS ref
                  FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS u(visitor, op_id, i)),
          ops AS (INSERT INTO operations (id, client_id, mode, type, status, amount, comment, provider_account_id,
                                          provider_ref, raw_provider_status, qr_token, deep_link, source, link_token,
                                          expires_at)
                  SELECT op_id, $1, 'test', 'qr', 'created', 5000, 'Бенчмарк: оплата заказа', $2, ref, 'QrTokenCreated',
                         'http://localhost/sandbox/qr/' || ref, 'http://localhost/sandbox/qr/' || ref,
                         'payment_link', $3, now() + interval '6 hours'
                    FROM v RETURNING id)
     INSERT INTO checkout_operations (operation_id, link_token, visitor_id)
     SELECT v.op_id, $3, v.visitor FROM v JOIN ops ON ops.id = v.op_id`,
    [
      client.id,
      client.accountId,
      linkToken,
      checkoutVisitors(n),
      checkoutVisitors(n).map((_, i) => checkoutOperationId(i)),
    ],
  );
}
