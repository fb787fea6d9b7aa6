// /metrics with METRICS_TOKEN set (decisions 25): only a scraper holding the token reads them; without
// the setting /metrics stays open (see conventions.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { errorOf, newMerchant } from '../helpers/factories.ts';

const TOKEN = 'scrape-me-4f1c2a9e8b7d6c5a';
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ metricsToken: TOKEN });
});
afterAll(() => t.close());

const metrics = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/metrics', headers });

describe('GET /metrics with METRICS_TOKEN', () => {
  it('the token reads the metrics', async () => {
    const res = await metrics({ authorization: `Bearer ${TOKEN}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('# HELP');
  });

  it('no token, another token, or a user token: 401 invalid_token', async () => {
    const m = await newMerchant(t.app);
    const cases: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${m.access}` },
      { authorization: TOKEN },
      { 'x-api-key': m.liveKey },
    ];
    for (const headers of cases) {
      const res = await metrics(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(errorOf(res).code).toBe('invalid_token');
      expect(res.body).not.toContain('# HELP');
    }
  });

  it('the document says what /metrics takes', async () => {
    const op = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths['/metrics'].get;
    expect(op.security).toEqual([{ MetricsToken: [] }]);
    expect(op['x-permission']).toBe('metrics.read');
  });
});
