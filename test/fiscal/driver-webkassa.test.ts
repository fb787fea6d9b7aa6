// The webkassa driver end to end against the fiscal emulator over HTTPS (its CA trusted beside the
// system's): login, the register, sales and returns with a basis, a re-sent external number, a lost
// answer settled by lookup, an expired token, a blocked register, the 24-hour shift, offline mode, the 505
// alternative host, and the answers that are no answer (a gateway's page, a time-out).
import { describe, expect, it } from 'vitest';
import { webkassaSpec } from '../../src/fiscal/webkassa/driver.ts';
import { useFiscalEmulator } from '../fiscal-emulator/harness.ts';
import { closePoolsAfterAll, kindOf, makeDriver, returnRequest, saleRequest } from './drivers.ts';

const client = useFiscalEmulator('driver-webkassa');
closePoolsAfterAll();

function driver(over: Record<string, string> = {}, timeoutMs?: number) {
  const e = client().e;
  return makeDriver(
    webkassaSpec,
    e,
    e.webkassa.cashbox,
    { login: e.webkassa.login, password: e.webkassa.password, ...over },
    timeoutMs ? { timeoutMs } : {},
  );
}

const cashbox = () => client().e.webkassa.cashbox;
const faults = (list: object[]) => client().ok('POST', 'faults', { faults: list });
const receipts = async () => (await client().ok('GET', 'receipts')).receipts as { fiscal_sign: string }[];
const hint = { shiftNumber: null, at: new Date() };

