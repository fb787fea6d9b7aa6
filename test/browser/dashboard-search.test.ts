// Finding a payment in the dashboard (issue 41, item 9), in Chromium at 390 and 1280 px: a text search that
// finds more than a page (100, then "show more"), kept in the URL across a reload; an amount with a phone's
// last digits, opening the payment with its buyer and its refunds; an Almaty day; a wrong field said before
// anything is asked; the CSV of the search as a Russian-locale spreadsheet takes it. axe-core on each screen.
import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { accessible, startHarness, SCREENSHOTS, type Harness } from './harness.ts';
import { api } from '../helpers/api.ts';
import { idem, newMerchant, type Merchant } from '../helpers/factories.ts';

const SHOTS = `${SCREENSHOTS}/dashboard`;
let h: Harness;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  h = await startHarness();
});
afterAll(() => h?.close());

/** The shop's test payments: 105 of a batch, an invoice paid and partly refunded, a coffee of 10 January. */
async function shop(): Promise<{ m: Merchant; invoice: string; coffee: string; refundId: string }> {
  const m = await newMerchant(h.t.app);
  const c = api(h.t.app, { apiKey: m.testKey });
  const created = async (res: Promise<{ status: number; body: unknown; raw: { body: string } }>) => {
    const r = await res;
    if (r.status !== 201) throw new Error(`${r.status} ${r.raw.body}`);
    return (r.body as { operation_id: string }).operation_id;
  };
  for (let i = 1; i <= 105; i++)
    await created(c.post('/v2/qr', { body: { amount: 700, comment: `Партия ${i}` }, headers: idem() }));
  const coffee = await created(c.post('/v2/qr', { body: { amount: 1200, comment: 'Кофе' }, headers: idem() }));
  // Moving time: the coffee was bought at 15:00 on 10 January, Almaty time.
  await h.t.runtime.deps.db.query('UPDATE operations SET created_at = $2 WHERE id = $1', [
    coffee,
    new Date('2026-01-10T10:00:00Z'),
  ]);
  const invoice = await created(
    c.post('/v2/invoices', {
      body: { amount: 4500, phone: '+7 701 234 56 78', comment: 'Заказ 42' },
      headers: idem(),
    }),
  );
  const paid = await c.post(`/v2/test/payments/${invoice}/pay`, { body: { sender_name: 'Айгерим С.' } });
  expect(paid.status).toBe(200);
  const refund = await c.post('/v2/refunds', { body: { operation_id: invoice, amount: 1000 }, headers: idem() });
  expect(refund.status).toBe(201);
  return { m, invoice, coffee, refundId: refund.body.refund_id };
}

/** Waits for what a request brings: a loaded 2-core host may take seconds for a reload and its chunks. */
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 20_000 });

/** Submits the search form and waits for the list's answer to the query that names `part`. */
async function submit(page: Page, part: string): Promise<void> {
  await Promise.all([
    page.waitForResponse(
      (r) => r.url().includes('/me/payments?') && decodeURIComponent(r.url()).includes(part) && r.ok(),
    ),
    page.getByRole('search').getByRole('button', { name: 'Найти' }).click(),
  ]);
}

// Each found payment: a table row on a wide screen, a card on a phone (components/Rows.tsx marks both).
const rowsOf = (page: Page) => page.getByTestId('payments-table').getByTestId('row');

