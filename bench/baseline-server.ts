// The baseline: a bare Fastify server with the same JSON schemas doing the same raw SQL as Tolem's hot
// paths, and nothing else (no auth, no rate limit, no idempotency plugin, no request log). Tolem's figures
// are reported as ratios to this server measured in the same run on the same store.
import Fastify, { type FastifyRequest } from 'fastify';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { randomUUID } from 'node:crypto';
import { QrCreateBody, QrCreated, PaymentItem } from '../src/http/shapes/payment.ts';
import { Type } from 'typebox';
import QRCode from 'qrcode';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { Counter, Histogram, Registry } from 'prom-client';
import { monotonicFactory } from 'ulidx';
import { Checkout } from '../src/http/checkout/schemas.ts';

interface Q {
  query(sql: string, params?: unknown[]): Promise<{ rows: any[] }>;
  /** a named prepared statement on PostgreSQL; PGlite's query() on the embedded store */
  prepared(stmt: { name: string; text: string }, params: unknown[]): Promise<{ rows: any[] }>;
  tx<T>(fn: (q: { query: Q['query'] }) => Promise<T>): Promise<T>;
}

async function store(): Promise<Q> {
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({
      connectionString: process.env.DATABASE_URL,
      max: Number(process.env.PG_POOL_MAX ?? 10),
    });
    return {
      query: (sql, p) => pool.query(sql, p as unknown[]),
      prepared: (stmt, p) => pool.query({ name: stmt.name, text: stmt.text, values: p }),
      async tx(fn) {
        const c = await pool.connect();
        try {
          await c.query('BEGIN');
          const out = await fn({ query: (sql, p) => c.query(sql, p as unknown[]) });
          await c.query('COMMIT');
          return out;
        } catch (e) {
          await c.query('ROLLBACK');
          throw e;
        } finally {
          c.release();
        }
      },
    };
  }
  const lite = await PGlite.create({ dataDir: process.env.DATA_DIR });
  return {
    query: (sql, p) => lite.query(sql, p as unknown[]),
    prepared: (stmt, p) => lite.query(stmt.text, p),
    tx: (fn) => lite.transaction((t) => fn({ query: (sql, p) => t.query(sql, p as unknown[]) })),
  };
}

const db = await store();
const app = Fastify({ logger: false });
const clientId = Number(process.env.BASE_CLIENT_ID ?? 1);
const accountId = Number(process.env.BASE_ACCOUNT_ID ?? 1);
const OP =
  'id, type, status, amount, refunded_amount, comment, phone, sender_name, transaction_id, provider_account_id, ' +
  'source, link_token, mode, created_at, paid_at, expires_at';
// No spread with added fields here either: on Node 20 it takes V8's slow clone path (docs/architecture.md).
const item = (r: any) => Object.assign(r, { operation_id: r.id, livemode: r.mode === 'live' });

app.post('/qr', { schema: { body: QrCreateBody, response: { 201: QrCreated } } }, async (req, reply) => {
  const body = req.body as { amount: number };
  const id = `op_${randomUUID().replace(/-/g, '').slice(0, 26).toUpperCase()}`;
  const row = await db.tx(async (t) => {
    await t.query(
      `INSERT INTO idempotency_keys (client_id, mode, method, path, key, fingerprint, state, locked_until)
       VALUES ($1, 'test', 'POST', '/qr', $2, 'f', 'running', now())`,
      [clientId, req.headers['idempotency-key']],
    );
    const r = await t.query(
      `INSERT INTO operations (id, client_id, mode, type, status, amount, provider_account_id, provider_ref, qr_token,
                               deep_link, source, expires_at)
       VALUES ($1, $2, 'test', 'qr', 'created', $3, $4, $1, $1, $1, 'api', now() + interval '300 seconds')
       RETURNING id, qr_token, deep_link, expires_at, status`,
      [id, clientId, body.amount, accountId],
    );
    await t.query(
      `INSERT INTO events (id, client_id, mode, type, data) VALUES ($1, $2, 'test', 'payment.created', $3)`,
      [`evt_${id}`, clientId, JSON.stringify({ operation_id: id })],
    );
    return r.rows[0];
  });
  return reply.status(201).send({
    operation_id: row.id,
    qr_token: row.qr_token,
    deep_link: row.deep_link,
    expires_at: row.expires_at,
    status: row.status,
  });
});

app.get(
  '/qr/:op_id',
  { schema: { params: Type.Object({ op_id: Type.String() }), response: { 200: PaymentItem } } },
  async (req) => {
    const r = await db.query(`SELECT ${OP} FROM operations WHERE id = $1`, [(req.params as { op_id: string }).op_id]);
    return item(r.rows[0]);
  },
);

