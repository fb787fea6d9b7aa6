// The dashboard's fiscal pages (decisions 27) in Chromium at 390 and 1280 px, axe-core on each screen: an owner
// sets up the sandbox register in test mode through the wizard (the same number twice is refused in words),
// a paid test QR waits on it (so the register cannot be deleted, said in words), the receipts worker issues
// its receipt, seen on the receipts page (with its fiscal sign and check page) and on the payment's page; the
// shift is closed and its Z-report totals are shown, then on the register's shifts page. A register's settings
// are edited from what it has. Live mode's wizard
// asks each service for its own credentials, secrets typed as passwords. A failed receipt says why in words
// and is tried again; an issued one is sent to the payer by e-mail or SMS; a refund's return receipt shows on
// the payment's page. A viewer sees the registers and
// the receipts but nothing to set up or operate.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { accessible, settled, startHarness, SCREENSHOTS, type Harness } from './harness.ts';
import { newMember, newPaidPayment, newRefund } from '../helpers/actors.ts';
import { newMerchant } from '../helpers/factories.ts';
import { issueReceipts, newRegister } from '../helpers/fiscal.ts';
import { markFailed } from '../../src/domain/fiscal/receipts-store.ts';

const SHOTS = `${SCREENSHOTS}/dashboard`;
let h: Harness;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  h = await startHarness();
});
afterAll(() => h?.close());

/** Waits for what a request brings: a loaded 2-core host may take seconds for a page and its chunks. */
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 20_000 });

// A whole set-up, a payment, a worker run and a shift closed: longer than the suite's 60 s on a loaded host.
const FLOW_MS = 180_000;

/** Signed in through the dashboard's own page, in test mode unless told. */
async function signedIn(
  m: { email: string; password: string },
  width: number,
  test = true,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const s = await h.page(width);
  await s.page.goto(`${h.base}/dashboard/login`);
  await s.page.getByLabel('Эл. почта').fill(m.email);
  await s.page.getByLabel('Пароль').fill(m.password);
  await s.page.getByRole('button', { name: 'Войти' }).click();
  await s.page.getByRole('heading', { name: 'Обзор' }).waitFor();
  if (test) {
    await s.page.getByRole('switch', { name: 'Тестовые данные' }).check({ force: true });
    await s.page.getByTestId('test-banner').waitFor();
  }
  return s;
}

/** The fiscal section through the menu (folded on a phone). */
async function openFiscal(page: Page, width: number): Promise<void> {
  if (width < 768) await page.getByRole('button', { name: 'Меню' }).click();
  await page.getByRole('navigation').getByRole('link', { name: 'Фискализация', exact: true }).click();
  await page.getByRole('heading', { name: 'Кассы', level: 1 }).waitFor();
}

const rowsOf = (page: Page, table: string) => page.getByTestId(table).getByTestId('row');

/** The wizard, from its first step to the settings, for the sandbox register numbered `number`. */
async function wizardToSettings(page: Page, number: string): Promise<ReturnType<Page['getByRole']>> {
  await page.getByRole('button', { name: 'Подключить кассу' }).click();
  const dialog = page.getByRole('dialog', { name: 'Подключить кассу' });
  // Test mode offers the test register only, chosen already.
  await dialog.getByRole('radio').first().waitFor();
  expect(await dialog.getByRole('radio').count()).toBe(1);
  expect(await dialog.getByRole('radio', { name: 'Тестовая касса' }).isChecked()).toBe(true);
  await dialog.getByRole('button', { name: 'Далее' }).click();
  await dialog.getByLabel('Номер кассы').fill(number);
  await dialog.getByRole('button', { name: 'Далее' }).click();
  await dialog.getByLabel('Название в кабинете').waitFor();
  return dialog;
}

