// The rekassa driver end to end against the fiscal emulator over HTTPS: login, the register, sales and
// returns with their parent ticket, a re-sent receipt with reKassa's X-Request-ID de-duplication on and
// off (lookup is what settles it), a lost answer, an expired token, a blocked register, the 24-hour shift
// and its PIN-guarded close, offline mode, and the answers that are no answer.
import { describe, expect, it } from 'vitest';
import { requestIdOf } from '../../src/fiscal/rekassa/receipt.ts';
import { rekassaSpec } from '../../src/fiscal/rekassa/driver.ts';
import { useFiscalEmulator } from '../fiscal-emulator/harness.ts';
import { closePoolsAfterAll, kindOf, makeDriver, returnRequest, saleRequest } from './drivers.ts';

const client = useFiscalEmulator('driver-rekassa');
closePoolsAfterAll();

function driver(over: Record<string, string> = {}, config: { timeoutMs?: number; rekassaApiKey?: string } = {}) {
  const e = client().e;
  return makeDriver(
    rekassaSpec,
    e,
    e.rekassa.number,
    { password: e.rekassa.password, pin: e.rekassa.pin, ...over },
    config,
  );
}

const cashbox = () => client().e.webkassa.cashbox;
const faults = (list: object[]) => client().ok('POST', 'faults', { faults: list });
const receipts = async () =>
  (await client().ok('GET', 'receipts')).receipts as { fiscal_sign: string; external_id: string }[];
const hint = { shiftNumber: null, at: new Date() };

describe('rekassa: login and the register', () => {
  it('logs in (token, register id, its РНМ), reads the register active with its OFD, then its open shift', async () => {
    const d = driver();
    const session = await d.authorize();
    expect(session).toEqual({
      token: expect.any(String),
      crsId: String(client().e.rekassa.id),
      rnm: expect.any(String),
    });
    const before = await d.registerInfo(session);
    expect(before).toMatchObject({
      uniqueNumber: cashbox(),
      status: 'active',
      shift: null,
      registrationNumber: session.rnm,
    });
    expect(before.ofd).toMatchObject({ code: '4', host: 'cabinet.wofd.kz' });
    await d.issue(session, saleRequest('rc_rk_open'));
    expect((await d.registerInfo(session)).shift).toMatchObject({ number: 1 });
  });

  it('a wrong password or partner key is auth_failed', async () => {
    expect(await kindOf(driver({ password: 'wrong' }).authorize())).toBe('auth_failed');
    expect(await kindOf(driver({ api_key: 'not-the-key' }).authorize())).toBe('auth_failed');
  });
});