app.get(
  '/payments',
  {
    schema: {
      querystring: Type.Object({ client: Type.Integer(), t: Type.String(), id: Type.String() }),
      response: { 200: Type.Object({ data: Type.Array(PaymentItem) }) },
    },
  },
  async (req) => {
    const q = req.query as { client: number; t: string; id: string };
    const r = await db.query(
      `SELECT ${OP} FROM operations
        WHERE client_id = $1 AND mode = 'test' AND (created_at, id) < ($2, $3)
        ORDER BY created_at DESC, id DESC LIMIT 21`,
      [q.client, new Date(q.t), q.id],
    );
    return { data: r.rows.slice(0, 20).map(item) };
  },
);

// The partner API's payments list (issue 22): the same keyset SELECT over the partner's index and the
// same item (the payment plus its client's ids).
const PartnerItem = Type.Object({
  ...PaymentItem.properties,
  client_id: Type.Integer(),
  external_id: Type.Union([Type.String(), Type.Null()]),
});
const OP_O = OP.split(', ')
  .map((c) => `o.${c}`)
  .join(', ');
app.get(
  '/partner/payments',
  {
    schema: {
      querystring: Type.Object({ partner: Type.Integer(), t: Type.String(), id: Type.String() }),
      response: { 200: Type.Object({ data: Type.Array(PartnerItem) }) },
    },
  },
  async (req) => {
    const q = req.query as { partner: number; t: string; id: string };
    const r = await db.query(
      `SELECT ${OP_O}, o.client_id, c.external_id FROM operations o JOIN clients c ON c.id = o.client_id
      WHERE o.partner_id = $1 AND o.mode = 'test' AND (o.created_at, o.id) < ($2, $3)
      ORDER BY o.created_at DESC, o.id DESC LIMIT 21`,
      [q.partner, new Date(q.t), q.id],
    );
    // Object.assign, as Tolem does: a spread with an added field is slow on Node 20 (docs/architecture.md).
    return { data: r.rows.slice(0, 20).map((row) => Object.assign(item(row), { client_id: Number(row.client_id) })) };
  },
);

