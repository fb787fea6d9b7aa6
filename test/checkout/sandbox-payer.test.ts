// The sandbox payer's page (#16 item 10): the address a test QR carries opens a page that shows the
// payment and lets a person pay, decline or let it expire, with the same outcome as the test helpers:
// the payment's status, its journal event and its webhook delivery. Live payments are not reachable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, key, newMerchant, type Merchant } from '../helpers/factories.ts';
import { connectLive, createQr } from '../helpers/payments.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ webhooksAllowPrivate: true });
});
afterAll(() => t.close());

const path = (qrToken: string) => new URL(qrToken).pathname;
const form = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: '',
  });

async function testQr(m: Merchant, amount = 4200) {
  const qr = await createQr(t.app, m.testKey, amount, { comment: 'Заказ <b>№7</b>' });
  return { ...qr, page: path(qr.qr_token) };
}

describe('GET /sandbox/qr/{ref}', () => {
  it('shows the merchant, the amount, the comment (escaped) and the three actions', async () => {
    const m = await newMerchant(t.app, { name: 'Кофейня "Арман"' });
    const qr = await testQr(m);
    expect(qr.deep_link).toBe(qr.qr_token);
    const res = await t.app.inject({ method: 'GET', url: qr.page });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain('Кофейня &quot;Арман&quot;');
    expect(res.body).toContain('4 200 ₸');
    expect(res.body).toContain('Заказ &lt;b&gt;№7&lt;/b&gt;');
    for (const a of ['pay', 'decline', 'expire']) expect(res.body).toContain(`action="${qr.page}/${a}"`);
    expect(res.body).not.toMatch(/<script>|style=/);
  });

  it("an unknown reference, or a live payment's, is a 404 page", async () => {
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/qr/sbx_qr_nothing' })).statusCode).toBe(404);
    const m = await newMerchant(t.app);
    await connectLive(t, m);
    const live = await createQr(t.app, m.liveKey, 1000);
    const res = await t.app.inject({ method: 'GET', url: path(live.qr_token) });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect((await form(`${path(live.qr_token)}/pay`)).statusCode).toBe(404);
    const status = await t.app.inject({ method: 'GET', url: `/v2/qr/${live.operation_id}`, headers: key(m.liveKey) });
    expect(status.json().status).toBe('created');
  });
});

describe('POST /sandbox/qr/{ref}/pay | decline | expire', () => {
  it('pay: the payment is paid, journaled and its webhook delivery written, as with the test helper', async () => {
    const m = await newMerchant(t.app);
    const hook = await t.app.inject({
      method: 'POST',
      url: '/me/webhooks?mode=test',
      headers: bearer(m),
      payload: { url: 'http://127.0.0.1:9/hook', events: ['payment.completed'] },
    });
    const qr = await testQr(m, 2500);
    const res = await form(`${qr.page}/pay`, { 'sec-fetch-site': 'same-origin' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${qr.page}?done=pay`);
    const after = await t.app.inject({ method: 'GET', url: res.headers.location as string });
    expect(after.body).toContain('You paid');
    expect(after.body).toContain('data-status="paid"');
    expect(after.body).not.toContain('action="');
    const status = (
      await t.app.inject({ method: 'GET', url: `/v2/qr/${qr.operation_id}`, headers: key(m.testKey) })
    ).json();
    expect(status).toMatchObject({ status: 'paid', sender_name: 'Sandbox payer' });
    const events = (
      await t.app.inject({ method: 'GET', url: '/v2/events?type=payment.completed', headers: key(m.testKey) })
    ).json();
    expect(events.data.map((e: { data: { operation_id: string } }) => e.data.operation_id)).toEqual([qr.operation_id]);
    const deliveries = (
      await t.app.inject({
        method: 'GET',
        url: `/me/webhooks/${hook.json().id}/deliveries?mode=test`,
        headers: bearer(m),
      })
    ).json();
    expect(deliveries.data.map((d: { event_type: string }) => d.event_type)).toEqual(['payment.completed']);
    // Paying again: the provider refuses; nothing changes.
    const again = await form(`${qr.page}/pay`);
    expect(again.statusCode).toBe(409);
    expect(again.headers['content-type']).toMatch(/^text\/html/);
  });

  it('decline and expire drive the same state machine', async () => {
    const m = await newMerchant(t.app);
    const a = await testQr(m);
    const b = await testQr(m);
    expect((await form(`${a.page}/decline`)).statusCode).toBe(303);
    expect((await form(`${b.page}/expire`)).statusCode).toBe(303);
    const st = async (id: string) =>
      (await t.app.inject({ method: 'GET', url: `/v2/qr/${id}`, headers: key(m.testKey) })).json().status;
    expect(await st(a.operation_id)).toBe('declined');
    expect(await st(b.operation_id)).toBe('expired');
  });

  it('a post from another site is refused (CSRF) and changes nothing', async () => {
    const m = await newMerchant(t.app);
    const qr = await testQr(m);
    const foreign: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ];
    for (const headers of foreign) {
      expect((await form(`${qr.page}/pay`, headers)).statusCode, JSON.stringify(headers)).toBe(403);
    }
    const status = await t.app.inject({ method: 'GET', url: `/v2/qr/${qr.operation_id}`, headers: key(m.testKey) });
    expect(status.json().status).toBe('created');
  });
});