describe('rekassa: receipts', () => {
  it('a sale and its return with the parent ticket, with signs, OFD links, print pages and the ticket id', async () => {
    const d = driver();
    const session = await d.authorize();
    const sale = await d.issue(session, saleRequest('rc_rk_sale', { customerEmail: 'payer@example.kz' }));
    expect(sale).toMatchObject({ shiftNumber: 1, offline: false, registrationNumber: session.rnm });
    expect(sale.fiscalSign).toMatch(/^\d+$/);
    expect(sale.checkUrl).toContain(`i=${sale.fiscalSign}`);
    expect(sale.checkUrl).toContain('s=2000.00');
    expect(sale.ticketUrl).toBe(`${new URL(client().e.url).origin}/print/${session.crsId}/${sale.ref}`);
    const ret = await d.issue(session, returnRequest('rc_rk_return', sale));
    expect(ret.fiscalSign).not.toBe(sale.fiscalSign);
    const stored = await receipts();
    expect(stored.map((r) => r.fiscal_sign)).toEqual([sale.fiscalSign, ret.fiscalSign]);
    // The ticket carries the receipt's X-Request-ID, a UUID made from Tolem's receipt id.
    expect(stored[0].external_id).toBe(requestIdOf('rc_rk_sale'));
  });

  it('a return of an unknown sale is basis_missing, one above what is left of its sale rejected', async () => {
    const d = driver();
    const session = await d.authorize();
    const sale = await d.issue(session, saleRequest('rc_rk_sale2'));
    const wrong = returnRequest('rc_rk_ret2', { ...sale, fiscalSign: '1' });
    expect(await kindOf(d.issue(session, wrong))).toBe('basis_missing');
    await d.issue(session, returnRequest('rc_rk_ret3', sale));
    expect(await kindOf(d.issue(session, returnRequest('rc_rk_ret4', sale)))).toBe('rejected');
  });

  it('a re-sent receipt with de-duplication on answers the first ticket; lookup finds it either way', async () => {
    const d = driver();
    const session = await d.authorize();
    const first = await d.issue(session, saleRequest('rc_rk_dup'));
    const again = await d.issue(session, saleRequest('rc_rk_dup'));
    expect(again.fiscalSign).toBe(first.fiscalSign);
    expect(await receipts()).toHaveLength(1);
    expect(await d.lookup(session, 'rc_rk_dup', hint)).toMatchObject({ fiscalSign: first.fiscalSign, ref: first.ref });
  });

  it('with de-duplication off a resend would make a second ticket: lookup before it finds the first', async () => {
    await client().ok('POST', 'settings', { rekassa_request_id_dedup: false });
    const d = driver();
    const session = await d.authorize();
    const first = await d.issue(session, saleRequest('rc_rk_nodedup'));
    // What the domain does before any resend: the receipt is there, nothing is sent again.
    expect(await d.lookup(session, 'rc_rk_nodedup', hint)).toMatchObject({ fiscalSign: first.fiscalSign });
    expect(await d.lookup(session, 'rc_rk_other', hint)).toBeNull();
    // The risk lookup guards against: the service takes the same X-Request-ID again as a new ticket.
    const second = await d.issue(session, saleRequest('rc_rk_nodedup'));
    expect(second.fiscalSign).not.toBe(first.fiscalSign);
    expect((await d.lookup(session, 'rc_rk_nodedup', hint))?.fiscalSign).toBe(first.fiscalSign);
  });

  it('an answer lost after the ticket was made is outcome_unknown, and lookup finds the ticket', async () => {
    const d = driver();
    const session = await d.authorize();
    expect(await d.lookup(session, 'rc_rk_lost', hint)).toBeNull();
    await faults([{ kind: 'lost', surface: 'rekassa', path: '/tickets', times: 1 }]);
    expect(await kindOf(d.issue(session, saleRequest('rc_rk_lost')))).toBe('outcome_unknown');
    const [stored] = await receipts();
    const found = await d.lookup(session, 'rc_rk_lost', hint);
    expect(found).toMatchObject({ fiscalSign: stored.fiscal_sign, shiftNumber: 1, registrationNumber: session.rnm });
    expect(Math.abs(found!.issuedAt.getTime() - Date.now())).toBeLessThan(60_000);
  });
});

