// reKassa as research section 2 and 10 describe it: login with the partner key, Bearer tokens (401 when
// expired), the register, tickets in {bills, coins} with their fiscal sign and OFD link, lookup by
// external id, X-Request-ID de-duplication on and off, shifts, X and Z with the PIN, cash, returns with
// parentTicket, and no annulment. The same register and rules as the Webkassa surface.
import { describe, expect, it } from 'vitest';
import { sale, ticket, useFiscalEmulator } from './harness.ts';

const client = useFiscalEmulator('rekassa');

describe('rekassa', () => {
  it('logs in with apiKey and the register login; a wrong key, password or expired token is 401', async () => {
    const c = client();
    const wrongKey = await c.call('POST', '/api/auth/login?apiKey=nope&format=json', {
      number: c.e.rekassa.number,
      password: c.e.rekassa.password,
    });
    expect(wrongKey.status).toBe(401);
    expect(Object.keys(wrongKey.json).sort()).toEqual(['code', 'message', 'meta', 'url']);
    expect((await c.rkLogin(c.e.rekassa.number, 'wrong')).status).toBe(401);
    await c.ok('POST', 'settings', { token_ttl_seconds: 30 });
    const ok = await c.rkLogin();
    expect(ok.json).toMatchObject({ id: c.e.rekassa.id, serialNumber: 'SWK00033717' });
    const crs = await c.rk('GET', '/api/crs');
    const reg = crs.json._embedded.userCashRegisterRoles[0].cashRegister;
    expect(reg).toMatchObject({ id: c.e.rekassa.id, serialNumber: 'SWK00033717', shiftOpen: false, fdoMode: 'ONLINE' });
    await c.ok('POST', 'clock/advance', { seconds: 31 });
    expect((await c.rk('GET', `/api/crs/${c.e.rekassa.id}`)).status).toBe(401);
  });

  it('issues a ticket, finds it by id and by its external id, and cannot cancel it', async () => {
    const c = client();
    await c.rkLogin();
    const id = c.e.rekassa.id;
    const r = await c.rk('POST', `/api/crs/${id}/tickets`, ticket(500), { 'x-request-id': 'req-1' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      status: 'OK',
      offline: false,
      shiftNumber: 1,
      cancelable: false,
      externalId: 'req-1',
    });
    expect(r.json.qrCode).toMatch(new RegExp(`\\?i=${r.json.ticketNumber}&f=\\d{12}&s=500\\.00&t=\\d{8}T\\d{6}$`));
    const byId = await c.rk('GET', `/api/crs/${id}/tickets/${r.json.id}`);
    expect(byId.json.ticketNumber).toBe(r.json.ticketNumber);
    const byExt = await c.rk('GET', `/api/crs/${id}/tickets?externalId=req-1`);
    expect(byExt.json._embedded.tickets.map((t: any) => t.ticketNumber)).toEqual([r.json.ticketNumber]);
    const cancel = await c.rk('POST', `/api/crs/${id}/tickets/${r.json.id}/cancel`);
    expect(cancel.status).toBe(400);
    expect(cancel.json.code).toBe('TICKET_NOT_CANCELABLE');
  });

  it('answers a repeated X-Request-ID with the first ticket (de-duplication on), a new one (off)', async () => {
    const c = client();
    await c.rkLogin();
    const p = `/api/crs/${c.e.rekassa.id}/tickets`;
    const a = await c.rk('POST', p, ticket(100), { 'x-request-id': 'same' });
    const b = await c.rk('POST', p, ticket(100), { 'x-request-id': 'same' });
    expect(b.json.ticketNumber).toBe(a.json.ticketNumber);
    expect((await c.ok('GET', 'receipts')).receipts).toHaveLength(1);
    await c.ok('POST', 'settings', { rekassa_request_id_dedup: false });
    const d = await c.rk('POST', p, ticket(100), { 'x-request-id': 'same' });
    expect(d.json.ticketNumber).not.toBe(a.json.ticketNumber);
    const found = await c.rk('GET', `${p}?externalId=same`);
    expect(found.json._embedded.tickets).toHaveLength(2);
  });

  it('refuses a ticket whose sums, VAT or dateTime are wrong', async () => {
    const c = client();
    await c.rkLogin();
    const p = `/api/crs/${c.e.rekassa.id}/tickets`;
    const badVat = ticket(500);
    badVat.items[0].commodity.taxes[0].sum = { bills: 60, coins: 0 };
    expect((await c.rk('POST', p, badVat)).json.code).toBe('VALIDATION_ERROR');
    const short = ticket(500, 'OPERATION_SELL', {
      payments: [{ type: 'PAYMENT_CARD', sum: { bills: 400, coins: 0 } }],
    });
    expect((await c.rk('POST', p, short)).status).toBe(400);
    // Two pieces at 500 with one mark code: the marks must number the pieces.
    const marked: any = ticket(1000);
    marked.items[0].commodity.exciseStamp = '04870249811936t1Xrb-xQWhpeGhG';
    marked.items[0].commodity.quantity = 2000;
    marked.items[0].commodity.price = { bills: 500, coins: 0 };
    expect((await c.rk('POST', p, marked)).json.message).toMatch(/mark code/);
    const coins = ticket(500);
    coins.items[0].commodity.price = { bills: 500, coins: 100 };
    expect((await c.rk('POST', p, coins)).status).toBe(400);
    const skew = ticket(500, 'OPERATION_SELL', {
      dateTime: { date: { year: 2020, month: 1, day: 1 }, time: { hour: 0, minute: 0, second: 0 } },
    });
    const skewed = await c.rk('POST', p, skew);
    expect([skewed.status, skewed.json.code]).toEqual([400, 'DATE_TIME_INVALID']);
    expect((await c.ok('GET', 'receipts')).receipts).toHaveLength(0);
  });

  it('returns against the sale with parentTicket, and refuses one without (400)', async () => {
    const c = client();
    await c.rkLogin();
    const p = `/api/crs/${c.e.rekassa.id}/tickets`;
    const s = (await c.rk('POST', p, ticket(800))).json;
    const reg = (await c.rk('GET', `/api/crs/${c.e.rekassa.id}`)).json;
    const [date, time] = s.messageTime.split('T');
    const [y, mo, d] = date.split('-').map(Number);
    const [h, mi, se] = time.slice(0, 8).split(':').map(Number);
    const parentTicket = {
      parentTicketNumber: s.ticketNumber,
      parentTicketDataTime: { date: { year: y, month: mo, day: d }, time: { hour: h, minute: mi, second: se } },
      kgdKkmId: reg.registrationNumber,
      parentTicketTotal: { bills: 800, coins: 0 },
      parentTicketIsOffline: false,
    };
    const ret = await c.rk('POST', p, ticket(300, 'OPERATION_SELL_RETURN', { parentTicket }));
    expect(ret.status).toBe(200);
    const over = await c.rk('POST', p, ticket(600, 'OPERATION_SELL_RETURN', { parentTicket }));
    expect(over.json.code).toBe('VALIDATION_ERROR');
    const none = await c.rk('POST', p, ticket(300, 'OPERATION_SELL_RETURN'));
    expect(none.json.code).toBe('PARENT_TICKET_REQUIRED');
  });

  it('lists shifts, gives an X-report, closes with the PIN only, and refuses after 24 h (SHIFT_EXPIRED)', async () => {
    const c = client();
    await c.rkLogin();
    const base = `/api/crs/${c.e.rekassa.id}`;
    await c.rk(
      'POST',
      `${base}/tickets`,
      ticket(500, 'OPERATION_SELL', { payments: [{ type: 'PAYMENT_CASH', sum: { bills: 500, coins: 0 } }] }),
    );
    const x = await c.rk('GET', `${base}/shifts/1/reports/x`);
    expect(x.json).toMatchObject({ shiftNumber: 1, open: true, data: { sell: { count: 1, sum: { bills: 500 } } } });
    await c.ok('POST', 'registers/SWK00033717/shift-age', { hours: 25 });
    const late = await c.rk('POST', `${base}/tickets`, ticket(100));
    expect([late.status, late.json.code]).toEqual([400, 'SHIFT_EXPIRED']);
    expect((await c.rk('GET', base)).json.shiftExpired).toBe(true);
    expect((await c.rk('POST', `${base}/shifts/1/close`, undefined, { 'cash-register-password': '0' })).status).toBe(
      403,
    );
    const z = await c.rk('POST', `${base}/shifts/1/close`, undefined, { 'cash-register-password': c.e.rekassa.pin });
    expect(z.json).toMatchObject({ shiftNumber: 1, open: false });
    const again = await c.rk('POST', `${base}/shifts/1/close`, undefined, {
      'cash-register-password': c.e.rekassa.pin,
    });
    expect(again.json.code).toBe('SHIFT_ALREADY_CLOSED');
    expect((await c.rk('GET', `${base}/shifts/1/reports/x`)).json.code).toBe('SHIFT_NOT_OPEN');
    const list = await c.rk('GET', `${base}/shifts?includeOpen=true&page=0&size=10`);
    expect(list.json._embedded.shifts.map((s: any) => s.shiftNumber)).toEqual([1]);
  });

  it('moves cash and refuses a withdrawal above the balance; shares the register with Webkassa', async () => {
    const c = client();
    await c.rkLogin();
    const base = `/api/crs/${c.e.rekassa.id}`;
    const dep = await c.rk('POST', `${base}/cash`, {
      operation: 'MONEY_PLACEMENT_DEPOSIT',
      sum: { bills: 1000, coins: 0 },
    });
    expect(dep.json.balance).toEqual({ bills: 1000, coins: 0 });
    const out = await c.rk('POST', `${base}/cash`, {
      operation: 'MONEY_PLACEMENT_WITHDRAWAL',
      sum: { bills: 1500, coins: 0 },
    });
    expect([out.status, out.json.code]).toEqual([400, 'NOT_ENOUGH_CASH']);
    await c.login();
    const wk = await c.wk('check', sale());
    expect(wk.json.Data.ShiftNumber).toBe(1);
    expect(wk.json.Data.CheckOrderNumber).toBe(2);
    await c.ok('PATCH', 'registers/SWK00033717', { status: 'blocked' });
    const blocked = await c.rk('POST', `${base}/tickets`, ticket(100));
    expect([blocked.status, blocked.json.code]).toEqual([403, 'CASH_REGISTER_BLOCKED']);
  });

  it('serves the request shapes of a public PHP client: a bare-token login, numbers as strings, 200', async () => {
    // abylalai/integration-with-reKassa (RekassaApi.php): login without format=json reads the body as the
    // token; tickets and cash carry every number as a string; only HTTP 200 counts as success.
    const c = client();
    const login = await c.call('POST', `/api/auth/login?apiKey=${c.e.rekassa.apiKey}`, {
      number: c.e.rekassa.number,
      password: c.e.rekassa.password,
    });
    expect([login.status, login.headers['content-type']]).toEqual([200, 'text/plain']);
    c.rkToken = login.text;
    const base = `/api/crs/${c.e.rekassa.id}`;
    const body: any = ticket(250, 'OPERATION_SELL', {
      payments: [{ type: 'PAYMENT_CASH', sum: { bills: '250', coins: '0' } }],
    });
    const stringify = (o: any): any =>
      Array.isArray(o)
        ? o.map(stringify)
        : o && typeof o === 'object'
          ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'number' ? String(v) : stringify(v)]))
          : o;
    const r = await c.rk('POST', `${base}/tickets`, stringify(body));
    expect(r.status, r.text).toBe(200);
    const shiftTickets = await c.rk('GET', `${base}/shifts/1/tickets?page=0&size=10`);
    expect(shiftTickets.json._embedded.tickets[0].ticketNumber).toBe(r.json.ticketNumber);
    const d = body.dateTime;
    const cash = await c.rk(
      'POST',
      `${base}/cash`,
      stringify({ datetime: d, operation: 'MONEY_PLACEMENT_DEPOSIT', sum: { bills: 100, coins: 50 } }),
    );
    expect([cash.status, cash.json.balance]).toEqual([200, { bills: 350, coins: 50 }]);
  });
});
