// Helpers of the payment-link and checkout tests: create links through the API, open the checkout as
// one browser (its visitor cookie), and move a link's clock by editing its expiry.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/app.ts';
import { key } from '../helpers/factories.ts';
import { expireAtProvider } from '../helpers/payments.ts';

export interface LinkBody {
  token: string;
  url: string;
  amount: number;
  description: string;
  status: string;
  success_url: string | null;
  cancel_url: string | null;
  expires_at: string;
  allow_repeat: boolean;
  email_required: boolean;
  metadata: Record<string, unknown>;
  items: Record<string, unknown>[] | null;
  paid_count: number;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

export async function createLink(
  app: FastifyInstance,
  apiKey: string,
  body: Record<string, unknown> = {},
): Promise<LinkBody> {
  const res = await app.inject({
    method: 'POST',
    url: '/v2/payment-links',
    headers: key(apiKey),
    payload: { amount: 5000, description: 'Заказ №42', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`create link failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** One browser: keeps the visitor cookie between requests, like a payer's phone. */
export class Browser {
  cookie?: string;
  constructor(
    private app: FastifyInstance,
    public ip = '203.0.113.7',
  ) {}

  async request(opts: InjectOptions): Promise<LightMyRequestResponse> {
    const headers = { ...(opts.headers ?? {}), ...(this.cookie ? { cookie: this.cookie } : {}) };
    const res = await this.app.inject({ ...opts, headers, remoteAddress: this.ip });
    const set = res.headers['set-cookie'];
    const first = Array.isArray(set) ? set[0] : set;
    if (first) this.cookie = first.split(';')[0];
    return res;
  }

  get(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: 'GET', url, headers });
  }

  post(url: string, payload: unknown = {}, headers: Record<string, string> = {}) {
    return this.request({ method: 'POST', url, payload: payload as object, headers });
  }

  /** A plain HTML form post (application/x-www-form-urlencoded). */
  form(url: string, fields: Record<string, string>) {
    return this.request({
      method: 'POST',
      url,
      payload: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }
}

/** Puts a link's expiry in the past, as if time had passed. */
export async function expireLinkClock(t: TestApp, token: string): Promise<void> {
  await t.runtime.deps.db.query(`UPDATE payment_links SET expires_at = now() - interval '1 second' WHERE token = $1`, [
    token,
  ]);
}

/** Puts an operation's (and the sandbox's) deadline in the past. */
export async function expireOpClock(t: TestApp, opId: string): Promise<void> {
  await t.runtime.deps.db.query(`UPDATE operations SET expires_at = now() - interval '1 second' WHERE id = $1`, [opId]);
  await expireAtProvider(t, opId);
}

export async function events(app: FastifyInstance, apiKey: string, type: string) {
  const res = await app.inject({ method: 'GET', url: `/v2/events?type=${type}`, headers: key(apiKey) });
  return res.json().data as { type: string; data: Record<string, unknown>; livemode: boolean }[];
}
