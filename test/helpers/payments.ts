// Payment helpers for tests: create through the API, act as the provider where a test needs live mode.
import type { FastifyInstance } from 'fastify';
import type { TestApp } from './app.ts';
import { idem, idsOf, key, type Merchant } from './factories.ts';
import { createProviderAccount } from '../../src/domain/payments/provider-accounts.ts';

export async function createQr(
  app: FastifyInstance,
  apiKey: string,
  amount = 5000,
  extra: Record<string, unknown> = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: '/v2/qr',
    headers: { ...key(apiKey), ...idem() },
    payload: { amount, ...extra },
  });
  if (res.statusCode !== 201) throw new Error(`create QR failed: ${res.statusCode} ${res.body}`);
  return res.json() as {
    operation_id: string;
    qr_token: string;
    deep_link: string;
    expires_at: string;
    status: string;
  };
}

export async function pay(app: FastifyInstance, testKey: string, opId: string, body: Record<string, unknown> = {}) {
  const res = await app.inject({
    method: 'POST',
    url: `/v2/test/payments/${opId}/pay`,
    headers: key(testKey),
    payload: body,
  });
  if (res.statusCode !== 200) throw new Error(`pay failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Connects a live provider account (what onboarding does) using the configured live driver. */
export async function connectLive(t: TestApp, m: Merchant): Promise<number> {
  const { clientId } = await idsOf(t.runtime.deps.db, m);
  return t.runtime.deps.db.tx((tx) =>
    createProviderAccount(tx, {
      clientId,
      mode: 'live',
      driver: 'sandbox',
      displayName: 'Kaspi shop',
      isDefault: true,
    }),
  );
}

/** The customer pays a live payment in the provider's app (the sandbox driver stands in for it). */
export async function payAtProvider(t: TestApp, opId: string): Promise<void> {
  const r = await t.runtime.deps.db.query<{ provider_ref: string }>(
    'SELECT provider_ref FROM operations WHERE id = $1',
    [opId],
  );
  const ok = await t.runtime.deps.providers.sandbox.simulate(r.rows[0].provider_ref, 'pay', {
    senderName: 'Айгерим С.',
  });
  if (!ok) throw new Error('provider refused the payment');
}

/**
 * Puts the provider's deadline of an operation in the past, as if its time had run out there. The sandbox
 * keeps the deadline in the ref until the payment's first change, so this writes the ledger row that
 * change would.
 */
export async function expireAtProvider(t: TestApp, opId: string): Promise<void> {
  await t.runtime.deps.db.query(
    `INSERT INTO sandbox_payments (ref, kind, amount, status, expires_at)
     SELECT provider_ref, type, amount, CASE type WHEN 'qr' THEN 'QrTokenCreated' ELSE 'InvoiceCreated' END, ` +
      `now() - interval '1 second'
       FROM operations WHERE id = $1
     ON CONFLICT (ref) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
    [opId],
  );
}
