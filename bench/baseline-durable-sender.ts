// The fan-out's durable floor (PostgreSQL): the bare sender plus the least a sender must do to deliver
// at least once from a table of deliveries, done the plainest way. It claims pending rows under a lease
// (one UPDATE per claim, FOR UPDATE SKIP LOCKED, with each row's webhook URL), signs each body with
// HMAC-SHA256 in the spec's two schemes, POSTs it with undici, and marks the answered ones delivered in
// batches (one UPDATE for what finished while the previous batch was written). Claims and batches commit
// without waiting for the disk, as Tolem's do (a lost claim or batch only sends again). `WINDOW`
// deliveries in flight, refilled when a quarter is free, as Tolem's worker does. No retry schedule,
// journal, failure handling, secret per webhook or address policy: Tolem's worker has those.
// Env: DATABASE_URL, RECEIVER_URL, TOTAL (rows to drain), WINDOW. Prints {rps, p50, p99, errors} as JSON.
import pg from 'pg';
import { Pool } from 'undici';
import { createHmac, randomUUID } from 'node:crypto';

const total = Number(process.env.TOTAL ?? 10_000);
const width = Number(process.env.WINDOW ?? 100);
const db = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4, options: '-c synchronous_commit=off' });
const http = new Pool(process.env.RECEIVER_URL!, { connections: width, keepAliveTimeout: 30_000 });
const key = Buffer.from('bench-durable-floor-secret');

const CLAIM = {
  name: 'floor_claim',
  text: `UPDATE webhook_deliveries d SET locked_until = now() + interval '60 seconds', lease_token = $2
           FROM webhooks w
          WHERE w.id = d.webhook_id AND d.id IN (
                SELECT id FROM webhook_deliveries
                 WHERE status = 'pending' AND next_attempt_at <= now()
                   AND (locked_until IS NULL OR locked_until <= now())
                 ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING d.id, d.message_id, d.body, w.url`,
};
const DONE = {
  name: 'floor_done',
  text: `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_status = 200,
                last_attempt_at = now(), delivered_at = now(), locked_until = NULL, lease_token = NULL
          WHERE id = ANY($1::bigint[]) AND lease_token = $2`,
};

const token = randomUUID();
const latencies: number[] = [];
let errors = 0;
let delivered = 0;
let inFlight = 0;
let claiming = false;
let exhausted = false;
let finish!: () => void;
const finished = new Promise<void>((r) => (finish = r));

// Successes are written in batches: whatever finished while the previous batch was being written.
let queue: number[] = [];
let writing = false;
async function writeSuccesses(): Promise<void> {
  writing = true;
  while (queue.length) {
    const batch = queue;
    queue = [];
    await db.query({ ...DONE, values: [batch, token] });
    delivered += batch.length;
  }
  writing = false;
  if (delivered + errors >= total) finish();
}

async function deliver(row: { id: string; message_id: string; body: string; url: string }): Promise<void> {
  const s = performance.now();
  const ts = Math.floor(Date.now() / 1000);
  // The spec's two schemes, as every delivery carries them: X-Webhook-Signature and Standard Webhooks.
  const spec = createHmac('sha256', key).update(`${ts}.${row.body}`).digest('hex');
  const standard = createHmac('sha256', key).update(`${row.message_id}.${ts}.${row.body}`).digest('base64');
  try {
    const r = await http.request({
      path: new URL(row.url).pathname,
      method: 'POST',
      body: row.body,
      headers: {
        'content-type': 'application/json',
        'x-webhook-id': row.message_id,
        'x-webhook-signature': `sha256=${spec}`,
        'webhook-id': row.message_id,
        'webhook-timestamp': String(ts),
        'webhook-signature': `v1,${standard}`,
      },
    });
    await r.body.dump();
    if (r.statusCode === 200) queue.push(Number(row.id));
    else errors++;
  } catch {
    errors++;
  }
  latencies.push(performance.now() - s);
  if (!writing) void writeSuccesses();
}

async function refill(): Promise<void> {
  if (claiming || exhausted || width - inFlight < width / 4) return;
  claiming = true;
  const rows = (await db.query({ ...CLAIM, values: [width - inFlight, token] })).rows;
  claiming = false;
  if (rows.length === 0) exhausted = true;
  for (const row of rows) {
    inFlight++;
    void deliver(row).finally(() => {
      inFlight--;
      void refill();
    });
  }
  void refill();
}

const t0 = performance.now();
await refill();
await finished;
const ms = performance.now() - t0;
latencies.sort((a, b) => a - b);
const at = (p: number) =>
  Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] * 100) / 100;
console.log(JSON.stringify({ rps: Math.round((delivered * 1000) / ms), p50: at(0.5), p99: at(0.99), errors }));
await http.close();
await db.end();