describe.each([390, 1280])('fiscal pages at %i px', (width) => {
  it(
    'set-up wizard, a pending receipt blocks deleting, the receipt issued, the shift closed with its totals',
    async () => {
      const m = await newMerchant(h.t.app);
      const { context, page, problems } = await signedIn(m, width);
      await openFiscal(page, width);
      await poll(() => page.getByText('Пока ничего нет').count()).toBe(1);
      await accessible(page, 'registers, none yet');

      // The wizard: the service, the number, then the settings with their defaults.
      const number = `SBX-${width}-${Date.now()}`;
      let dialog = await wizardToSettings(page, number);
      expect(await dialog.getByLabel('Название позиции по умолчанию').inputValue()).toBe('Оплата');
      expect(await dialog.getByRole('combobox', { name: 'Вид оплаты в чеке' }).inputValue()).toBe('Мобильный платёж');
      await dialog.getByText('Оплата по QR — это «мобильный платёж»', { exact: false }).waitFor();
      expect(await dialog.getByLabel('Ставка НДС, %').count()).toBe(0);
      await dialog.getByRole('switch', { name: 'Плательщик НДС' }).check({ force: true });
      expect(await dialog.getByLabel('Ставка НДС, %').inputValue()).toBe('16');
      await dialog.getByLabel('Название в кабинете').fill('Касса у входа');
      await accessible(page, 'the wizard: settings');
      await page.screenshot({ path: `${SHOTS}/${width}-fiscal-wizard.png`, fullPage: true });
      await dialog.getByRole('button', { name: 'Подключить кассу' }).click();
      await dialog.waitFor({ state: 'detached' });
      const registers = rowsOf(page, 'registers-table');
      await poll(() => registers.count()).toBe(1);
      const row = registers.first();
      expect(await row.textContent()).toContain('Касса у входа');
      expect(await row.textContent()).toContain('Работает');
      expect(await row.textContent()).toContain(number);
      const [created] = (
        await h.t.runtime.deps.db.query(
          'SELECT vat_payer, vat_rate_bps, payment_type, auto FROM fiscal_registers WHERE register_number = $1',
          [number],
        )
      ).rows;
      expect(created).toEqual({ vat_payer: true, vat_rate_bps: 1600, payment_type: 'mobile', auto: true });

      // The same register again: refused, in words, and the wizard stays open to fix it.
      dialog = await wizardToSettings(page, number);
      await dialog.getByRole('button', { name: 'Подключить кассу' }).click();
      await poll(() => dialog.getByTestId('error-words').textContent()).toBe('Эта касса уже подключена.');
      await dialog.getByRole('button', { name: 'Закрыть' }).click();
      await dialog.waitFor({ state: 'detached' });

      // A paid QR: its receipt waits for the worker, and the register cannot go while it waits.
      const paid = await newPaidPayment(h.t.app, m.testKey, 5000);
      await page.reload();
      await poll(() => row.getByText('Касса у входа').count()).toBe(1);
      await row.getByRole('button', { name: 'Удалить' }).click();
      const remove = page.getByRole('dialog', { name: 'Удалить кассу?' });
      await remove.getByRole('button', { name: 'Удалить' }).click();
      await poll(() => remove.getByTestId('error-words').textContent()).toBe(
        'По кассе ещё отправляются чеки. Удалите её, когда они будут выданы.',
      );
      await remove.getByRole('button', { name: 'Отмена' }).click();
      await remove.waitFor({ state: 'detached' });

      // The worker issues it: the receipts page shows it with its fiscal sign and its check page.
      expect(await issueReceipts(h.t)).toBeGreaterThan(0);
      await page.getByRole('link', { name: 'Чеки', exact: true }).click();
      await page.getByRole('heading', { name: 'Чеки', level: 1 }).waitFor();
      const receipts = rowsOf(page, 'receipts-table');
      await poll(() => receipts.count()).toBe(1);
      const receipt = await receipts.first().textContent();
      expect(receipt).toContain('Продажа');
      expect(receipt).toContain('Выдан');
      expect(receipt).toContain('5\u00a0000\u00a0₸');
      expect(receipt).toContain(paid.operation_id);
      const [issued] = (
        await h.t.runtime.deps.db.query(
          "SELECT fiscal_sign, check_url FROM fiscal_receipts WHERE operation_id = $1 AND status = 'issued'",
          [paid.operation_id],
        )
      ).rows;
      expect(receipt).toContain(issued.fiscal_sign);
      const check = receipts.first().getByRole('link', { name: 'Чек в ОФД' });
      expect(await check.getAttribute('href')).toBe(issued.check_url);
      expect(await check.getAttribute('target')).toBe('_blank');
      await accessible(page, 'receipts');
      await page.screenshot({ path: `${SHOTS}/${width}-fiscal-receipts.png`, fullPage: true });

      // A filter that finds nothing says so; the reset brings the receipt back.
      const filters = page.getByRole('search', { name: 'Отбор чеков' });
      await filters.getByRole('combobox', { name: 'Статус' }).click();
      await page.getByRole('option', { name: 'Не выдан' }).click();
      await filters.getByRole('button', { name: 'Найти' }).click();
      await page.waitForURL(/status=failed/);
      await poll(() => receipts.count()).toBe(0);
      await filters.getByRole('button', { name: 'Сбросить' }).click();
      await poll(() => receipts.count()).toBe(1);

      // The payment's page: its receipt issued with its sign, and its receipts found by the payment.
      await receipts.first().getByRole('link', { name: paid.operation_id }).click();
      const onPayment = page.getByTestId('payment-receipt');
      await poll(() => onPayment.textContent()).toContain(issued.fiscal_sign);
      expect(await onPayment.textContent()).toContain('Выдан');
      expect(await onPayment.getByRole('link', { name: 'Чек в ОФД' }).getAttribute('href')).toBe(issued.check_url);
      await accessible(page, "a payment's receipt");
      await onPayment.getByRole('link', { name: 'Все чеки платежа' }).click();
      await page.waitForURL((u) => u.searchParams.get('operation_id') === paid.operation_id);
      await poll(() => receipts.count()).toBe(1);

      // The shift the receipt opened: closed now, its Z-report's totals shown.
      await page.getByRole('link', { name: 'Кассы', exact: true }).click();
      await poll(() => row.textContent()).toContain('№ 1, открыта');
      await row.getByRole('button', { name: 'Закрыть смену' }).click();
      const confirm = page.getByRole('dialog', { name: 'Закрыть смену (Z-отчёт)?' });
      // The pointer left on the row's button would hover the dialog's: check what a reader sees.
      await page.mouse.move(0, 0);
      await accessible(page, 'closing the shift');
      await confirm.getByRole('button', { name: 'Закрыть смену' }).click();
      const z = page.getByRole('dialog', { name: 'Смена № 1 закрыта' });
      await poll(() => z.getByTestId('z-totals').textContent()).toContain('Продажи: 1 на 5\u00a0000\u00a0₸');
      expect(await z.getByTestId('z-totals').textContent()).toContain('Возвраты: 0 на 0\u00a0₸');
      await accessible(page, 'the Z-report');
      await z.getByRole('button', { name: 'Закрыть' }).last().click();
      await z.waitFor({ state: 'detached' });
      await poll(() => row.textContent()).toContain('Закрыта');

      // The register's shifts: the closed one with its totals.
      await row.getByRole('link', { name: 'Смены' }).click();
      await page.getByRole('heading', { name: 'Смены кассы Касса у входа' }).waitFor();
      const shifts = rowsOf(page, 'shifts-table');
      await poll(() => shifts.count()).toBe(1);
      expect(await shifts.first().textContent()).toContain('№ 1');
      expect(await shifts.first().getByTestId('z-totals').textContent()).toContain('Продажи: 1 на 5\u00a0000\u00a0₸');
      await accessible(page, 'shifts');
      await page.screenshot({ path: `${SHOTS}/${width}-fiscal-shifts.png`, fullPage: true });

      // The two refusals asked for above (the same register again, deleting it while a receipt waited) are
      // the browser's console errors; nothing else is.
      const refused = /status of 409 \(Conflict\) .*\/me\/fiscal\/registers(\/fr_\w+)?\?mode=test$/;
      expect(problems.filter((p) => !refused.test(p))).toEqual([]);
      expect(problems).toHaveLength(2);
      await context.close();
    },
    FLOW_MS,
  );

  it(
    "live mode's wizard asks each service for its own fields; a viewer has nothing to set up or operate",
    async () => {
      const owner = await newMerchant(h.t.app);
      const o = await signedIn(owner, width, false);
      await openFiscal(o.page, width);
      await o.page.getByRole('button', { name: 'Подключить кассу' }).click();
      const dialog = o.page.getByRole('dialog', { name: 'Подключить кассу' });
      const radios = dialog.getByRole('radio');
      await radios.first().waitFor();
      expect(await radios.count()).toBe(2);
      expect(await dialog.getByRole('radio', { name: 'Тестовая касса' }).count()).toBe(0);
      await accessible(o.page, 'the wizard: the service');
      await dialog.getByRole('button', { name: 'Далее' }).click();
      // Webkassa: the ЗНК, a login, a password, an optional API key; secrets typed as passwords.
      await dialog.getByLabel('ЗНК (CashboxUniqueNumber)').waitFor();
      expect(await dialog.getByLabel('Логин (эл. почта)').getAttribute('type')).not.toBe('password');
      expect(await dialog.getByLabel('Пароль').getAttribute('type')).toBe('password');
      expect(await dialog.getByLabel('API-ключ (если выдан)').getAttribute('type')).toBe('password');
      expect(await dialog.getByLabel('API-ключ (если выдан)').getAttribute('required')).toBeNull();
      await accessible(o.page, 'the wizard: webkassa credentials');
      await o.page.screenshot({ path: `${SHOTS}/${width}-fiscal-wizard-live.png`, fullPage: true });
      // reKassa: its login number, a password and the cashier's PIN.
      await dialog.getByRole('button', { name: 'Назад' }).click();
      await dialog.getByRole('radio', { name: 'reKassa' }).check({ force: true });
      await dialog.getByRole('button', { name: 'Далее' }).click();
      await dialog.getByLabel('Номер кассы для входа').waitFor();
      expect(await dialog.getByLabel('ПИН-код кассира').getAttribute('type')).toBe('password');
      expect(await dialog.getByLabel('Логин (эл. почта)').count()).toBe(0);
      // A required field left empty stops the step before anything is sent.
      await dialog.getByRole('button', { name: 'Далее' }).click();
      await settled(o.page);
      expect(await dialog.getByLabel('Название в кабинете').count()).toBe(0);
      expect(await dialog.getByLabel('ПИН-код кассира').isVisible()).toBe(true);
      expect(o.problems).toEqual([]);
      await o.context.close();

      // The viewer: the owner's test register and a receipt to see, nothing to do with them.
      const stock = await newRegister(h.t, owner);
      await newPaidPayment(h.t.app, owner.testKey, 1200);
      await issueReceipts(h.t);
      const viewer = await newMember(h.t.app, owner, 'viewer');
      const v = await signedIn(viewer, width);
      await openFiscal(v.page, width);
      const row = rowsOf(v.page, 'registers-table').first();
      await poll(() => row.textContent()).toContain(stock.register_number);
      expect(await v.page.getByRole('button', { name: 'Подключить кассу' }).count()).toBe(0);
      for (const action of ['Проверить', 'Закрыть смену', 'Настройки', 'Удалить'])
        expect(await row.getByRole('button', { name: action }).count(), action).toBe(0);
      expect(await row.getByRole('link', { name: 'Смены' }).count()).toBe(1);
      await accessible(v.page, "a viewer's registers");
      await v.page.getByRole('link', { name: 'Чеки', exact: true }).click();
      const receipts = rowsOf(v.page, 'receipts-table');
      await poll(() => receipts.count()).toBe(1);
      expect(await receipts.first().getByRole('button', { name: 'Отправить покупателю' }).count()).toBe(0);
      expect(v.problems).toEqual([]);
      await v.context.close();
    },
    FLOW_MS,
  );
  it(
    'checked, edited; a failed receipt says why and is retried; one sent by e-mail and SMS; a return receipt',
    async () => {
      const m = await newMerchant(h.t.app);
      const register = await newRegister(h.t, m);
      const sold = await newPaidPayment(h.t.app, m.testKey, 1000);
      await issueReceipts(h.t);
      // The second payment's receipt refused by the service, as the worker records a refusal.
      const refused = await newPaidPayment(h.t.app, m.testKey, 2000);
      const db = h.t.runtime.deps.db;
      const [pending] = (
        await db.query<{ id: string }>(
          "SELECT id FROM fiscal_receipts WHERE operation_id = $1 AND status = 'pending'",
          [refused.operation_id],
        )
      ).rows;
      expect(await markFailed(db, pending.id, { code: 'rejected:11', message: 'field invalid' })).not.toBeNull();

      const { context, page, problems } = await signedIn(m, width);
      await openFiscal(page, width);

      // A live check with its service, then its settings changed (the dialog starts from what it has).
      const row = rowsOf(page, 'registers-table').first();
      await poll(() => row.textContent()).toContain(register.register_number);
      const checkedBefore = register.checked_at;
      await row.getByRole('button', { name: 'Проверить' }).click();
      await page.getByText('Касса проверена').waitFor();
      const [probed] = (
        await h.t.runtime.deps.db.query<{ checked_at: Date }>('SELECT checked_at FROM fiscal_registers WHERE id = $1', [
          register.id,
        ])
      ).rows;
      expect(new Date(probed.checked_at).getTime()).toBeGreaterThan(new Date(checkedBefore ?? 0).getTime());
      await row.getByRole('button', { name: 'Настройки' }).click();
      const edit = page.getByRole('dialog', { name: 'Настройки кассы' });
      expect(await edit.getByRole('combobox', { name: 'Вид оплаты в чеке' }).inputValue()).toBe('Мобильный платёж');
      expect(await edit.getByRole('combobox', { name: 'Счёт провайдера' }).inputValue()).toBe('Все счета режима');
      await edit.getByLabel('Название в кабинете').fill('Касса 2');
      await edit.getByRole('combobox', { name: 'Вид оплаты в чеке' }).click();
      await page.getByRole('option', { name: 'Банковская карта' }).click();
      await accessible(page, "a register's settings");
      await edit.getByRole('button', { name: 'Сохранить' }).click();
      await edit.waitFor({ state: 'detached' });
      await poll(() => row.textContent()).toContain('Касса 2');
      const [saved] = (
        await h.t.runtime.deps.db.query('SELECT display_name, payment_type FROM fiscal_registers WHERE id = $1', [
          register.id,
        ])
      ).rows;
      expect(saved).toEqual({ display_name: 'Касса 2', payment_type: 'card' });

      await page.getByRole('link', { name: 'Чеки', exact: true }).click();
      const receipts = rowsOf(page, 'receipts-table');
      await poll(() => receipts.count()).toBe(2);
      const failed = receipts.filter({ hasText: refused.operation_id });
      expect(await failed.textContent()).toContain('Не выдан');
      expect(await failed.textContent()).toContain('Сервис отклонил чек');
      expect(await failed.getByRole('button', { name: 'Отправить покупателю' }).count()).toBe(0);
      await accessible(page, 'a failed receipt');
      await failed.getByRole('button', { name: 'Повторить' }).click();
      await page.getByText('Чек снова в очереди').waitFor();
      await poll(() => failed.textContent()).toContain('Отправляется');
      expect(await failed.getByRole('button', { name: 'Повторить' }).count()).toBe(0);
      const [again] = (await db.query('SELECT status FROM fiscal_receipts WHERE id = $1', [pending.id])).rows;
      expect(again.status).toBe('pending');

      // The issued one, to the payer: by e-mail, then by SMS.
      const issued = receipts.filter({ hasText: sold.operation_id });
      await issued.getByRole('button', { name: 'Отправить покупателю' }).click();
      let send = page.getByRole('dialog', { name: 'Отправить чек' });
      await send.getByRole('textbox', { name: 'Эл. почта' }).fill('buyer@example.kz');
      await accessible(page, 'sending a receipt');
      await send.getByRole('button', { name: 'Отправить покупателю' }).click();
      await page.getByText('Чек отправлен: buyer@example.kz').waitFor();
      await send.waitFor({ state: 'detached' });
      await issued.getByRole('button', { name: 'Отправить покупателю' }).click();
      send = page.getByRole('dialog', { name: 'Отправить чек' });
      await send.getByText('SMS', { exact: true }).click();
      // A number that is no Kazakhstan mobile is refused in words, and the dialog stays to fix it.
      await send.getByRole('textbox', { name: 'Телефон' }).fill('12345');
      await send.getByRole('button', { name: 'Отправить покупателю' }).click();
      await poll(() => send.getByTestId('error-words').textContent()).toBe(
        'Проверьте номер телефона, например +7 701 123 45 67.',
      );
      await send.getByRole('textbox', { name: 'Телефон' }).fill('+7 701 234 56 78');
      await send.getByRole('button', { name: 'Отправить покупателю' }).click();
      await page.getByText('Чек отправлен: +77012345678').waitFor();

      // A part refunded: the payment's page lists the return receipt under its sale receipt.
      await newRefund(h.t.app, m.testKey, { operationId: sold.operation_id, amount: 400 });
      await issueReceipts(h.t);
      await page.goto(`${h.base}/dashboard/payments/${sold.operation_id}`);
      const onPayment = page.getByTestId('payment-receipt');
      await poll(() => onPayment.getByTestId('receipt-line').count()).toBe(2);
      expect(await onPayment.textContent()).toContain('Чеки возврата');
      const back = await onPayment.getByTestId('receipt-line').last().textContent();
      expect(back).toContain('Выдан');
      expect(back).toContain('400\u00a0₸');
      await accessible(page, "a payment's sale and return receipts");
      expect(problems.filter((p) => !/status of 400 .*\/v2\/receipts\/rc_\w+\/send\?mode=test$/.test(p))).toEqual([]);
      await context.close();
    },
    FLOW_MS,
  );
});