describe.each([390, 1280])('finding a payment at %i px', (width) => {
  it('text past a page, the URL, amount and phone to the payment, its buyer and refunds, a day, the CSV', async () => {
    const { m, invoice, coffee } = await shop();
    const { context, page, problems } = await h.page(width);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/me/payments?')) asked.push(decodeURIComponent(r.url()));
    });
    await page.goto(`${h.base}/dashboard/login`);
    await page.getByLabel('Эл. почта').fill(m.email);
    await page.getByLabel('Пароль').fill(m.password);
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByRole('heading', { name: 'Обзор' }).waitFor();
    await page.getByRole('switch', { name: 'Тестовые данные' }).check({ force: true });
    await page.getByTestId('test-banner').waitFor();
    if (width < 768) await page.getByRole('button', { name: 'Меню' }).click();
    await page.getByRole('navigation').getByRole('link', { name: 'Платежи', exact: true }).click();
    await poll(() => rowsOf(page).count()).toBe(100);
    const search = page.getByRole('search', { name: 'Поиск платежей' });
    await accessible(page, 'payments with the search form');

    // A text over comments: 105 found, 100 shown, then the rest.
    await search.getByLabel('Комментарий или номер операции').fill('ПАРТИЯ');
    await submit(page, 'q=ПАРТИЯ');
    await page.waitForURL(/q=%D0%9F%D0%90%D0%A0%D0%A2%D0%98%D0%AF/);
    // The first page of the search (the list before it had 98 of the batch among its 100).
    await poll(() => rowsOf(page).filter({ hasText: 'Партия' }).count()).toBe(100);
    expect(await page.getByTestId('payments-shown').textContent()).toBe('Показано: 100');
    expect(await rowsOf(page).count()).toBe(100);
    await page.getByRole('button', { name: 'Показать ещё' }).click();
    await poll(() => page.getByTestId('payments-shown').textContent()).toBe('Показано: 105');
    expect(await rowsOf(page).count()).toBe(105);
    expect(await page.getByRole('button', { name: 'Показать ещё' }).count()).toBe(0);
    expect(await rowsOf(page).filter({ hasText: 'Кофе' }).count()).toBe(0);
    await accessible(page, 'a search past a page');
    await page.screenshot({ path: `${SHOTS}/${width}-search-text.png`, fullPage: true });

    // The search is in the URL: a reload shows the same form and the same first page.
    await page.reload();
    await poll(() => rowsOf(page).filter({ hasText: 'Партия' }).count()).toBe(100);
    expect(await search.getByLabel('Комментарий или номер операции').inputValue()).toBe('ПАРТИЯ');

    // The CSV of this search, for a Russian-locale spreadsheet: BOM, `;`, the 105 rows and no other.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Выгрузить CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path())!);
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csv.subarray(3).toString('utf8').trim().split('\r\n');
    expect(lines[0].startsWith('operation_id;type;status;amount;')).toBe(true);
    expect(lines).toHaveLength(106);
    expect(lines.slice(1).every((l) => /;Партия \d+;/.test(l))).toBe(true);

    // A wrong field is said under it, and nothing is asked.
    await search.getByRole('button', { name: 'Сбросить' }).click();
    await page.waitForURL((u) => !u.search);
    await search.getByLabel('Телефон: последние 4–10 цифр').fill('12');
    await search.getByRole('button', { name: 'Найти' }).click();
    await search.getByText('Нужно от 4 до 10 последних цифр номера').waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(asked.filter((u) => u.includes('phone_last'))).toEqual([]);
    await accessible(page, 'a field with a problem');

    // An amount and a phone's last digits: the invoice, then its page with the buyer and the refund.
    await search.getByLabel('Телефон: последние 4–10 цифр').fill('56 78');
    await search.getByLabel('Сумма, ₸').fill('4500');
    await submit(page, 'amount=4500');
    await poll(() => rowsOf(page).count()).toBe(1);
    expect(asked.at(-1)).toContain('amount=4500');
    expect(asked.at(-1)).toContain('phone_last=5678');
    expect(await rowsOf(page).first().textContent()).toContain('4\u00a0500\u00a0₸');
    await rowsOf(page).first().getByRole('link', { name: invoice }).click();
    const buyer = page.getByTestId('payment-buyer');
    await poll(() => buyer.textContent()).toContain('+77012345678');
    expect(await buyer.textContent()).toContain('Айгерим С.');
    const refunds = page.getByTestId('refunds-table').getByTestId('row');
    await poll(() => refunds.count()).toBe(1);
    // The refund's amount, its status in words and its Almaty date (a row, or a card with labels on a phone).
    const refund = await refunds.first().textContent();
    expect(refund).toContain('1\u00a0000\u00a0₸');
    expect(refund).toContain('Возвращён');
    expect(refund).toMatch(/\d{2}\.\d{2}\.\d{4}/);
    await accessible(page, 'payment with its buyer and refunds');
    await page.screenshot({ path: `${SHOTS}/${width}-search-payment.png`, fullPage: true });

    // Back to the search (the URL keeps it), then one Almaty day: the coffee of 10 January only.
    await page.goBack();
    await poll(() => rowsOf(page).count()).toBe(1);
    expect(await search.getByLabel('Сумма, ₸').inputValue()).toBe('4500');
    await search.getByRole('button', { name: 'Сбросить' }).click();
    await search.getByLabel('Дата с').fill('2026-01-10');
    await search.getByLabel('Дата по').fill('2026-01-10');
    await submit(page, 'created_from=2026-01-10');
    await poll(() => rowsOf(page).count()).toBe(1);
    expect(await rowsOf(page).first().getByRole('link').textContent()).toBe(coffee);
    expect(asked.at(-1)).toContain('created_from=2026-01-10T00:00:00+05:00');
    expect(asked.at(-1)).toContain('created_to=2026-01-10T23:59:59.999+05:00');
    // A day with nothing says so.
    await search.getByLabel('Дата с').fill('2026-01-11');
    await search.getByLabel('Дата по').fill('2026-01-11');
    await submit(page, 'created_from=2026-01-11');
    await page.getByText('По этому запросу платежей нет').waitFor();
    await accessible(page, 'a day without payments');
    // The page does not scroll sideways: the form fits the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `${SHOTS}/${width}-search-day.png`, fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  }, 150_000);
});
