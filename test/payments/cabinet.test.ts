// Payments from the merchant cabinet (JWT): same operations, team roles, stats, export.
import { newMember } from '../helpers/actors.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, idem, key, newMerchant } from '../helpers/factories.ts';
import { createQr, pay } from '../helpers/payments.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const jwt = (
  m: { access: string },
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) => t.app.inject({ method, url, headers: { ...bearer(m), ...headers }, payload: payload as object });

describe('cabinet payments', () => {
  it('create-qr and create-invoice are the same operations as v2, with source cabinet', async () => {
    const m = await newMerchant(t.app);
    const qr = await jwt(
      m,
      'POST',
      '/me/payments/create-qr?mode=test',
      { amount: 2500, description: 'Столик 4' },
      idem(),
    );
    expect(qr.statusCode).toBe(201);
    const inv = await jwt(
      m,
      'POST',
      '/me/payments/create-invoice?mode=test',
      { phone: '87012345678', amount: 900 },
      idem(),
    );
    expect(inv.statusCode).toBe(201);
    expect(inv.json().phone).toBe('+77012345678');
    const v2 = (await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.testKey) })).json().data;
    expect(v2.map((p: { source: string; operation_id: string }) => [p.operation_id, p.source])).toEqual([
      [inv.json().operation_id, 'cabinet'],
      [qr.json().operation_id, 'cabinet'],
    ]);
    expect(v2[1].comment).toBe('Столик 4');
    const list = (await jwt(m, 'GET', '/me/payments?mode=test&limit=1')).json();
    expect(list.data).toHaveLength(1);
    const status = (await jwt(m, 'GET', `/me/payments/status/${qr.json().operation_id}?mode=test`)).json();
    expect(status.status).toBe('created');
    // Without ?mode=test the cabinet is in live mode: no provider account yet.
    const live = await jwt(m, 'POST', '/me/payments/create-qr', { amount: 100 }, idem());
    expect(errorOf(live).code).toBe('provider_not_connected');
    expect((await jwt(m, 'POST', '/me/payments/create-qr?mode=test', { amount: 100 })).statusCode).toBe(400);
  });

  it('refund from the cabinet, the whole rest when no amount', async () => {
    const m = await newMerchant(t.app);
    const qr = await createQr(t.app, m.testKey, 3000);
    await pay(t.app, m.testKey, qr.operation_id);
    const part = await jwt(m, 'POST', `/me/payments/${qr.operation_id}/refund?mode=test`, {
      amount: 1000,
      reason: 'сдача',
    });
    expect(part.statusCode).toBe(201);
    const rest = await jwt(m, 'POST', `/me/payments/${qr.operation_id}/refund?mode=test`, {});
    expect(rest.json()).toMatchObject({ amount: 2000, remaining_refundable: 0 });
    const other = await newMerchant(t.app);
    expect((await jwt(other, 'POST', `/me/payments/${qr.operation_id}/refund?mode=test`, {})).statusCode).toBe(404);
    expect((await jwt(other, 'GET', `/me/payments/status/${qr.operation_id}?mode=test`)).statusCode).toBe(404);
  });

  it('roles: viewer reads only, accountant refunds and exports, support reads', async () => {
    const m = await newMerchant(t.app);
    const qr = await createQr(t.app, m.testKey, 3000);
    await pay(t.app, m.testKey, qr.operation_id);
    const viewer = await newMember(t.app, m, 'viewer');
    expect((await jwt(viewer, 'GET', '/me/payments?mode=test')).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['POST', '/me/payments/create-qr?mode=test', { amount: 100 }],
      ['POST', `/me/payments/${qr.operation_id}/refund?mode=test`, {}],
      ['GET', '/me/payments/export?mode=test', undefined],
    ] as const) {
      const res = await jwt(viewer, method, url, body, idem());
      expect(res.statusCode, url).toBe(403);
      expect(errorOf(res).code).toBe('forbidden_role');
    }
    const accountant = await newMember(t.app, m, 'accountant');
    expect((await jwt(accountant, 'GET', '/me/payments/export?mode=test')).statusCode).toBe(200);
    expect(
      (await jwt(accountant, 'POST', `/me/payments/${qr.operation_id}/refund?mode=test`, { amount: 1 })).statusCode,
    ).toBe(201);
    expect(
      (await jwt(accountant, 'POST', '/me/payments/create-qr?mode=test', { amount: 100 }, idem())).statusCode,
    ).toBe(403);
  });

  it('stats and export', async () => {
    const m = await newMerchant(t.app);
    const a = await createQr(t.app, m.testKey, 1000, { comment: '=HYPERLINK("http://evil")' });
    await createQr(t.app, m.testKey, 500);
    await pay(t.app, m.testKey, a.operation_id, { sender_name: '+cmd' });
    const s = (await jwt(m, 'GET', '/me/payments/stats?mode=test')).json();
    expect(s.today).toEqual({ count: 1, amount: 1000 });
    expect(s.month).toEqual({ count: 1, amount: 1000 });
    expect(s.all_time).toEqual({ count: 1, amount: 1000 });
    expect(s.week).toHaveLength(7);
    expect(s.days_14).toHaveLength(14);
    expect(s.days_14.slice(7)).toEqual(s.week);
    expect(s.days_14.at(-1)).toMatchObject({ count: 1, amount: 1000 });
    expect(s.conversion).toBe(0.5);
    const csv = await jwt(m, 'GET', '/me/payments/export?mode=test');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe(
      'operation_id,type,status,amount,refunded_amount,comment,phone,' +
        'sender_name,transaction_id,source,created_at,paid_at',
    );
    expect(lines).toHaveLength(3);
    expect(csv.body).toContain(`'=HYPERLINK`);
    expect(csv.body).toContain(`'+cmd`);
    expect(csv.body).not.toMatch(/(^|,)"?=HYPERLINK/m);
  });
});