// The checkout of a returning visitor: the same statement as Tolem's (the link, the visitor's e-mail and
// newest QR of the current cycle, by the visitor cookie), the same response schema with the QR's SVG and
// the merchant's name, both kept in memory after the first request as Tolem keeps them.
const LINK_COLS = [
  'token',
  'client_id',
  'mode',
  'amount',
  'description',
  'status',
  'success_url',
  'cancel_url',
  'expires_at',
  'allow_repeat',
  'email_required',
  'metadata',
  'paid_count',
  'qr_cycle_at',
  'created_at',
  'updated_at',
];
const QR_COLS = ['id', 'status', 'qr_token', 'deep_link', 'expires_at'];
const LINK_FIELDS = LINK_COLS.map((c) => `l.${c} AS l_${c}`).join(', ');
const QR_FIELDS = QR_COLS.map((c) => `o.${c} AS o_${c}`).join(', ');
const CHECKOUT_LOAD = {
  name: 'checkout_load',
  text: `SELECT ${LINK_FIELDS}, v.email AS v_email, ${QR_FIELDS}
    FROM payment_links l
    LEFT JOIN checkout_visitors v ON v.link_token = l.token AND v.visitor_id = $2
    LEFT JOIN LATERAL (
      SELECT ${QR_COLS.map((c) => `op.${c}`).join(', ')}
        FROM checkout_operations co JOIN operations op ON op.id = co.operation_id
       WHERE co.link_token = l.token AND co.visitor_id = $2 AND co.created_at >= l.qr_cycle_at
       ORDER BY co.created_at DESC LIMIT 1) o ON true
   WHERE l.token = $1`,
};
const merchants = new Map<number, { display_name: string; logo_url: null; brand_color: null; support_email: null }>();
const svgs = new Map<string, string>();
async function bareCheckout(req: FastifyRequest) {
  const visitor = /(?:^|;\s*)tolem_cv=([0-9A-Za-z]{22})/.exec(req.headers.cookie ?? '')?.[1] ?? '';
  const row = (await db.prepared(CHECKOUT_LOAD, [(req.params as { token: string }).token, visitor])).rows[0];
  const clientId = Number(row.l_client_id);
  let merchant = merchants.get(clientId);
  if (!merchant) {
    const c = (await db.query('SELECT name FROM clients WHERE id = $1', [clientId])).rows[0];
    merchants.set(
      clientId,
      (merchant = { display_name: c.name, logo_url: null, brand_color: null, support_email: null }),
    );
  }
  let svg = row.o_qr_token ? svgs.get(row.o_qr_token) : undefined;
  if (row.o_qr_token && !svg)
    svgs.set(
      row.o_qr_token,
      (svg = await QRCode.toString(row.o_qr_token, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' })),
    );
  return {
    token: row.l_token,
    amount: Number(row.l_amount),
    description: row.l_description,
    status: row.l_status,
    allow_repeat: row.l_allow_repeat,
    email_required: row.l_email_required,
    email_provided: Boolean(row.v_email),
    expires_at: row.l_expires_at,
    success_url: row.l_success_url,
    cancel_url: row.l_cancel_url,
    livemode: row.l_mode === 'live',
    qr: row.o_id
      ? {
          operation_id: row.o_id,
          qr_token: row.o_qr_token,
          deep_link: row.o_deep_link,
          expires_at: row.o_expires_at,
          svg,
        }
      : null,
    merchant,
  };
}
app.get(
  '/checkout/:token',
  { schema: { params: Type.Object({ token: Type.String() }), response: { 200: Checkout } } },
  bareCheckout,
);

// The checkout's public floor: the same bare checkout on a second Fastify instance (PORT + 1) that also does
// what every public response must carry, the plainest way, with the libraries Tolem uses: the spec's rate
// limit per token and client IP with its three X-RateLimit headers (rate-limiter-flexible), decisions'
// X-Request-Id (a ULID), architecture.md's request metrics (prom-client counter and histogram by route)
// and request logger (Fastify's pino, one child per request, secrets redacted), and Cache-Control:
// no-store. Tolem's ratio to it tells how much of the gap to the bare checkout is that required work.
const nextId = monotonicFactory();
const pub = Fastify({
  logger: {
    level: 'warn',
    redact: [
      'req.headers["x-api-key"]',
      'req.headers.authorization',
      'req.headers["x-partner-api-key"]',
      'req.headers.cookie',
    ],
  },
  genReqId: () => `req_${nextId()}`,
});
const limiter = new RateLimiterMemory({ points: 1e9, duration: 60 });
const registry = new Registry();
const requests = new Counter({
  name: 'http_requests_total',
  help: 'requests',
  labelNames: ['method', 'route', 'status'],
  registers: [registry],
});
const duration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'duration',
  labelNames: ['method', 'route'],
  registers: [registry],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
});
pub.addHook('onRequest', (req, reply, done) => {
  reply.header('X-Request-Id', req.id);
  done();
});
pub.addHook('onResponse', (req, reply, done) => {
  const route = req.routeOptions.url ?? 'unmatched';
  requests.inc({ method: req.method, route, status: reply.statusCode });
  duration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  done();
});
pub.get(
  '/v2/checkout/:token',
  { schema: { params: Type.Object({ token: Type.String() }), response: { 200: Checkout } } },
  async (req, reply) => {
    const token = (req.params as { token: string }).token;
    let d: { remainingPoints: number; msBeforeNext: number };
    try {
      d = await limiter.consume(`${token}:${req.ip}`);
    } catch (res) {
      reply.header('Retry-After', Math.ceil((res as typeof d).msBeforeNext / 1000));
      throw Object.assign(new Error('rate limit exceeded'), { statusCode: 429 });
    }
    reply
      .header('X-RateLimit-Limit', 1e9)
      .header('X-RateLimit-Remaining', d.remainingPoints)
      .header('X-RateLimit-Reset', Math.ceil(d.msBeforeNext / 1000));
    reply.header('Cache-Control', 'no-store');
    return bareCheckout(req);
  },
);

// The machine's floor, not a Tolem path: one HTTP request with one trivial database round trip.
app.get('/floor', async () => (await db.query('SELECT 1 AS ok')).rows[0]);

// The list page's floor: the least a server can do for that page here. The same keyset SELECT as
// /payments, prepared (as Tolem's are), the rows sent as they come: no schema, no mapping.
const LIST_FLOOR = {
  name: 'list_floor',
  text: `SELECT ${OP} FROM operations
          WHERE client_id = $1 AND mode = 'test' AND (created_at, id) < ($2, $3)
          ORDER BY created_at DESC, id DESC LIMIT 21`,
};
app.get('/floor/list', async (req) => {
  const q = req.query as { client: string; t: string; id: string };
  const r = await db.prepared(LIST_FLOOR, [q.client, q.t, q.id]);
  return { data: r.rows.slice(0, 20) };
});

app.get('/healthz', async () => ({ status: 'ok' }));
// A clean exit on SIGTERM, so that BENCH_PROFILE's --cpu-prof writes this server's profile too.
process.once('SIGTERM', () => void Promise.all([app.close(), pub.close()]).then(() => process.exit(0)));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
await pub.listen({ port: Number(process.env.PORT) + 1, host: '127.0.0.1' });
console.log('baseline ready');
