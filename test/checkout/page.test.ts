// The hosted page GET /checkout/{token}: headers (CSP), escaping of merchant text, the QR without
// JavaScript, the plain-form flows (e-mail, new QR, simulated payment), languages, state pages, assets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, key, newMerchant } from '../helpers/factories.ts';
import { connectLive, payAtProvider } from '../helpers/payments.ts';
import { Browser, createLink, expireLinkClock } from '../links/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src " +
  "'self' https: data:; connect-src 'self'; form-action 'self'; frame-ancestors " +
  "'none'; base-uri 'none'";

describe('GET /checkout/{token}', () => {
  it('is UTF-8 HTML with the CSP, the QR as inline SVG, the amount, and no inline script or style', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, {
      amount: 1_250_000,
      description: 'Оплата заказа №42 — Қазақша мәтін',
    });
    const res = await new Browser(t.app).get(`/checkout/${link.token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // No referrer to other origins (the logo host, the shop); our own form posts carry the page's Origin.
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.body).toContain('<meta name="referrer" content="same-origin">');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']).toMatch(/^tolem_cv=/);
    const html = res.body;
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('1 250 000 ₸');
    expect(html).toContain('Оплата заказа №42 — Қазақша мәтін');
    expect(html).toMatch(/<div class="qr-box"><svg [^>]*class="qr-svg"/);
    expect(html).toContain('<script src="/checkout/assets/checkout.js?v=');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<script>|<style|style="|\son[a-z]+=/);
    expect(html).toContain('id="test-banner"');
    expect(html).toContain('action="/checkout/' + link.token + '/simulate"');
  });

  it('escapes merchant text: display name and description with <script> are text', async () => {
    const m = await newMerchant(t.app);
    const evil = '<script>window.__xss=1</script>';
    await t.app.inject({
      method: 'PATCH',
      url: '/me/branding',
      headers: bearer(m),
      payload: { display_name: `Shop ${evil}"'&` },
    });
    const link = await createLink(t.app, m.testKey, { description: `Описание ${evil}<img src=x onerror=alert(1)>` });
    const html = (await new Browser(t.app).get(`/checkout/${link.token}`)).body;
    expect(html).not.toContain('<script>window');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('Shop &lt;script&gt;window.__xss=1&lt;/script&gt;&quot;&#39;&amp;');
    expect(html).toContain('Описание &lt;script&gt;window.__xss=1&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<title>Оплата · Shop &lt;script&gt;');
  });

  it(
    'live links have no TEST banner and no simulate button; branding ' + 'shows (logo, colour, support e-mail)',
    async () => {
      const m = await newMerchant(t.app);
      await connectLive(t, m);
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
      const link = await createLink(t.app, m.liveKey, { cancel_url: 'https://alma.kz/cart' });
      const html = (await new Browser(t.app).get(`/checkout/${link.token}`)).body;
      expect(html).not.toContain('test-banner');
      expect(html).not.toContain('/simulate');
      expect(html).toContain('src="https://cdn.alma.kz/logo.png"');
      expect(html).toContain('href="/checkout/assets/theme.css?c=FFD400"');
      expect(html).toContain('mailto:help@alma.kz');
      expect(html).toContain('href="https://alma.kz/cart"');
      expect(html).not.toContain(m.email);
      const css = await t.app.inject({ method: 'GET', url: '/checkout/assets/theme.css?c=FFD400' });
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(css.body).toBe(':root{--brand:#FFD400;--brand-ink:#111827}\n');
      expect((await t.app.inject({ method: 'GET', url: '/checkout/assets/theme.css?c=zz;}body{' })).statusCode).toBe(
        400,
      );
      expect((await t.app.inject({ method: 'GET', url: '/checkout/assets/theme.css?c=xyz' })).body).toContain(
        '--brand:#1F5EFF',
      );
    },
  );

  it('link previews (messenger bots, HEAD) get the summary and Open Graph tags but create no payment', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { description: 'Торт "Наполеон" <3' });
    const bot = await t.app.inject({
      method: 'GET',
      url: `/checkout/${link.token}`,
      headers: { 'user-agent': 'TelegramBot (like TwitterBot)' },
    });
    expect(bot.statusCode).toBe(200);
    expect(bot.body).toContain('<meta property="og:description" content="5 000 ₸ · Торт &quot;Наполеон&quot; &lt;3">');
    expect(bot.body).not.toContain('qr-box');
    expect((await t.app.inject({ method: 'HEAD', url: `/checkout/${link.token}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.testKey) })).json().data).toEqual(
      [],
    );
  });

  it('speaks ru by default, kk and en by ?lang= or Accept-Language', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey);
    const b = new Browser(t.app);
    expect((await b.get(`/checkout/${link.token}`)).body).toContain('<html lang="ru">');
    const kk = (await b.get(`/checkout/${link.token}?lang=kk`)).body;
    expect(kk).toContain('<html lang="kk">');
    expect(kk).toContain('СЫНАҚ РЕЖИМІ');
    expect(kk).toContain(`href="/checkout/${link.token}?lang=en"`);
    expect((await b.get(`/checkout/${link.token}?lang=en`)).body).toContain('Simulate payment');
    expect((await b.get(`/checkout/${link.token}`, { 'accept-language': 'en-US,en;q=0.9' })).body).toContain(
      '<html lang="en">',
    );
    expect((await b.get(`/checkout/${link.token}?lang=de`, { 'accept-language': 'de, kk;q=0.5' })).body).toContain(
      '<html lang="kk">',
    );
  });

  it('state pages: 404 unknown, 409 expired/cancelled/paid, in HTML with the same CSP', async () => {
    const m = await newMerchant(t.app);
    const missing = await t.app.inject({ method: 'GET', url: `/checkout/${'Z'.repeat(24)}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(missing.headers['content-security-policy']).toBe(CSP);
    expect(missing.body).toContain('Ссылка не найдена');
    const expired = await createLink(t.app, m.testKey);
    await expireLinkClock(t, expired.token);
    const e = await t.app.inject({ method: 'GET', url: `/checkout/${expired.token}?lang=en` });
    expect(e.statusCode).toBe(409);
    expect(e.body).toContain('This link is no longer active');
    const paid = await createLink(t.app, m.testKey);
    const payer = new Browser(t.app);
    await payer.get(`/checkout/${paid.token}`);
    await payer.form(`/checkout/${paid.token}/simulate`, { lang: 'en' });
    const stranger = await new Browser(t.app).get(`/checkout/${paid.token}?lang=en`);
    expect(stranger.statusCode).toBe(409);
    expect(stranger.body).toContain('This link has already been paid');
    // The payer who paid sees the receipt instead.
    const own = await payer.get(`/checkout/${paid.token}?lang=en`);
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain('Payment received');
  });
});

