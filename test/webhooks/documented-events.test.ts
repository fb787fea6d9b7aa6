// The OpenAPI `webhooks` section describes what is really sent: every delivery body written for a
// payment's life (completed, refunded, cancelled, expired) and a test send validates against the
// document's schema of its event type.
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, idem, key, newMerchant } from '../helpers/factories.ts';
import { createQr, pay } from '../helpers/payments.ts';
import { inlinedDoc } from '../helpers/openapi.ts';
import { issueReceipts, newRegister } from '../helpers/fiscal.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ webhooksAllowPrivate: true });
});
afterAll(() => t.close());

describe('the webhooks section of /openapi.json', () => {
  it('names the seven subscribable event types, and each real delivery body matches its schema', async () => {
    const doc = await inlinedDoc(t.app);
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'payment.cancelled',
      'payment.completed',
      'payment.expired',
      'payment.refunded',
      'receipt.failed',
      'receipt.issued',
      'webhook.test',
    ]);

    const m = await newMerchant(t.app);
    // A register, so that the payment and the refund below get receipts (decisions 27).
    await newRegister(t, m);
    const all = [
      'payment.completed',
      'payment.cancelled',
      'payment.expired',
      'payment.refunded',
      'receipt.issued',
      'receipt.failed',
    ];
    const hook = (
      await t.app.inject({
        method: 'POST',
        url: '/me/webhooks?mode=test',
        headers: bearer(m),
        payload: { url: 'http://127.0.0.1:9/h', events: all },
      })
    ).json();
    const paid = await createQr(t.app, m.testKey, 5000);
    await pay(t.app, m.testKey, paid.operation_id, { sender_name: 'Айгерим' });
    await t.app.inject({
      method: 'POST',
      url: '/v2/refunds',
      headers: { ...key(m.testKey), ...idem() },
      payload: { operation_id: paid.operation_id, amount: 1000 },
    });
    const inv = (
      await t.app.inject({
        method: 'POST',
        url: '/v2/invoices',
        headers: { ...key(m.testKey), ...idem() },
        payload: { phone: '+77012345678', amount: 700 },
      })
    ).json();
    await t.app.inject({
      method: 'POST',
      url: `/v2/invoices/${inv.operation_id}/cancel`,
      headers: { ...key(m.testKey), ...idem() },
      payload: {},
    });
    const late = await createQr(t.app, m.testKey, 300);
    await t.app.inject({
      method: 'POST',
      url: `/v2/test/payments/${late.operation_id}/expire`,
      headers: key(m.testKey),
      payload: {},
    });
    // One receipt the register refuses: its stored line made longer than any register takes (a fake).
    const refused = await createQr(t.app, m.testKey, 400);
    await pay(t.app, m.testKey, refused.operation_id);
    await t.runtime.deps.db.query(
      `UPDATE fiscal_receipts SET items = jsonb_set(items, '{0,name}', to_jsonb(repeat('x', 200)))
        WHERE operation_id = $1`,
      [refused.operation_id],
    );
    await issueReceipts(t);
    await t.app.inject({
      method: 'POST',
      url: `/me/webhooks/${hook.id}/test?mode=test`,
      headers: bearer(m),
      payload: {},
    });

    const bodies = (
      await t.runtime.deps.db.query<{ event_type: string; body: string }>(
        'SELECT event_type, body FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id',
        [hook.id],
      )
    ).rows;
    expect(bodies.map((b) => b.event_type).sort(), JSON.stringify(bodies.map((b) => b.event_type))).toEqual(
      [...all, 'payment.completed', 'receipt.issued', 'webhook.test'].sort(),
    );
    const ajv = new Ajv({ strict: false, allErrors: true });
    const addFormats = addFormatsModule as unknown as (a: Ajv) => void;
    addFormats(ajv);
    for (const { event_type, body } of bodies) {
      const schema = doc.webhooks[event_type].post.requestBody.content['application/json'].schema;
      const valid = ajv.validate({ ...schema, additionalProperties: false }, JSON.parse(body));
      expect(valid, `${event_type}: ${JSON.stringify(ajv.errors)} in ${body}`).toBe(true);
      // Nothing undocumented in data either.
      expect(Object.keys(JSON.parse(body).data).sort(), event_type).toEqual(
        Object.keys(schema.properties.data.properties).sort(),
      );
    }
  });
});