describe('rekassa: what the domain acts on', () => {
  it('an expired token is token_expired; a new login carries on', async () => {
    const d = driver();
    const session = await d.authorize();
    await client().ok('POST', 'tokens/expire', { surface: 'rekassa' });
    expect(await kindOf(d.issue(session, saleRequest('rc_rk_tok')))).toBe('token_expired');
    expect(await kindOf(d.registerInfo(session))).toBe('token_expired');
    expect(await kindOf(d.lookup({}, 'rc_rk_tok', hint))).toBe('token_expired');
    const fresh = await d.authorize();
    expect((await d.issue(fresh, saleRequest('rc_rk_tok'))).fiscalSign).toMatch(/^\d+$/);
  });

  it('a second request while the register serves one is busy (the one-at-a-time rule)', async () => {
    const d = driver();
    const session = await d.authorize();
    await client().ok('PATCH', `registers/${cashbox()}`, { concurrency: 'reject' });
    await faults([{ kind: 'slow', path: '/tickets', ms: 400, times: 1 }]);
    const [first, second] = await Promise.allSettled([
      d.issue(session, saleRequest('rc_rk_q1')),
      new Promise((r) => setTimeout(r, 100)).then(() => d.issue(session, saleRequest('rc_rk_q2'))),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(second.status === 'rejected' && (second.reason as { kind: string }).kind).toBe('busy');
  });

  it('a blocked or not activated register is blocked', async () => {
    const d = driver();
    const session = await d.authorize();
    await client().ok('PATCH', `registers/${cashbox()}`, { status: 'blocked' });
    expect((await d.registerInfo(session)).status).toBe('blocked');
    expect(await kindOf(d.issue(session, saleRequest('rc_rk_blocked')))).toBe('blocked');
    await client().ok('PATCH', `registers/${cashbox()}`, { status: 'not-activated' });
    expect((await d.registerInfo(session)).status).toBe('blocked');
    expect(await kindOf(d.issue(session, saleRequest('rc_rk_blocked')))).toBe('blocked');
  });

  it('a shift past 24 hours is shift_expired; the PIN-guarded close ends it, confirmed; the next opens', async () => {
    const d = driver();
    const session = await d.authorize();
    expect(await d.closeShift(session)).toBeNull();
    await d.issue(session, saleRequest('rc_rk_s1'));
    await client().ok('POST', `registers/${cashbox()}/shift-age`, { hours: 25 });
    expect(await kindOf(d.issue(session, saleRequest('rc_rk_s2')))).toBe('shift_expired');
    expect(await kindOf(driver({ pin: '0' }).closeShift(session))).toBe('auth_failed');
    const z = await d.closeShift(session);
    expect(z).toMatchObject({ shiftNumber: 1, saleCount: 1, saleTotal: 2000, returnCount: 0, offlineCount: 0 });
    expect(z!.closedAt.getTime()).toBeGreaterThan(z!.openedAt!.getTime());
    expect((await d.registerInfo(session)).shift).toBeNull();
    expect(await d.closeShift(session)).toBeNull();
    expect(await d.issue(session, saleRequest('rc_rk_s2'))).toMatchObject({ shiftNumber: 2 });
  });

  it('offline: tickets are signed offline and the register is offline; past 72 hours, offline_expired', async () => {
    const d = driver();
    const session = await d.authorize();
    await client().ok('POST', `registers/${cashbox()}/ofd`, { online: false });
    const off = await d.issue(session, saleRequest('rc_rk_off'));
    expect(off.offline).toBe(true);
    expect(off.fiscalSign).toMatch(/^\d+$/);
    expect((await d.registerInfo(session)).status).toBe('offline');
    await client().ok('POST', `registers/${cashbox()}/ofd`, { online: false, hours_ago: 73 });
    expect(await kindOf(d.issue(session, saleRequest('rc_rk_off2')))).toBe('offline_expired');
    await client().ok('POST', `registers/${cashbox()}/ofd`, { online: true });
    const z = await d.closeShift(session);
    expect(z?.offlineCount).toBe(1);
  });
});

describe('rekassa: outages', () => {
  it("a gateway's page: 503 took nothing (unavailable), 502 may follow a ticket (outcome_unknown)", async () => {
    const d = driver();
    const session = await d.authorize();
    await faults([{ kind: 'http5xx', status: 503, path: '/tickets', times: 1 }]);
    expect(await kindOf(d.issue(session, saleRequest('rc_rk_5xx')))).toBe('unavailable');
    await faults([{ kind: 'http5xx', status: 502, path: '/tickets', times: 1 }]);
    expect(await kindOf(d.issue(session, saleRequest('rc_rk_5xx')))).toBe('outcome_unknown');
    expect(await d.lookup(session, 'rc_rk_5xx', hint)).toBeNull();
  });

  it('no answer within the time-out is outcome_unknown for a ticket', async () => {
    const d = driver({}, { timeoutMs: 500 });
    const session = await d.authorize();
    await faults([{ kind: 'timeout', path: '/tickets', ms: 1500, times: 1 }]);
    expect(await kindOf(d.issue(session, saleRequest('rc_rk_slow')))).toBe('outcome_unknown');
  });
});
