// Issue 38 item 5: phones take the common spellings of decisions 1 (digits with spaces, dashes, parentheses,
// a leading +7, 8 or 7) and nothing else: no `tel:` or `;` parameters, no extension, no letters, no digits
// of other scripts (Arabic-Indic, full-width...). Every phone input answers 400 invalid_phone otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, idem, key, newMerchant } from '../helpers/factories.ts';
import { createQr } from '../helpers/payments.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const ACCEPTED = [
  '+7 701 234 56 78',
  '87012345678',
  '77012345678',
  '+77012345678',
  '+7 (701) 234-56-78',
  '8 (701) 234-56-78',
  '8-701-234-56-78',
  '7 701 234 56 78',
  '+7(701)2345678',
  ' +7 701 234 56 78 ',
];

const REFUSED = [
  'tel:+77012345678',
  'Tel: +77012345678',
  '+77012345678;ext=12',
  '+77012345678;phone-context=+7',
  '+77012345678 ext. 5',
  '+77012345678 x5',
  '+7 701 234 56 78 доб. 5',
  '+7 701 234 56 78 #1',
  '+77012345678a',
  '٨٧٠١٢٣٤٥٦٧٨',
  '+٧٧٠١٢٣٤٥٦٧٨',
  '８７０１２３４５６７８',
  '+7701234567８',
  '۸۷۰۱۲۳۴۵۶۷۸',
  '+7.701.234.56.78',
  '+7/701/2345678',
  '+7 701 234 56 78.',
  '(+7) 701 2345678',
  '810 7 7012345678',
  '+8 701 234 56 78',
  '+7\u00a0701\u00a0234\u00a056\u00a078',
  '+7\u2013701\u20132345678',
  '+7 701 234 56 78\n',
  '++77012345678',
  '8 701 234 56 78 9',
];

describe('phone spellings on every phone input', () => {
  it('POST /v2/invoices accepts the common spellings, normalized to E.164', async () => {
    const m = await newMerchant(t.app);
    for (const phone of ACCEPTED) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/invoices',
        headers: { ...key(m.testKey), ...idem() },
        payload: { phone, amount: 100 },
      });
      expect(res.statusCode, JSON.stringify(phone)).toBe(201);
      expect(res.json().phone).toBe('+77012345678');
    }
  });

  it('POST /v2/invoices refuses anything around the number with 400 invalid_phone', async () => {
    const m = await newMerchant(t.app);
    for (const phone of REFUSED) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/invoices',
        headers: { ...key(m.testKey), ...idem() },
        payload: { phone, amount: 100 },
      });
      expect(res.statusCode, JSON.stringify(phone)).toBe(400);
      expect(errorOf(res), JSON.stringify(phone)).toMatchObject({ code: 'invalid_phone', param: 'phone' });
    }
  });

  it('the customer lookup, the cabinet invoice, v1 and the test payer refuse them too', async () => {
    const m = await newMerchant(t.app);
    for (const phone of ['tel:+77012345678', '+77012345678;ext=1', '٨٧٠١٢٣٤٥٦٧٨', '８７０１２３４５６７８']) {
      const lookup = await t.app.inject({
        method: 'GET',
        url: `/v2/client?phone=${encodeURIComponent(phone)}`,
        headers: key(m.testKey),
      });
      expect(errorOf(lookup), phone).toMatchObject({ code: 'invalid_phone', param: 'phone' });
      const cabinet = await t.app.inject({
        method: 'POST',
        url: '/me/payments/create-invoice?mode=test',
        headers: { ...bearer(m), ...idem() },
        payload: { phone, amount: 100 },
      });
      expect(errorOf(cabinet), phone).toMatchObject({ code: 'invalid_phone', param: 'phone' });
      const v1 = await t.app.inject({
        method: 'GET',
        url: `/v1/client/${encodeURIComponent(phone)}`,
        headers: key(m.testKey),
      });
      expect(v1.statusCode, phone).toBe(400);
      const qr = await createQr(t.app, m.testKey, 500);
      const paid = await t.app.inject({
        method: 'POST',
        url: `/v2/test/payments/${qr.operation_id}/pay`,
        headers: key(m.testKey),
        payload: { phone },
      });
      expect(errorOf(paid), phone).toMatchObject({ code: 'invalid_phone', param: 'phone' });
    }
    const ok = await t.app.inject({
      method: 'GET',
      url: `/v2/client?phone=${encodeURIComponent('8 (701) 234-56-78')}`,
      headers: key(m.testKey),
    });
    expect(ok.json()).toMatchObject({ phone: '+77012345678', exists: true });
  });
});
