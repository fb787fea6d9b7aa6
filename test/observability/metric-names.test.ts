// The alert rules and the Grafana dashboard under deploy/ read only metrics that /metrics of a running app
// really exports (so a renamed metric fails here, not silently in production), and the metrics they
// lean on say what they should: the store's backlog, the breakers open, the second listener of
// METRICS_PORT (how a ROLE=worker process is scraped).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { newMerchant } from '../helpers/factories.ts';
import { ROOT } from '../helpers/server.ts';
import { clientIdOf, createHook, emit } from '../webhooks/helpers.ts';
import { createQr } from '../helpers/payments.ts';
import { CircuitBreaker } from '../../src/providers/qrapi/breaker.ts';
import { listenForMetrics } from '../../src/http/metrics-listener.ts';

const TOKEN = 'scrape-token-5d0c8e2f';
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ metricsToken: TOKEN });
});
afterAll(() => t.close());

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

/**
 * The metric names a PromQL expression reads: identifiers that are not functions, keywords, label names
 * (in matchers, `by`/`without`/`on`/`ignoring`/`group_*` lists), parts of numbers, durations or strings.
 * Grafana's variables are dropped; label_values(metric, label) reads its metric.
 */
export function metricNamesIn(expr: string): string[] {
  const s = expr
    .replace(/label_values\(\s*([^,()]*?)\s*,[^)]*\)/g, ' $1 ')
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\{[^}]*\}|\$\w+/g, ' ');
  const names = new Set<string>();
  for (const m of s.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const at = m.index ?? 0;
    if (/[0-9.]/.test(s[at - 1] ?? '')) continue; // 1e3, the unit of 5m
    if (
      s
        .slice(at + m[0].length)
        .trimStart()
        .startsWith('(')
    )
      continue; // a function or aggregation
    if (KEYWORDS.has(m[0].toLowerCase())) continue;
    names.add(m[0]);
  }
  return [...names].sort();
}

/** Sample names /metrics exposes: each family's name, with a histogram's _bucket/_sum/_count. */
function exported(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\w+)$/gm)) {
    const [, name, type] = m;
    out.add(name);
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) out.add(name + s);
    if (type === 'summary') for (const s of ['_sum', '_count']) out.add(name + s);
  }
  return out;
}