describe('webkassa: login and the register', () => {
  it('logs in, reads the register active with its OFD and no shift, then the shift a first sale opened', async () => {
    const d = driver();
    const session = await d.authorize();
    expect(session).toEqual({ token: expect.any(String) });
    const before = await d.registerInfo(session);
    expect(before).toMatchObject({ uniqueNumber: cashbox(), status: 'active', shift: null });
    expect(before.registrationNumber).toMatch(/^\d{12}$/);
    expect(before.ofd?.host).toBe('cabinet.wofd.kz/consumer');
    await d.issue(session, saleRequest('rc_wk_open'));
    const after = await d.registerInfo(session);
    expect(after.shift).toMatchObject({ number: 1 });
    expect(Math.abs(after.shift!.openedAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('wrong credentials and a wrong x-api-key are auth_failed, never a token to renew', async () => {
    expect(await kindOf(driver({ password: 'wrong' }).authorize())).toBe('auth_failed');
    expect(await kindOf(driver({ api_key: 'not-the-key' }).authorize())).toBe('auth_failed');
  });

  it("a register the user does not have is blocked (Webkassa's 6)", async () => {
    const e = client().e;
    const d = makeDriver(webkassaSpec, e, 'SWK99999999', { login: e.webkassa.login, password: e.webkassa.password });
    const session = await d.authorize();
    expect(await kindOf(d.registerInfo(session))).toBe('blocked');
    expect(await kindOf(d.issue(session, saleRequest('rc_wk_nobody')))).toBe('blocked');
  });
});

describe('webkassa: receipts', () => {
  it('a sale and its return with the sale as basis, with signs, OFD links, print pages and the shift', async () => {
    const d = driver();
    const session = await d.authorize();
    const sale = await d.issue(session, saleRequest('rc_wk_sale'));
    expect(sale).toMatchObject({ shiftNumber: 1, offline: false, ref: null });
    expect(sale.fiscalSign).toMatch(/^\d+$/);
    expect(sale.checkUrl).toContain(`i=${sale.fiscalSign}`);
    expect(sale.checkUrl).toContain('s=2000.00');
    expect(sale.ticketUrl).toContain('extnum=rc_wk_sale');
    expect(Math.abs(sale.issuedAt.getTime() - Date.now())).toBeLessThan(60_000);
    const ret = await d.issue(session, returnRequest('rc_wk_return', sale));
    expect(ret.fiscalSign).not.toBe(sale.fiscalSign);
    expect(ret.registrationNumber).toBe(sale.registrationNumber);
    expect((await receipts()).map((r) => r.fiscal_sign)).toEqual([sale.fiscalSign, ret.fiscalSign]);
  });

  it('a return of an unknown sale is basis_missing, one above its sale rejected, one without basis kept', async () => {
    const d = driver();
    const session = await d.authorize();
    const sale = await d.issue(session, saleRequest('rc_wk_sale2'));
    const wrong = returnRequest('rc_wk_ret2', { ...sale, fiscalSign: '1' });
    expect(await kindOf(d.issue(session, wrong))).toBe('basis_missing');
    await d.issue(session, returnRequest('rc_wk_ret4', sale));
    expect(await kindOf(d.issue(session, returnRequest('rc_wk_ret5', sale)))).toBe('rejected');
    await expect(d.issue(session, { ...returnRequest('rc_wk_ret3', sale), basis: null })).rejects.toThrow(/no basis/);
  });

  it('one external number twice: one receipt; the second answer is duplicate, lookup finds the first', async () => {
    const d = driver();
    const session = await d.authorize();
    const first = await d.issue(session, saleRequest('rc_wk_dup'));
    expect(await kindOf(d.issue(session, saleRequest('rc_wk_dup')))).toBe('duplicate');
    const found = await d.lookup(session, 'rc_wk_dup', hint);
    expect(found).toMatchObject({ fiscalSign: first.fiscalSign, registrationNumber: first.registrationNumber });
    expect(found?.checkUrl).toBe(first.checkUrl);
    expect(await receipts()).toHaveLength(1);
  });

  it('a 14 that carries the original receipt is that receipt', async () => {
    await client().ok('POST', 'settings', { duplicate_mode: 'error_with_data' });
    const d = driver();
    const session = await d.authorize();
    const first = await d.issue(session, saleRequest('rc_wk_dup2'));
    const again = await d.issue(session, saleRequest('rc_wk_dup2'));
    expect(again).toMatchObject({ fiscalSign: first.fiscalSign, shiftNumber: first.shiftNumber });
    expect(await receipts()).toHaveLength(1);
  });

  it('an answer lost after the receipt was made is outcome_unknown, and lookup finds the receipt', async () => {
    const d = driver();
    const session = await d.authorize();
    expect(await d.lookup(session, 'rc_wk_lost', hint)).toBeNull();
    await faults([{ kind: 'lost', surface: 'webkassa', path: 'check', times: 1 }]);
    expect(await kindOf(d.issue(session, saleRequest('rc_wk_lost')))).toBe('outcome_unknown');
    const [stored] = await receipts();
    const found = await d.lookup(session, 'rc_wk_lost', { shiftNumber: 1, at: new Date() });
    expect(found).toMatchObject({ fiscalSign: stored.fiscal_sign, shiftNumber: 1, offline: false });
    expect(found?.checkUrl).toContain(`i=${stored.fiscal_sign}`);
    expect(found?.registrationNumber).toMatch(/^\d{12}$/);
    // A shift hint that is wrong (a Z-report came between) still finds it.
    expect(await d.lookup(session, 'rc_wk_lost', { shiftNumber: 7, at: new Date() })).toMatchObject({
      fiscalSign: stored.fiscal_sign,
    });
  });
});

describe('webkassa: what the domain acts on', () => {
  it('an expired token is token_expired; a new login carries on', async () => {
    const d = driver();
    const session = await d.authorize();
    await client().ok('POST', 'tokens/expire', { surface: 'webkassa' });
    expect(await kindOf(d.issue(session, saleRequest('rc_wk_tok')))).toBe('token_expired');
    expect(await kindOf(d.registerInfo(session))).toBe('token_expired');
    expect(await kindOf(d.registerInfo({}))).toBe('token_expired');
    const fresh = await d.authorize();
    expect((await d.issue(fresh, saleRequest('rc_wk_tok'))).fiscalSign).toMatch(/^\d+$/);
  });

  it('a second request while the register serves one is busy (the one-at-a-time rule)', async () => {
    const d = driver();
    const session = await d.authorize();
    await client().ok('PATCH', `registers/${cashbox()}`, { concurrency: 'reject' });
    await faults([{ kind: 'slow', path: 'check', ms: 400, times: 1 }]);
    const [first, second] = await Promise.allSettled([
      d.issue(session, saleRequest('rc_wk_q1')),
      new Promise((r) => setTimeout(r, 100)).then(() => d.issue(session, saleRequest('rc_wk_q2'))),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(second.status === 'rejected' && (second.reason as { kind: string }).kind).toBe('busy');
  });

  it('a blocked register is blocked: the register says so and receipts are refused', async () => {
    const d = driver();
    const session = await d.authorize();
    await client().ok('PATCH', `registers/${cashbox()}`, { status: 'blocked' });
    expect((await d.registerInfo(session)).status).toBe('blocked');
    expect(await kindOf(d.issue(session, saleRequest('rc_wk_blocked')))).toBe('blocked');
    await client().ok('PATCH', `registers/${cashbox()}`, { status: 'not-activated' });
    expect(await kindOf(d.issue(session, saleRequest('rc_wk_blocked')))).toBe('blocked');
  });

  it('a shift past 24 hours is shift_expired; the Z-report closes it and the receipt goes into the next', async () => {
    const d = driver();
    const session = await d.authorize();
    expect(await d.closeShift(session)).toBeNull();
    await d.issue(session, saleRequest('rc_wk_s1'));
    await client().ok('POST', `registers/${cashbox()}/shift-age`, { hours: 25 });
    expect(await kindOf(d.issue(session, saleRequest('rc_wk_s2')))).toBe('shift_expired');
    const z = await d.closeShift(session);
    expect(z).toMatchObject({ shiftNumber: 1, saleCount: 1, saleTotal: 2000, returnCount: 0, returnTotal: 0 });
    expect(z!.closedAt.getTime()).toBeGreaterThan(z!.openedAt!.getTime());
    expect(await d.closeShift(session)).toBeNull();
    expect((await d.registerInfo(session)).shift).toBeNull();
    expect(await d.issue(session, saleRequest('rc_wk_s2'))).toMatchObject({ shiftNumber: 2 });
  });

  it('offline: receipts are signed offline and the register is offline; past 72 hours, offline_expired', async () => {
    const d = driver();
    const session = await d.authorize();
    await client().ok('POST', `registers/${cashbox()}/ofd`, { online: false });
    expect((await d.issue(session, saleRequest('rc_wk_off'))).offline).toBe(true);
    expect((await d.registerInfo(session)).status).toBe('offline');
    expect((await d.lookup(session, 'rc_wk_off', hint))?.offline).toBe(true);
    await client().ok('POST', `registers/${cashbox()}/ofd`, { online: false, hours_ago: 73 });
    expect(await kindOf(d.issue(session, saleRequest('rc_wk_off2')))).toBe('offline_expired');
  });
});

describe('webkassa: hosts and outages', () => {
  it('505 on this domain: the call goes once more to the host AlternativeDomainNames names', async () => {
    const d = driver();
    const session = await d.authorize();
    // Every call by 127.0.0.1 (the configured host) answers 505 naming localhost, which serves it.
    await faults([{ kind: 'domain_505', surface: 'webkassa' }]);
    const sale = await d.issue(session, saleRequest('rc_wk_505'));
    expect(sale.fiscalSign).toMatch(/^\d+$/);
    expect(await d.registerInfo(session)).toMatchObject({ status: 'active' });
    const calls = (await client().ok('GET', 'calls')).calls as { path: string; outcome: string }[];
    const checks = calls.filter((c) => c.path === '/api/v4/check').map((c) => c.outcome);
    expect(checks).toEqual(['505', '200']);
  });

  it("a gateway's page: 503 took nothing (unavailable), 502 may follow a receipt (outcome_unknown)", async () => {
    const d = driver();
    const session = await d.authorize();
    await faults([{ kind: 'http5xx', status: 503, path: 'check', times: 1 }]);
    expect(await kindOf(d.issue(session, saleRequest('rc_wk_5xx')))).toBe('unavailable');
    await faults([{ kind: 'http5xx', status: 502, path: 'check', times: 1 }]);
    expect(await kindOf(d.issue(session, saleRequest('rc_wk_5xx')))).toBe('outcome_unknown');
    await faults([{ kind: 'http5xx', status: 502, path: 'cashboxes', times: 1 }]);
    expect(await kindOf(d.registerInfo(session))).toBe('unavailable');
  });

  it('no answer within the time-out is outcome_unknown for a receipt', async () => {
    const d = driver({}, 500);
    const session = await d.authorize();
    await faults([{ kind: 'timeout', path: 'check', ms: 1500, times: 1 }]);
    expect(await kindOf(d.issue(session, saleRequest('rc_wk_slow')))).toBe('outcome_unknown');
    // The emulator holds the register's queue while the hung call lasts, as one-at-a-time registers do.
    await new Promise((r) => setTimeout(r, 1200));
    // The time-out's request was dropped before it was served: lookup says so, and a resend is safe.
    expect(await d.lookup(session, 'rc_wk_slow', hint)).toBeNull();
  });

  it('nothing listening is unavailable', async () => {
    const e = client().e;
    const d = makeDriver(
      webkassaSpec,
      e,
      cashbox(),
      { login: e.webkassa.login, password: e.webkassa.password },
      { webkassaUrl: 'https://127.0.0.1:1' },
    );
    expect(await kindOf(d.authorize())).toBe('unavailable');
  });
});
