// The hosted checkout in a real browser at phone width: QR, simulated payment, the paid panel and the
// redirect to success_url; the e-mail step; expiry and a new QR; merchant text that must stay text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, newMerchant, type Merchant } from '../helpers/factories.ts';
import { createLink } from '../links/helpers.ts';
import { issueReceipts, newRegister } from '../helpers/fiscal.ts';
import { accessible, shot, startHarness, type Harness } from './harness.ts';

let h: Harness;
let m: Merchant;
beforeAll(async () => {
  h = await startHarness();
  m = await newMerchant(h.t.app, { name: 'Кофейня «Алма»' });
  await h.t.app.inject({
    method: 'PATCH',
    url: '/me/branding',
    headers: bearer(m),
    payload: { display_name: 'Кофейня «Алма»', brand_color: '#0E7C66', support_email: 'help@alma.kz' },
  });
});
afterAll(() => h?.close());

describe('hosted checkout in Chromium', () => {
  it('test-mode link: QR, Simulate payment, paid, then the redirect to success_url?operation_id=', async () => {
    const link = await createLink(h.t.app, m.testKey, {
      amount: 5000,
      description: 'Капучино и круассан, заказ №42',
      success_url: `${h.shop}/thanks?order=42`,
      cancel_url: `${h.shop}/cart`,
    });
    const { page, context, problems } = await h.page();
    const res = await page.goto(`${h.base}/checkout/${link.token}`);
    expect(res?.status()).toBe(200);
    await expect(page.locator('svg.qr-svg').isVisible()).resolves.toBe(true);
    expect(await page.locator('#amount').textContent()).toBe('5 000 ₸');
    expect(await page.locator('#test-banner').isVisible()).toBe(true);
    expect(await page.locator('#merchant-name').textContent()).toBe('Кофейня «Алма»');
    // Fits a phone: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = await page.locator('.qr-box').boundingBox();
    expect(box!.width).toBeGreaterThan(200);
    await shot(page, 'checkout-qr-390');
    const op = await page.locator('#checkout').getAttribute('data-op');
    await page.getByRole('button', { name: 'Симулировать оплату' }).click();
    await page.locator('#panel-paid').waitFor({ state: 'visible' });
    expect(await page.locator('#paid-title').textContent()).toBe('Оплата получена');
    await shot(page, 'checkout-paid-390');
    await page.waitForURL(`${h.shop}/thanks?order=42&operation_id=${op}`, { timeout: 10_000 });
    expect(await page.locator('#thanks').textContent()).toBe('Thanks');
    expect(problems).toEqual([]);
    const api = await h.t.app.inject({
      method: 'GET',
      url: `/v2/payment-links/${link.token}`,
      headers: { 'x-api-key': m.testKey },
    });
    expect(api.json()).toMatchObject({ status: 'paid', paid_count: 1 });
    await context.close();
  });

  it('email_required: the e-mail step first (with a readable error), then the QR, in English', async () => {
    const link = await createLink(h.t.app, m.testKey, {
      amount: 12_500,
      description: 'Annual membership',
      email_required: true,
      success_url: `${h.shop}/done`,
    });
    const { page, context, problems } = await h.page();
    // The page's own form posts carry its Origin, not `null` (Referrer-Policy same-origin): what the CSRF
    // check of browsers without Sec-Fetch-Site relies on.
    const origins: string[] = [];
    page.on('request', async (r) => {
      if (r.method() === 'POST') origins.push((await r.allHeaders()).origin ?? 'none');
    });
    await page.goto(`${h.base}/checkout/${link.token}?lang=en`);
    expect(await page.locator('svg.qr-svg').count()).toBe(0);
    await page.getByLabel('E-mail').fill('not-an-email');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.locator('#email-error').waitFor({ state: 'visible' });
    await shot(page, 'checkout-email-error-390');
    await page.getByLabel('E-mail').fill('payer@example.kz');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.locator('svg.qr-svg').waitFor({ state: 'visible' });
    expect(await page.locator('#amount').textContent()).toBe('12 500 ₸');
    await shot(page, 'checkout-email-qr-390');
    const op = await page.locator('#checkout').getAttribute('data-op');
    await page.getByRole('button', { name: 'Simulate payment' }).click();
    await page.waitForURL(`${h.shop}/done?operation_id=${op}`, { timeout: 10_000 });
    const paid = await h.t.app.inject({
      method: 'GET',
      url: '/v2/events?type=payment_link.paid',
      headers: { 'x-api-key': m.testKey },
    });
    expect(paid.json().data[0].data).toMatchObject({ operation_id: op, email: 'payer@example.kz' });
    expect(origins.length).toBeGreaterThanOrEqual(3);
    expect(new Set(origins)).toEqual(new Set([h.base]));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an expired QR turns into "new QR", which brings a fresh one (360 px, Kazakh)', async () => {
    const link = await createLink(h.t.app, m.testKey, { amount: 990, description: 'Тест' });
    const { page, context, problems } = await h.page(360);
    await page.goto(`${h.base}/checkout/${link.token}?lang=kk`);
    const op = await page.locator('#checkout').getAttribute('data-op');
    await h.t.runtime.deps.db.query(`UPDATE operations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      op,
    ]);
    await page.locator('#panel-expired').waitFor({ state: 'visible', timeout: 10_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'checkout-expired-360-kk');
    await page.getByRole('button', { name: 'Жаңа QR-код' }).click();
    await page.locator('#panel-qr').waitFor({ state: 'visible' });
    const fresh = await page.locator('#checkout').getAttribute('data-op');
    expect(fresh).toMatch(/^op_/);
    expect(fresh).not.toBe(op);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a display name with <script> is shown as text and never runs', async () => {
    const evil = await newMerchant(h.t.app);
    const name = '<script>window.__xss=1</script>';
    await h.t.app.inject({
      method: 'PATCH',
      url: '/me/branding',
      headers: bearer(evil),
      payload: { display_name: name },
    });
    const link = await createLink(h.t.app, evil.testKey, {
      description: `${name}<img src=x onerror="window.__xss=2">`,
    });
    const { page, context } = await h.page();
    await page.goto(`${h.base}/checkout/${link.token}`);
    await page.locator('svg.qr-svg').waitFor({ state: 'visible' });
    expect(await page.locator('#merchant-name').textContent()).toBe(name);
    expect(await page.locator('#description').textContent()).toBe(`${name}<img src=x onerror="window.__xss=2">`);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('#checkout img').count()).toBe(0);
    await shot(page, 'checkout-xss-390');
    await context.close();
  });

  it('paid without a shop to return to: the receipt link appears without a reload once issued', async () => {
    const seller = await newMerchant(h.t.app, { name: 'Книжная лавка' });
    await newRegister(h.t, seller);
    const link = await createLink(h.t.app, seller.testKey, { amount: 3_000, description: 'Книга' });
    const { page, context, problems } = await h.page();
    await page.goto(`${h.base}/checkout/${link.token}?lang=en`);
    await page.getByRole('button', { name: 'Simulate payment' }).click();
    await page.locator('#panel-paid').waitFor({ state: 'visible' });
    const receipt = page.getByRole('link', { name: 'Check the receipt' });
    expect(await receipt.isVisible()).toBe(false);
    await issueReceipts(h.t);
    await receipt.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await receipt.getAttribute('href')).toContain('/fiscal/check?');
    await accessible(page, 'checkout paid with its receipt');
    await shot(page, 'checkout-receipt-390');
    expect(problems).toEqual([]);
    await context.close();
  });
});