describe('without JavaScript: plain forms, post/redirect/get', () => {
  it("a form posted from another site is refused (CSRF); the page's own posts go through", async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { email_required: true });
    const payer = new Browser(t.app);
    await payer.get(`/checkout/${link.token}?lang=en`);
    const send = (headers: Record<string, string>) =>
      payer.request({
        method: 'POST',
        url: `/checkout/${link.token}/email`,
        payload: 'email=evil%40example.kz',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
    // Origin `null` (sandboxed frames, data: documents) is foreign too: the page's own posts carry its origin.
    const foreign: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ];
    for (const headers of foreign) {
      const res = await send(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    const stored = await t.runtime.deps.db.query('SELECT 1 FROM checkout_visitors WHERE link_token = $1', [link.token]);
    expect(stored.rows).toHaveLength(0);
    const own: Record<string, string>[] = [{ 'sec-fetch-site': 'same-origin' }, { origin: t.config.publicBaseUrl }, {}];
    for (const headers of own) {
      expect((await send(headers)).statusCode, JSON.stringify(headers)).toBe(303);
    }
  });

  it(
    'a receipt (and its redirect to success_url) is only for the payer: ' + "another visitor's ?op= is not one",
    async () => {
      const m = await newMerchant(t.app);
      const link = await createLink(t.app, m.testKey, { success_url: 'https://shop.kz/ok' });
      const payer = new Browser(t.app);
      await payer.get(`/checkout/${link.token}?lang=en`);
      const sim = await payer.form(`/checkout/${link.token}/simulate`, { lang: 'en' });
      const receipt = sim.headers.location as string;
      expect(receipt).toMatch(/[?&]op=op_/);
      expect((await payer.get(receipt)).body).toContain('Payment received');
      const stranger = await new Browser(t.app).get(receipt);
      expect(stranger.statusCode).toBe(409);
      expect(stranger.body).not.toContain('https://shop.kz/ok');
    },
  );

  it('a form route posted JSON of other shapes answers its page, never a 500', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { email_required: true });
    const payer = new Browser(t.app);
    await payer.get(`/checkout/${link.token}?lang=en`);
    for (const payload of [{ email: 5 }, {}, { email: ['a@b.kz'] }, { lang: 7, email: true }]) {
      const res = await payer.post(`/checkout/${link.token}/email`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
  });

  it("a payer who paid in the app and reloads in the QR's last minute sees the receipt, not a new QR", async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey);
    const payer = new Browser(t.app);
    expect((await payer.get(`/checkout/${link.token}?lang=en`)).statusCode).toBe(200);
    const opId = (
      await t.runtime.deps.db.query<{ id: string }>('SELECT id FROM operations WHERE link_token = $1', [link.token])
    ).rows[0].id;
    await payAtProvider(t, opId);
    // With under a minute left, a reload would otherwise replace the QR with a fresh one.
    await t.runtime.deps.db.query(`UPDATE operations SET expires_at = now() + interval '30 seconds' WHERE id = $1`, [
      opId,
    ]);
    const again = await payer.get(`/checkout/${link.token}?lang=en`);
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('Payment received');
    const ops = await t.runtime.deps.db.query<{ status: string }>(
      'SELECT status FROM operations WHERE link_token = $1',
      [link.token],
    );
    expect(ops.rows).toEqual([{ status: 'paid' }]);
  });

  it('e-mail step, then the QR; a bad e-mail re-renders the form with an error', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { email_required: true });
    const payer = new Browser(t.app);
    const first = (await payer.get(`/checkout/${link.token}?lang=en`)).body;
    expect(first).toContain(`action="/checkout/${link.token}/email"`);
    expect(first).not.toContain('qr-box');
    const bad = await payer.form(`/checkout/${link.token}/email`, { email: 'nope<b>', lang: 'en' });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(bad.body).toContain('id="email-error"');
    expect(bad.body).toContain('value="nope&lt;b&gt;"');
    const ok = await payer.form(`/checkout/${link.token}/email`, { email: 'payer@example.kz', lang: 'en' });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe(`/checkout/${link.token}?lang=en`);
    const page = (await payer.get(ok.headers.location as string)).body;
    expect(page).toContain('qr-box');
  });

  it('simulate (test mode) then the paid page; new QR; a live link refuses the simulate form', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { allow_repeat: true, success_url: 'https://shop.kz/thanks?a=1' });
    const payer = new Browser(t.app);
    const op = /data-op="(op_[0-9A-Z]+)"/.exec((await payer.get(`/checkout/${link.token}`)).body)![1];
    const refreshed = await payer.form(`/checkout/${link.token}/refresh`, { lang: 'ru' });
    expect(refreshed.statusCode).toBe(303);
    const op2 = /data-op="(op_[0-9A-Z]+)"/.exec((await payer.get(`/checkout/${link.token}`)).body)![1];
    expect(op2).not.toBe(op);
    const sim = await payer.form(`/checkout/${link.token}/simulate`, { operation_id: op2, lang: 'ru' });
    expect(sim.statusCode).toBe(303);
    expect(sim.headers.location).toBe(`/checkout/${link.token}?lang=ru&op=${op2}`);
    const paid = (await payer.get(sim.headers.location as string)).body;
    expect(paid).toContain('Оплата получена');
    expect(paid).toContain('data-state="paid"');
    expect(paid).toContain(`href="https://shop.kz/thanks?a=1&amp;operation_id=${op2}"`);
    expect(paid).toContain('Оплатить ещё раз');
    const status = (
      await t.app.inject({ method: 'GET', url: `/v2/payment-links/${link.token}`, headers: key(m.testKey) })
    ).json();
    expect(status).toMatchObject({ status: 'active', paid_count: 1 });
    await connectLive(t, m);
    const live = await createLink(t.app, m.liveKey);
    const lp = new Browser(t.app);
    await lp.get(`/checkout/${live.token}`);
    const refused = await lp.form(`/checkout/${live.token}/simulate`, { lang: 'en' });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});

describe('assets', () => {
  it('serves the script and the stylesheet from our origin, cacheable', async () => {
    const js = await t.app.inject({ method: 'GET', url: '/checkout/assets/checkout.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toContain('max-age');
    expect(js.body).toContain('/status?op=');
    const css = await t.app.inject({ method: 'GET', url: '/checkout/assets/checkout.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('.qr-box');
  });
});
