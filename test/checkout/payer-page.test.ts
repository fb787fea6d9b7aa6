// The payer page of one operation, GET /pay/{op_id} (decisions 26), and the return QR page of an r2 refund,
// GET /pay/{op_id}/refunds/{refund_id}: headers and CSP, branding, the QR, languages, live status through
// the JSON status endpoints, the app button only for a web-link token, 404s as pages (and envelopes), and
// nothing a payer need not see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, idem, idsOf, key, newMerchant, type Merchant } from '../helpers/factories.ts';
import { connectLive, createQr, pay, payAtProvider } from '../helpers/payments.ts';
import { newId } from '../../src/domain/ids.ts';
import { api } from '../helpers/api.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src " +
  "'self' https: data:; connect-src 'self'; form-action 'self'; frame-ancestors " +
  "'none'; base-uri 'none'";
const DIGITS = '51236903777280167836178166503744703123';

const db = () => t.runtime.deps.db;

/** A live operation as the official API makes it: its QR token is a digit string, not a link. */
async function liveQr(
  m: Merchant,
  amount = 7_500,
  comment?: string,
): Promise<{ operation_id: string; provider_ref: string }> {
  await connectLive(t, m);
  const qr = await createQr(t.app, m.liveKey, amount, comment ? { comment } : {});
  // Faking the provider: the sandbox driver's token is a link, the real provider's a digit string.
  await db().query('UPDATE operations SET qr_token = $2 WHERE id = $1', [qr.operation_id, DIGITS]);
  const r = await db().query<{ provider_ref: string }>('SELECT provider_ref FROM operations WHERE id = $1', [
    qr.operation_id,
  ]);
  return { operation_id: qr.operation_id, provider_ref: r.rows[0].provider_ref };
}

/** A refund waiting for the payer's scan of its return QR (the r2 flow's rows, written directly). */
async function returnRefund(
  opId: string,
  amount: number,
  extra: { status?: string; token?: string | null; operation?: string } = {},
): Promise<string> {
  const id = newId('rf');
  const op = (
    await db().query<{ client_id: number; mode: string }>('SELECT client_id, mode FROM operations WHERE id = $1', [
      opId,
    ])
  ).rows[0];
  await db().query(
    `INSERT INTO refunds (id, operation_id, client_id, mode, amount, status, ` +
      `provider_ref, return_qr_id, return_qr_token, return_expires_at, return_status)
     VALUES ($1, $2, $3, $4, $5, $6, 'rf-provider-ref-secret', 'ret-qr-id-secret', ` +
      `$7, now() + interval '10 minutes', 'QrTokenCreated')`,
    [
      id,
      extra.operation ?? opId,
      op.client_id,
      op.mode,
      amount,
      extra.status ?? 'pending',
      extra.token === undefined ? '88877766655544433322211100099988877766' : extra.token,
    ],
  );
  return id;
}

