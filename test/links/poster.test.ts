// GET /v2/payment-links/{token}/poster.pdf: a one-page PDF of the size asked, with the merchant's name, the call
// to scan in three languages, the amount and the description, whose QR is the link's checkout page (its squares
// read back from the page and compared with that address's QR); refusals for a one-payment link, an inactive
// link, a bad size, a role without links.read and another tenant's link.
import { inflateSync } from 'node:zlib';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { errorOf, newMerchant } from '../helpers/factories.ts';
import { fetchLogo } from '../../src/domain/branding/logo.ts';
import { POSTER_SIZES, renderPoster } from '../../src/web/poster-pdf.ts';
import { createLink } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function textOf(pdf: Buffer): Promise<string> {
  const { PDFParse } = await import('pdf-parse');
  return (await new PDFParse({ data: new Uint8Array(pdf) }).getText()).text.replace(/\s+/g, ' ');
}

const mediaBox = (pdf: Buffer) =>
  [...pdf.toString('latin1').matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((m) => [+m[1], +m[2]]);

/**
 * The QR as drawn: the page's equal-sided squares of the most frequent side are its dark modules; the top-left
 * one is module (0, 0) (a finder pattern's corner is always dark). Returns rows of 0/1.
 */
function drawnQr(pdf: Buffer): number[][] {
  const raw = pdf.toString('latin1');
  const squares: number[][] = [];
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const r of content.matchAll(/(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re/g)) {
      if (r[3] === r[4]) squares.push([+r[1], +r[2], +r[3]]);
    }
  }
  const counts = new Map<number, number>();
  for (const s of squares) counts.set(s[2], (counts.get(s[2]) ?? 0) + 1);
  const cell = [...counts].sort((a, b) => b[1] - a[1])[0][0];
  const cells = squares.filter((s) => s[2] === cell);
  const x0 = Math.min(...cells.map((s) => s[0]));
  const y0 = Math.min(...cells.map((s) => s[1]));
  const at = cells.map(([x, y]) => [Math.round((y - y0) / cell), Math.round((x - x0) / cell)]);
  const n = Math.max(...at.map((a) => Math.max(a[0], a[1]))) + 1;
  const grid = Array.from({ length: n }, () => Array<number>(n).fill(0));
  for (const [r, c] of at) grid[r][c] = 1;
  return grid;
}

function expectedQr(text: string): number[][] {
  const q = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = q.modules.size;
  return Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => (q.modules.get(r, c) ? 1 : 0)));
}

describe('GET /v2/payment-links/{token}/poster.pdf', () => {
  it("prints a repeatable link's QR, amount, words and branding on A4, A5 and A6", async () => {
    const m = await newMerchant(t.app, { name: 'Кофейня Алма' });
    const branded = await api(t.app, m).patch('/me/branding', {
      body: { display_name: 'Кофейня «Алма»', brand_color: '#7A1F5C' },
    });
    expect(branded.status).toBe(200);
    const link = await createLink(t.app, m.testKey, {
      amount: 12_500,
      description: 'Капучино и круассан',
      allow_repeat: true,
    });
    for (const size of ['a4', 'a5', 'a6'] as const) {
      const query = size === 'a4' ? '' : `?size=${size}`;
      const res = await api(t.app, { apiKey: m.testKey }).get(`/v2/payment-links/${link.token}/poster.pdf${query}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const pdf = res.raw.rawPayload;
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(mediaBox(pdf)).toEqual([[...POSTER_SIZES[size]]]);
      const text = await textOf(pdf);
      for (const words of [
        'Кофейня «Алма»',
        'Сканируйте, чтобы оплатить',
        'Төлеу үшін сканерлеңіз',
        'Scan to pay',
        '12 500 ₸',
        'Капучино и круассан',
        link.url,
      ]) {
        expect(text).toContain(words);
      }
      // The checkout page, not one payment's QR token: the poster stays payable for every scan.
      expect(drawnQr(pdf)).toEqual(expectedQr(link.url));
      if (process.env.POSTER_SAMPLE_DIR) {
        const { writeFileSync } = await import('node:fs');
        writeFileSync(`${process.env.POSTER_SAMPLE_DIR}/poster-${size}.pdf`, pdf);
      }
    }
  });

  it('takes a JWT with ?mode=test ', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { allow_repeat: true });
    expect((await api(t.app, m).get(`/v2/payment-links/${link.token}/poster.pdf?mode=test&size=a6`)).status).toBe(200);
    // The link is a test-mode link: live mode does not know it.
    expect(errorOf(await api(t.app, m).get(`/v2/payment-links/${link.token}/poster.pdf`)).code).toBe(
      'payment_link_not_found',
    );
  });

  it('refuses a one-payment link (409), an inactive link (409), a bad size (400), another tenant (404)', async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    const once = await createLink(t.app, m.testKey);
    const as = api(t.app, { apiKey: m.testKey });
    const r1 = await as.get(`/v2/payment-links/${once.token}/poster.pdf`);
    expect(r1.status).toBe(409);
    expect(errorOf(r1).code).toBe('payment_link_not_repeatable');
    const repeat = await createLink(t.app, m.testKey, { allow_repeat: true });
    const bad = await as.get(`/v2/payment-links/${repeat.token}/poster.pdf?size=a3`);
    expect(bad.status).toBe(400);
    expect(errorOf(bad).code).toBe('invalid_parameter');
    const foreign = await api(t.app, { apiKey: other.testKey }).get(`/v2/payment-links/${repeat.token}/poster.pdf`);
    expect(foreign.status).toBe(404);
    expect(errorOf(foreign).code).toBe('payment_link_not_found');
    expect((await as.post(`/v2/payment-links/${repeat.token}/cancel`, { body: {} })).status).toBe(200);
    const cancelled = await as.get(`/v2/payment-links/${repeat.token}/poster.pdf`);
    expect(cancelled.status).toBe(409);
    expect(errorOf(cancelled).code).toBe('payment_link_not_active');
  });
});

describe('the poster renderer and its logo', () => {
  it('embeds a PNG logo and prints without one', async () => {
    const logo = await QRCode.toBuffer('logo', { type: 'png' });
    const view = {
      size: 'a5' as const,
      merchantName: 'Shop',
      brandColor: '#FFD400',
      amount: 1,
      description: 'x',
      url: 'https://pay.example/checkout/abc',
      createdAt: new Date(0),
    };
    const withLogo = (await renderPoster({ ...view, logo })).toString('latin1');
    const without = (await renderPoster({ ...view, logo: null })).toString('latin1');
    expect(withLogo).toMatch(/\/Subtype \/Image/);
    expect(without).not.toMatch(/\/Subtype \/Image/);
  });

  it('fetches no logo from a private address, over http, or from nothing', async () => {
    expect(await fetchLogo('https://127.0.0.1:9/logo.png', false)).toBeNull();
    expect(await fetchLogo('http://example.com/logo.png', true)).toBeNull();
    expect(await fetchLogo(null, false)).toBeNull();
  });
});
