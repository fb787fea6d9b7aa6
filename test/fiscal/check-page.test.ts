// The sandbox register's check page (GET /fiscal/check, decisions 27), through HTTP: a receipt issued for a
// paid test QR is shown at its check_url with its lines, VAT, total, sign, register and seller, in each
// language, marked TEST, with a QR of the page; any parameter not the receipt's own is the same 404 page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { idem, newMerchant, type Merchant } from '../helpers/factories.ts';
import { issueReceipts, newRegister } from '../helpers/fiscal.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function issuedReceipt(m: Merchant, body: Record<string, unknown>) {
  const c = api(t.app, { apiKey: m.testKey });
  const qr = await c.post('/v2/qr', { body: body as never, headers: idem() });
  expect(qr.status).toBe(201);
  const id = (qr.body as { operation_id: string }).operation_id;
  expect((await c.post(`/v2/test/payments/${id}/pay`, { body: {} })).status).toBe(200);
  await issueReceipts(t);
  const [r] = (await c.get(`/v2/receipts?operation_id=${id}`)).body.data;
  expect(r.status).toBe('issued');
  // Issued: these are set (the list's type has them nullable).
  return r as typeof r & { check_url: string; fiscal_sign: string; registration_number: string };
}

/** The path and query of a check_url (the test app is reached by inject, not by the public host). */
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('GET /fiscal/check', () => {
  it('shows the receipt: lines, VAT, total, sign, register, seller, TEST mark and a QR, in ru by default', async () => {
    const m = await newMerchant(t.app);
    const org = await t.app.inject({
      method: 'PUT',
      url: '/me/organization',
      headers: { authorization: `Bearer ${m.access}` },
      payload: { legal_name: 'Ромашка', org_type: 'too', bin: '990140001233', legal_address: 'Алматы, Абая 1' },
    });
    expect(org.statusCode, org.body).toBe(200);
    const g = await newRegister(t, m, { vat_payer: true, vat_rate_bps: 1600 });
    const r = await issuedReceipt(m, {
      amount: 2500,
      items: [
        { name: 'Кофе <латте>', price: 1000, quantity: 2 },
        { name: 'Круассан', price: 500 },
      ],
    });
    const res = await get(pathOf(r.check_url));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const html = res.body;
    expect(html).toContain('<html lang="ru">');
    expect(html).toContain('ФИСКАЛЬНЫЙ ЧЕК');
    expect(html).toContain('ФИСКАЛДЫҚ ЧЕК');
    expect(html).toMatch(/id="test-mark"[^>]*><strong>ТЕСТ<\/strong>/);
    expect(html).toContain('не имеет юридической силы');
    // Merchant text is escaped.
    expect(html).toContain('1. Кофе &lt;латте&gt;<span class="rc-qty">2 × 1 000,00 ₸</span>');
    expect(html).toMatch(/<span class="rc-qty">2 × 1 000,00 ₸<\/span>.*?<\/th><td>2 000,00 ₸<\/td>/);
    expect(html).toContain('2. Круассан<span class="rc-qty">1 × 500,00 ₸</span>');
    expect(html).toMatch(/<span class="rc-qty">1 × 500,00 ₸<\/span>.*?<\/th><td>500,00 ₸<\/td>/);
    // VAT inside 16%: 2000 × 16/116 = 275,86; 500 × 16/116 = 68,97; the receipt's 344,83.
    expect(html).toContain('в т. ч. НДС 16%: 275,86 ₸');
    expect(html).toContain('в т. ч. НДС 16%: 68,97 ₸');
    expect(html).toContain('<dd id="vat">344,83 ₸</dd>');
    expect(html).toContain('<dd id="total">2 500,00 ₸</dd>');
    expect(html).toContain(`<dd id="fiscal-sign">${r.fiscal_sign}</dd>`);
    expect(html).toContain(`<dd id="registration-number">${r.registration_number}</dd>`);
    expect(html).toContain(`<dd id="unique-number">${g.register_number}</dd>`);
    expect(html).toContain(`<dd id="shift">${r.shift_number}</dd>`);
    expect(html).toContain('<dd id="number-in-shift">1</dd>');
    expect(html).toContain('<dd id="payment-type">Мобильный платёж</dd>');
    expect(html).toContain('<dd id="seller-name">ТОО Ромашка</dd>');
    expect(html).toContain('<dd id="seller-bin">990140001233</dd>');
    expect(html).toContain('<dd id="ofd">Tolem sandbox</dd>');
    expect(html).toMatch(/<svg role="img" aria-label="QR-код этой страницы проверки чека"/);
    // Time as printed: Kazakhstan's local time of the check URL's t.
    const tParam = new URL(r.check_url).searchParams.get('t')!;
    const printed =
      `${tParam.slice(6, 8)}.${tParam.slice(4, 6)}.${tParam.slice(0, 4)} ` +
      `${tParam.slice(9, 11)}:${tParam.slice(11, 13)}:${tParam.slice(13, 15)}`;
    expect(html).toContain(`<dd id="issued-at">${printed}</dd>`);
  });

  it('speaks kk and en by ?lang= or Accept-Language; the second receipt of the shift is number 2', async () => {
    const m = await newMerchant(t.app);
    await newRegister(t, m, { payment_type: 'card' });
    await issuedReceipt(m, { amount: 100 });
    const r = await issuedReceipt(m, { amount: 700, comment: 'Столик 4' });
    const kk = (await get(`${pathOf(r.check_url)}&lang=kk`)).body;
    expect(kk).toContain('<html lang="kk">');
    expect(kk).toContain('Фискалдық чек · Сату');
    expect(kk).toContain('<dd id="payment-type">Банк картасы</dd>');
    expect(kk).toContain('заңды күші жоқ');
    expect(kk).toContain('<dd id="total">700,00 ₸</dd>');
    expect(kk).toContain('<dd id="number-in-shift">2</dd>');
    const en = (await get(pathOf(r.check_url), { 'accept-language': 'en-US,en;q=0.9' })).body;
    expect(en).toContain('<html lang="en">');
    expect(en).toContain('Fiscal receipt · Sale');
    expect(en).toContain('no legal force');
    expect(en).toContain('Оплата: Столик 4');
    expect(en).toContain('<dd id="vat">—</dd>');
    expect(en).toContain(`<dd id="fiscal-sign">${r.fiscal_sign}</dd>`);
    // Without requisites the seller is the merchant's display name, and no BIN line.
    expect(en).not.toContain('seller-bin');
    // The language links keep the receipt's parameters.
    expect(en).toContain(`href="/fiscal/check?i=${r.fiscal_sign}&amp;f=${r.registration_number}`);
  });

  it('any parameter not the receipt own is the same 404 page, in the same style and language', async () => {
    const m = await newMerchant(t.app);
    await newRegister(t, m);
    const r = await issuedReceipt(m, { amount: 1500 });
    const u = new URL(r.check_url);
    const variant = (k: string, v: string | null) => {
      const q = new URLSearchParams(u.search);
      if (v === null) q.delete(k);
      else q.set(k, v);
      return `/fiscal/check?${q}`;
    };
    const bodies: string[] = [];
    for (const path of [
      variant('s', '1500.01'),
      variant('s', '1500'),
      variant('t', `${u.searchParams.get('t')!.slice(0, 14)}${(Number(u.searchParams.get('t')!.slice(14)) + 1) % 10}`),
      variant('t', null),
      variant('i', String(Number(r.fiscal_sign) + 100000)),
      variant('f', '000000000000'),
      variant('i', "1' OR '1'='1"),
      '/fiscal/check',
    ]) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      bodies.push(res.body.replace(/href="[^"]*"/g, ''));
    }
    expect(bodies[0]).toContain('Чек не найден');
    expect(bodies[0]).not.toContain(r.fiscal_sign);
    // Nothing tells which part was wrong: every 404 is the same page.
    expect(new Set(bodies).size).toBe(1);
    const en = await get(`${variant('s', '1.00')}&lang=en`);
    expect(en.statusCode).toBe(404);
    expect(en.body).toContain('Receipt not found');
    // The receipt itself is still there.
    expect((await get(pathOf(r.check_url))).statusCode).toBe(200);
  });

  it('is rate-limited per address like the public pages: guesses from one address run out', async () => {
    const limited = await buildTestApp({ rateLimits: { ...t.config.rateLimits, checkout_get: 2 } });
    try {
      const guess = (i: number, ip: string) =>
        limited.app.inject({
          method: 'GET',
          url: `/fiscal/check?i=${100 + i}&f=900000000000&s=1.00&t=20260101T000000&lang=en`,
          remoteAddress: ip,
        });
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await guess(i, '192.0.2.50')).statusCode);
      // Each guess names other parameters: the budget is the address's, not the receipt's.
      expect(codes).toEqual([404, 404, 429]);
      const over = await guess(9, '192.0.2.50');
      expect(over.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(over.body).toContain('Too many requests');
      expect((await guess(10, '192.0.2.51')).statusCode).toBe(404);
    } finally {
      await limited.close();
    }
  });

  it('is in /openapi.json as a public route', async () => {
    const doc = (await get('/openapi.json')).json();
    const op = doc.paths['/fiscal/check'].get;
    expect(op.security).toEqual([]);
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['f', 'i', 'lang', 's', 't']);
  });
});