function ruleExpressions(): string[] {
  const doc = parseYaml(readFileSync(path.join(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8')) as {
    groups: { rules: { expr: string }[] }[];
  };
  return doc.groups.flatMap((g) => g.rules.map((r) => r.expr));
}

function dashboardExpressions(): string[] {
  const doc = JSON.parse(readFileSync(path.join(ROOT, 'deploy/grafana/tolem-dashboard.json'), 'utf8')) as {
    panels: { targets?: { expr: string }[] }[];
    templating: { list: { query?: string | { query: string } }[] };
  };
  const targets = doc.panels.flatMap((p) => (p.targets ?? []).map((x) => x.expr));
  const variables = doc.templating.list
    .map((v) => (typeof v.query === 'object' ? v.query.query : undefined))
    .filter((q): q is string => Boolean(q));
  return [...targets, ...variables];
}

async function scrape(): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
}

/** The value of one sample (name and labels as written in the exposition), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metric names of the alert rules and the dashboard', () => {
  it('reads names out of PromQL, and only names', () => {
    expect(
      metricNamesIn(
        'sum by (queue, le) (rate(a_total{job=~"$job",x="b_c"}[5m] offset 1h)) / on (instance) group_left(pod) ' +
          'histogram_quantile(0.95, b_bucket[$__rate_interval]) > 1e3 and c:recorded unless bool d',
      ),
    ).toEqual(['a_total', 'b_bucket', 'c:recorded', 'd']);
    expect(metricNamesIn('label_values(tolem_http_requests_total, job)')).toEqual(['tolem_http_requests_total']);
  });

  it('every metric a rule or a panel reads is exported by /metrics', async () => {
    const names = exported(await scrape());
    const fromRules = ruleExpressions().flatMap(metricNamesIn);
    const fromDashboard = dashboardExpressions().flatMap(metricNamesIn);
    // What the five alerts are about is there at all (the lists are not empty by a parsing slip).
    expect(new Set(fromRules)).toEqual(
      new Set([
        'tolem_http_requests_total',
        'tolem_webhook_attempts_total',
        'tolem_provider_breakers_open',
        'tolem_watcher_lag_seconds',
        'tolem_job_backlog_oldest_seconds',
      ]),
    );
    expect(fromDashboard.length).toBeGreaterThan(15);
    expect([...new Set([...fromRules, ...fromDashboard])].filter((n) => !names.has(n))).toEqual([]);
  });
});

describe('the metrics the rules read', () => {
  it('the webhook backlog counts a due delivery and its age; the watcher lag is its most overdue QR', async () => {
    // Counters are the process's: test files sharing this worker process have counted attempts before.
    const failedBefore = sample(await scrape(), 'tolem_webhook_attempts_total{outcome="failed"}') ?? 0;
    const m = await newMerchant(t.app);
    const clientId = await clientIdOf(t.runtime.deps.db, m);
    // A receiver no worker will reach: this app runs no delivery worker, so the delivery stays due.
    await createHook(t.app, m, { url: 'https://receiver.example.com/hook', events: ['payment.completed'] });
    await emit(t, clientId, 'payment.completed');
    // Its event was written a moment ago: make it due for a minute, as if the workers had stalled.
    await t.runtime.deps.db.query(
      `UPDATE webhook_deliveries SET next_attempt_at = now() - interval '60 seconds' WHERE client_id = $1`,
      [clientId],
    );
    // A QR under watch whose poll is 90 s overdue, as if the watcher had stalled (the sandbox's QRs are
    // not watched: the row is moved by hand).
    const qr = await createQr(t.app, m.testKey);
    await t.runtime.deps.db.query(
      `UPDATE operations SET poll_interval_s = 5, next_poll_at = now() - interval '90 seconds' WHERE id = $1`,
      [qr.operation_id],
    );
    await new Promise((ok) => setTimeout(ok, 1100)); // past the one-second sharing of the store's figures
    const text = await scrape();
    expect(sample(text, 'tolem_job_backlog{queue="webhooks"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'tolem_job_backlog_oldest_seconds{queue="webhooks"}')).toBeGreaterThanOrEqual(60);
    expect(sample(text, 'tolem_job_backlog_oldest_seconds{queue="outbox"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'tolem_watcher_lag_seconds')).toBeGreaterThanOrEqual(90);
    // No attempt was made (no worker runs here): a backlog is not a failure.
    expect(sample(text, 'tolem_webhook_attempts_total{outcome="failed"}') ?? 0).toBe(failedBefore);
    // Out of the watch again: a store shared with other test files keeps no overdue QR of this test.
    await t.runtime.deps.db.query('UPDATE operations SET next_poll_at = NULL WHERE id = $1', [qr.operation_id]);
  });

  it('a tripped breaker counts as open until a call succeeds, and each opening is a trip', async () => {
    const before = sample(await scrape(), 'tolem_provider_breaker_trips_total') ?? Number.NaN;
    let now = 1_000;
    const b = new CircuitBreaker(5, 30_000, () => now);
    for (let i = 0; i < 5; i++) b.failure();
    let text = await scrape();
    expect(sample(text, 'tolem_provider_breakers_open')).toBe(1);
    expect(sample(text, 'tolem_provider_breaker_trips_total')).toBe(before + 1);
    now += 31_000; // half-open: a trial may go out, the breaker is not open now
    expect(sample(await scrape(), 'tolem_provider_breakers_open')).toBe(0);
    expect(b.allow()).toBe(true);
    b.failure(); // the trial failed: open again, a second trip
    text = await scrape();
    expect(sample(text, 'tolem_provider_breakers_open')).toBe(1);
    expect(sample(text, 'tolem_provider_breaker_trips_total')).toBe(before + 2);
    now += 31_000;
    b.allow();
    b.success();
    expect(sample(await scrape(), 'tolem_provider_breakers_open')).toBe(0);
  });

  it('METRICS_PORT serves /metrics (its token still asked), /healthz and /readyz, and nothing else', async () => {
    const listener = await listenForMetrics(t.app, 0, '127.0.0.1');
    try {
      const at = (p: string, headers: Record<string, string> = {}) =>
        fetch(`http://127.0.0.1:${listener.port}${p}`, { headers });
      const ok = await at('/metrics', { authorization: `Bearer ${TOKEN}` });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await ok.text()).toContain('tolem_job_backlog');
      expect((await at('/metrics')).status).toBe(401);
      expect((await at('/readyz')).status).toBe(200);
      expect((await at('/healthz')).status).toBe(200);
      for (const p of ['/v2/qr', '/openapi.json', '/dashboard']) expect((await at(p)).status, p).toBe(404);
    } finally {
      await listener.close();
    }
  });
});