describe('GET /pay/{op_id}', () => {
  it(
    "a test QR: HTML with the checkout's CSP, the amount, the comment, " +
      'the QR, the test banner and no inline script or style',
    async () => {
      const m = await newMerchant(t.app);
      const qr = await createQr(t.app, m.testKey, 1_250_000, { comment: 'Заказ №42 — Қазақша мәтін' });
      const res = await api(t.app).page(`/pay/${qr.operation_id}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(CSP);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['cache-control']).toBe('no-store');
      const html = res.body;
      expect(html).toMatch(/^<!doctype html>\n<html lang="ru">/);
      expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
      expect(html).toContain('<span class="amount" id="amount">1 250 000 ₸</span>');
      expect(html).toContain('<p class="description" id="comment">Заказ №42 — Қазақша мәтін</p>');
      expect(html).toMatch(
        /<div class="qr-box"><svg role="img" aria-label="QR-код для оплаты 1 250 000 ₸" class="qr-svg"/,
      );
      expect(html).toContain('id="test-banner"');
      expect(html).toContain('<main class="card payer" id="payer" data-kind="payment" data-state="waiting"');
      expect(html).toContain(`data-poll="/pay/${qr.operation_id}/status"`);
      expect(html).toMatch(/<p class="status payer-status" id="status" role="status" aria-atomic="true"/);
      expect(html).toContain('<span id="status-text">Ожидаем оплату</span>');
      expect(html).toMatch(/<time id="countdown" datetime="[^"]+">5 мин<\/time>/);
      // A test QR's token is the sandbox payer's page: a link, so the app button opens exactly it.
      expect(html).toContain(
        `<a class="button primary app-link" id="app-link" href="${qr.qr_token}">Открыть в приложении для оплаты</a>`,
      );
      // Without JavaScript, a plain link refreshes the status.
      expect(html).toContain(`<a href="/pay/${qr.operation_id}?lang=ru">Обновить статус</a>`);
      expect(html).toContain('<script src="/pay/assets/payer.js?v=');
      expect(html.match(/<script/g)).toHaveLength(1);
      expect(html).not.toMatch(/<script>|<style|style="|\son[a-z]+=|http-equiv/);
      // Landmarks and headings: one h1 (the amount), the language switcher is a named navigation.
      expect(html.match(/<h1/g)).toHaveLength(1);
      expect(html).toContain('<nav class="langs" aria-label="Язык">');
      // Its assets are served from our origin.
      const js = await api(t.app).page(html.match(/src="(\/pay\/assets\/payer\.js\?v=[0-9a-f]+)"/)![1]);
      expect(js.status).toBe(200);
      expect(js.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(js.body).toContain('data-say');
      const css = await api(t.app).page(html.match(/href="(\/pay\/assets\/payer\.css\?v=[0-9a-f]+)"/)![1]);
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(css.body).toContain('.app-link');
    },
  );

  it(
    'a live operation with a digit token: the QR encodes the token as ' +
      'given, no app button, no test banner; branding shows',
    async () => {
      const m = await newMerchant(t.app);
      await t.app.inject({
        method: 'PATCH',
        url: '/me/branding',
        headers: bearer(m),
        payload: {
          display_name: 'Alma Coffee',
          logo_url: 'https://cdn.alma.kz/logo.png',
          brand_color: '#FFD400',
          support_email: 'help@alma.kz',
        },
      });
      const op = await liveQr(m, 7_500);
      // A live operation's deep_link is this page (decisions 26).
      const deep = (
        await db().query<{ deep_link: string }>('SELECT deep_link FROM operations WHERE id = $1', [op.operation_id])
      ).rows[0].deep_link;
      expect(deep).toBe(`${t.config.publicBaseUrl}/pay/${op.operation_id}`);
      const html = (await api(t.app).page(`/pay/${op.operation_id}`)).body;
      expect(html).toContain('7 500 ₸');
      expect(html).toContain('class="qr-svg"');
      expect(html).not.toContain('app-link');
      expect(html).not.toContain('test-banner');
      expect(html).toContain('<p class="merchant-name" id="merchant-name">Alma Coffee</p>');
      expect(html).toContain('src="https://cdn.alma.kz/logo.png"');
      expect(html).toContain('href="/checkout/assets/theme.css?c=FFD400"');
      expect(html).toContain('mailto:help@alma.kz');
      // The image is the token itself: the same SVG as the QR of the digit string.
      const { qrSvg } = await import('../../src/web/qr-svg.ts');
      const inner = (await qrSvg(DIGITS)).replace(/^<svg[^>]*>/, '');
      expect(html).toContain(inner);
    },
  );

  it(
    'the app button only for an http(s) token: https yes; digits, another ' + 'scheme, a javascript: token no',
    async () => {
      const m = await newMerchant(t.app);
      const op = await liveQr(m);
      const page = async (token: string) => {
        // Faking the provider: a token of each shape the provider could hand back.
        await db().query('UPDATE operations SET qr_token = $2 WHERE id = $1', [op.operation_id, token]);
        return (await api(t.app).page(`/pay/${op.operation_id}`)).body;
      };
      expect(await page('https://pay.example.kz/qr/abc?x=1&y=2')).toContain(
        '<a class="button primary app-link" id="app-link" href="https://pay.example.kz/qr/abc?x=1&amp;y=2">',
      );
      for (const token of [DIGITS, 'bankapp://pay?id=1', 'javascript:alert(1)', 'https//broken', 'data:text/html,x']) {
        const html = await page(token);
        expect(html, token).not.toContain('app-link');
        expect(html, token).toContain('class="qr-svg"');
      }
    },
  );

  it(
    'shows nothing a payer need not see: no metadata, customer data, ' + "provider refs, ids or the merchant's e-mail",
    async () => {
      const m = await newMerchant(t.app);
      const op = await liveQr(m, 3_000, 'Чай');
      // Faking the provider: what its answers and the merchant's metadata put on the row.
      await db().query(
        `UPDATE operations SET metadata = '{"order_secret":"meta-secret-42"}', phone = '+77019998877', ` +
          `sender_name = 'Секретов Иван',
              transaction_id = 'txn-secret-9', raw_provider_status = 'RawSecret' WHERE id = $1`,
        [op.operation_id],
      );
      const { clientId } = await idsOf(db(), m);
      for (const url of [`/pay/${op.operation_id}`, `/pay/${op.operation_id}/status`]) {
        const body = (await api(t.app).page(url)).body;
        for (const secret of [
          'meta-secret-42',
          'order_secret',
          '7019998877',
          'Секретов',
          'txn-secret-9',
          'RawSecret',
          op.provider_ref,
          m.email,
          m.liveKey,
        ]) {
          expect(body, `${url} ${secret}`).not.toContain(secret);
        }
        expect(body).not.toMatch(new RegExp(`client[_-]?id|"${clientId}"`));
      }
      expect(Object.keys((await api(t.app).get(`/pay/${op.operation_id}/status`)).body).sort()).toEqual([
        'check_url',
        'expires_at',
        'paid_at',
        'status',
      ]);
    },
  );

  it('speaks ru by default, kk and en by ?lang= or Accept-Language, with a language switcher', async () => {
    const m = await newMerchant(t.app);
    const qr = await createQr(t.app, m.testKey);
    const url = `/pay/${qr.operation_id}`;
    expect((await api(t.app).page(url)).body).toContain('<html lang="ru">');
    const kk = (await api(t.app).page(`${url}?lang=kk`)).body;
    expect(kk).toContain('<html lang="kk">');
    expect(kk).toContain('Төлем қосымшасында ашу');
    expect(kk).toContain(`<a href="${url}?lang=kk" lang="kk" aria-current="true">KK</a>`);
    expect(kk).toContain(`<a href="${url}?lang=en" lang="en">EN</a>`);
    const en = (await api(t.app).page(url, { headers: { 'accept-language': 'en-US,en;q=0.9' } })).body;
    expect(en).toContain('<html lang="en">');
    expect(en).toContain('Waiting for payment');
    expect(en).toContain('TEST MODE');
    expect(
      (await api(t.app).page(`${url}?lang=de`, { headers: { 'accept-language': 'de, kk;q=0.5' } })).body,
    ).toContain('<html lang="kk">');
    // Never the provider's name: "the payment app".
    for (const lang of ['ru', 'kk', 'en'])
      expect((await api(t.app).page(`${url}?lang=${lang}`)).body).not.toMatch(/kaspi/i);
  });

  it('settled states: paid (a large paid panel, no QR), expired and declined say so', async () => {
    const m = await newMerchant(t.app);
    const paid = await createQr(t.app, m.testKey);
    await pay(t.app, m.testKey, paid.operation_id, { sender_name: 'Айгерим С.' });
    const p = (await api(t.app).page(`/pay/${paid.operation_id}`)).body;
    expect(p).toContain('data-state="paid"');
    expect(p).toMatch(
      /<section class="panel state big-state" id="panel-paid" data-say="Оплачено" aria-labelledby="title-paid">/,
    );
    expect(p).toContain('<h2 id="title-paid">Оплата получена</h2>');
    expect(p).toContain('<span id="status-text">Оплачено</span>');
    expect(p).not.toContain('qr-svg');
    expect(p).not.toContain('Айгерим');
    expect(p).toMatch(/id="panel-expired"[^>]* hidden>/);

    const expired = await createQr(t.app, m.testKey);
    await t.app.inject({
      method: 'POST',
      url: `/v2/test/payments/${expired.operation_id}/expire`,
      headers: key(m.testKey),
      payload: {},
    });
    const e = (await api(t.app).page(`/pay/${expired.operation_id}?lang=en`)).body;
    expect(e).toContain('data-state="expired"');
    expect(e).toMatch(/id="panel-expired"[^>]*aria-labelledby="title-expired">/);
    expect(e).toContain('The QR code has expired');
    expect(e).not.toContain('qr-svg');

    const declined = await createQr(t.app, m.testKey);
    await t.app.inject({
      method: 'POST',
      url: `/v2/test/payments/${declined.operation_id}/decline`,
      headers: key(m.testKey),
      payload: {},
    });
    const d = (await api(t.app).page(`/pay/${declined.operation_id}?lang=en`)).body;
    expect(d).toContain('data-state="declined"');
    expect(d).toContain('<span id="status-text">The payment was declined</span>');
  });

  it('404 as the checkout-style page: an unknown id, other shapes, an invoice without a QR', async () => {
    const m = await newMerchant(t.app);
    const inv = await t.app.inject({
      method: 'POST',
      url: '/v2/invoices',
      headers: { ...key(m.testKey), ...idem() },
      payload: { phone: '+77012345678', amount: 100 },
    });
    expect(inv.statusCode).toBe(201);
    const ids = [
      newId('op'),
      'op_123',
      'abc',
      newId('rf'),
      `${newId('op')}x`,
      encodeURIComponent("op_' OR 1=1 --"),
      inv.json().operation_id,
    ];
    for (const id of ids) {
      const res = await api(t.app).page(`/pay/${id}?lang=en`);
      expect(res.status, id).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(CSP);
      expect(res.body).toContain('Payment not found');
      expect(res.body).toContain('<a href="?lang=ru" lang="ru">RU</a>');
      const status = await api(t.app).get(`/pay/${id}/status`);
      expect(status.status, id).toBe(404);
      expect(errorOf(status).code).toBe('payment_not_found');
    }
    expect((await api(t.app).page(`/pay/${newId('op')}`)).body).toContain('Платёж не найден');
  });
});

describe('GET /pay/{op_id}/status', () => {
  it('follows the payment: created, then paid with paid_at, never cached', async () => {
    const m = await newMerchant(t.app);
    const qr = await createQr(t.app, m.testKey);
    const before = await api(t.app).get(`/pay/${qr.operation_id}/status`);
    expect(before.status).toBe(200);
    expect(before.headers['cache-control']).toBe('no-store');
    expect(before.body).toEqual({ status: 'created', paid_at: null, expires_at: qr.expires_at, check_url: null });
    await pay(t.app, m.testKey, qr.operation_id);
    const after = (await api(t.app).get(`/pay/${qr.operation_id}/status`)).body;
    expect(after.status).toBe('paid');
    expect(after.paid_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(after.expires_at).toBe(qr.expires_at);
  });

  it('is documented in /openapi.json as a public read with its response schema', async () => {
    const doc = (await api(t.app).page('/openapi.json')).raw.json();
    const op = doc.paths['/pay/{op_id}/status'].get;
    expect(op.security).toEqual([]);
    expect(op.responses['200']).toBeDefined();
    expect(op.responses['404']).toBeDefined();
    expect(doc.paths['/pay/{op_id}/refunds/{refund_id}/status'].get.responses['200']).toBeDefined();
    // The pages and their files are not API operations.
    expect(doc.paths['/pay/{op_id}']).toBeUndefined();
    expect(doc.paths['/pay/assets/payer.js']).toBeUndefined();
  });

  it("is rate-limited like the checkout's public reads", async () => {
    const limited = await buildTestApp({ rateLimits: { ...t.config.rateLimits, checkout_status: 2, checkout_get: 2 } });
    try {
      const m = await newMerchant(limited.app);
      const qr = await createQr(limited.app, m.testKey);
      const codes = [];
      for (let i = 0; i < 3; i++)
        codes.push((await limited.app.inject({ method: 'GET', url: `/pay/${qr.operation_id}/status` })).statusCode);
      expect(codes).toEqual([200, 200, 429]);
      const pages = [];
      for (let i = 0; i < 3; i++)
        pages.push(await limited.app.inject({ method: 'GET', url: `/pay/${qr.operation_id}?lang=en` }));
      expect(pages.map((r) => r.statusCode)).toEqual([200, 200, 429]);
      expect(pages[2].headers['content-type']).toBe('text/html; charset=utf-8');
      expect(pages[2].body).toContain('Too many requests');
      // Per page and address: another payer's page behind the same address has its own allowance.
      const other = await createQr(limited.app, m.testKey);
      expect((await limited.app.inject({ method: 'GET', url: `/pay/${other.operation_id}/status` })).statusCode).toBe(
        200,
      );
    } finally {
      await limited.close();
    }
  });
});

describe('GET /pay/{op_id}/refunds/{refund_id}', () => {
  it(
    'the return QR: branding, "refund of N for the payment of M", the ' + 'QR, its expiry and status; then completed',
    async () => {
      const m = await newMerchant(t.app);
      await t.app.inject({
        method: 'PATCH',
        url: '/me/branding',
        headers: bearer(m),
        payload: { display_name: 'Alma Coffee', brand_color: '#0E7C66' },
      });
      const op = await liveQr(m, 12_000);
      await payAtProvider(t, op.operation_id);
      const rf = await returnRefund(op.operation_id, 2_000);
      const url = `/pay/${op.operation_id}/refunds/${rf}` as const;
      const res = await api(t.app).page(url);
      expect(res.status).toBe(200);
      expect(res.headers['content-security-policy']).toBe(CSP);
      const html = res.body;
      expect(html).toContain('<p class="merchant-name" id="merchant-name">Alma Coffee</p>');
      expect(html).toContain('<span class="amount" id="amount">2 000 ₸</span>');
      expect(html).toContain('Возврат 2 000 ₸ за оплату 12 000 ₸');
      expect(html).toMatch(/<svg role="img" aria-label="QR-код возврата 2 000 ₸" class="qr-svg"/);
      expect(html).toMatch(/<time id="countdown" datetime="[^"]+">10 мин<\/time>/);
      expect(html).toContain('data-kind="refund" data-state="waiting"');
      expect(html).toContain(`data-poll="${url}/status"`);
      expect(html).not.toContain('app-link');
      expect(html).not.toContain('test-banner');
      for (const secret of ['rf-provider-ref-secret', 'ret-qr-id-secret', op.provider_ref])
        expect(html).not.toContain(secret);
      const en = (await api(t.app).page(`${url}?lang=en`)).body;
      expect(en).toContain('Refund of 2 000 ₸ for the payment of 12 000 ₸');
      expect(en).toContain(`<a href="${url}?lang=kk" lang="kk">KK</a>`);

      const status = await api(t.app).get(`${url}/status`);
      expect(status.headers['cache-control']).toBe('no-store');
      expect(status.body).toEqual({
        status: 'pending',
        return_status: 'QrTokenCreated',
        expires_at: expect.stringMatching(/Z$/),
      });

      // Faking the provider: the payer scanned the return QR.
      await db().query(`UPDATE refunds SET status = 'completed', return_status = 'Success' WHERE id = $1`, [rf]);
      expect((await api(t.app).get(`${url}/status`)).body).toMatchObject({
        status: 'completed',
        return_status: 'Success',
      });
      const done = (await api(t.app).page(`${url}?lang=en`)).body;
      expect(done).toContain('data-state="completed"');
      expect(done).toContain('<h2 id="title-completed">Money returned</h2>');
      expect(done).not.toContain('qr-svg');
      // Faking the provider: the return failed.
      await db().query(`UPDATE refunds SET status = 'failed' WHERE id = $1`, [rf]);
      expect((await api(t.app).page(url)).body).toContain('<span id="status-text">Возврат не выполнен</span>');
    },
  );

  it("a test operation's refund page carries the test banner", async () => {
    const m = await newMerchant(t.app);
    const qr = await createQr(t.app, m.testKey, 4_000);
    await pay(t.app, m.testKey, qr.operation_id);
    const rf = await returnRefund(qr.operation_id, 4_000, { token: 'https://pay.example.kz/return/1' });
    const html = (await api(t.app).page(`/pay/${qr.operation_id}/refunds/${rf}`)).body;
    expect(html).toContain('id="test-banner"');
    expect(html).toContain('href="https://pay.example.kz/return/1"');
  });

  it('404 unless the refund is of that operation and has a return QR', async () => {
    const m = await newMerchant(t.app);
    const a = await createQr(t.app, m.testKey);
    const b = await createQr(t.app, m.testKey);
    await pay(t.app, m.testKey, a.operation_id);
    const withQr = await returnRefund(a.operation_id, 100);
    const withoutQr = await returnRefund(a.operation_id, 100, { token: null });
    const cases = [
      `/pay/${b.operation_id}/refunds/${withQr}`, // another operation's refund
      `/pay/${a.operation_id}/refunds/${withoutQr}`, // a refund without a return QR
      `/pay/${a.operation_id}/refunds/${newId('rf')}`, // unknown
      `/pay/${a.operation_id}/refunds/rf_123`, // malformed
      `/pay/${newId('op')}/refunds/${withQr}`,
    ] as const;
    for (const url of cases) {
      const page = await api(t.app).page(`${url}?lang=en`);
      expect(page.status, url).toBe(404);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('Refund not found');
      const status = await api(t.app).get(`${url}/status`);
      expect(status.status, url).toBe(404);
      expect(errorOf(status).code).toBe('not_found');
    }
    expect((await api(t.app).page(`/pay/${a.operation_id}/refunds/${withQr}`)).status).toBe(200);
  });
});
