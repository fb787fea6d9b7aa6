// Each fault of research section 10, per register: a lost answer after the commit (found again by its
// external number), a timeout before it (nothing stored), concurrent calls rejected or serialized, an HTML
// 5xx page, 505 with AlternativeDomainNames (the other host name of the same emulator), the OFD offline
// (autonomous signs, 72 h limit, counted by the Z-report), a block mid-shift, tokens expiring mid-batch,
// slow answers, and the fixed per-call latency with one call at a time.
import { describe, expect, it } from 'vitest';
import { sale, ticket, useFiscalEmulator } from './harness.ts';

const client = useFiscalEmulator('faults');
const code = (r: { json: any }) => r.json.Errors?.[0]?.Code;
const REG = 'SWK00033717';

describe('faults', () => {
  it('lost: the receipt is stored, the connection closes unanswered, and a lookup finds the original', async () => {
    const c = client();
    await c.login();
    await c.ok('POST', 'faults', { faults: [{ kind: 'lost', register: REG, path: 'check', times: 1 }] });
    await expect(c.wk('check', sale('lost-1', 500))).rejects.toThrow();
    const found = await c.call(
      'POST',
      '/api-history/v4/Ticket/GetTicketByExternalCheckNumber',
      { Token: c.token, CashboxUniqueNumber: REG, ExternalCheckNumber: 'lost-1' },
      { 'x-api-key': c.e.webkassa.apiKey },
    );
    expect(found.json.Data.Total).toBe(500);
    expect(code(await c.wk('check', sale('lost-1', 500)))).toBe(14);
    expect((await c.ok('GET', 'receipts')).receipts).toHaveLength(1);
  });

  it('timeout: the call hangs, is dropped, and nothing is stored', async () => {
    const c = client();
    await c.login();
    await c.ok('POST', 'faults', { faults: [{ kind: 'timeout', register: REG, ms: 300, times: 1 }] });
    const started = Date.now();
    await expect(c.wk('check', sale('t-1'))).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await c.ok('GET', 'receipts')).receipts).toHaveLength(0);
    expect((await c.wk('check', sale('t-1'))).json.Data).toBeDefined();
  });

  it('concurrency: "reject" refuses a second call in flight (9); "serialize" answers both in turn', async () => {
    const c = client();
    await c.login();
    await c.ok('POST', 'faults', { faults: [{ kind: 'slow', register: REG, ms: 300 }] });
    await c.ok('PATCH', `registers/${REG}`, { concurrency: 'reject' });
    const [a, b] = await Promise.all([c.wk('check', sale('c-1')), c.wk('check', sale('c-2'))]);
    expect([a, b].map(code).sort()).toEqual([9, undefined].sort());
    await c.ok('PATCH', `registers/${REG}`, { concurrency: 'serialize' });
    const started = Date.now();
    const both = await Promise.all([c.wk('check', sale('c-3')), c.wk('check', sale('c-4'))]);
    expect(both.map((r) => r.json.Data.CheckOrderNumber).sort()).toEqual([2, 3]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
  });

  it('http5xx: an HTML error page, then normal answers when used up', async () => {
    const c = client();
    await c.login();
    await c.ok('POST', 'faults', { faults: [{ kind: 'http5xx', status: 502, times: 1 }] });
    const r = await c.wk('check', sale('h-1'));
    expect(r.status).toBe(502);
    expect(r.headers['content-type']).toContain('text/html');
    expect(r.json).toBeUndefined();
    expect((await c.wk('check', sale('h-1'))).json.Data).toBeDefined();
  });

  it('domain_505: code 505 and AlternativeDomainNames on 127.0.0.1; the named host serves the call', async () => {
    const c = client();
    await c.login();
    await c.ok('POST', 'faults', { faults: [{ kind: 'domain_505', host: '127.0.0.1' }] });
    const r = await c.wk('check', sale('d-1'));
    expect(code(r)).toBe(505);
    const alt = String(r.headers.alternativedomainnames);
    expect(alt).toBe(`localhost:${c.e.port}`);
    const again = await c.wk('check', sale('d-1'), { host: alt.split(':')[0] });
    expect(again.json.Data.TicketPrintUrl).toContain(`https://localhost:${c.e.port}/`);
    expect((await c.ok('GET', 'receipts')).receipts).toHaveLength(1);
  });

  it('OFD offline: autonomous receipts, 18 after 72 h, and after reconnecting the Z counts them', async () => {
    const c = client();
    await c.login();
    await c.wk('check', sale('on-1'));
    await c.ok('POST', `registers/${REG}/ofd`, { online: false });
    const off = (await c.wk('check', sale('off-1'))).json.Data;
    expect(off).toMatchObject({ OfflineMode: true, CashboxOfflineMode: true });
    expect(off.CheckNumber).toMatch(/^\d+$/);
    await c.ok('POST', `registers/${REG}/ofd`, { online: false, hours_ago: 73 });
    expect(code(await c.wk('check', sale('off-2')))).toBe(18);
    await c.ok('POST', `registers/${REG}/ofd`, { online: true });
    expect((await c.wk('check', sale('on-2'))).json.Data.OfflineMode).toBe(false);
    const z = (await c.wk('ZReport', { CashboxUniqueNumber: REG })).json.Data;
    expect(z).toMatchObject({ DocumentCount: 3, OfflineDocumentCount: 1, OfflineMode: false });
  });

  it('blocked mid-shift, and a token expiring mid-batch (2, then re-authorized)', async () => {
    const c = client();
    await c.login();
    const results: number[] = [];
    for (let i = 0; i < 4; i++) {
      if (i === 2) await c.ok('POST', 'tokens/expire', { surface: 'webkassa' });
      let r = await c.wk('check', sale(`b-${i}`));
      if (code(r) === 2) {
        results.push(2);
        await c.login();
        r = await c.wk('check', sale(`b-${i}`));
      }
      results.push(r.json.Data.CheckOrderNumber);
    }
    expect(results).toEqual([1, 2, 2, 3, 4]);
    await c.ok('PATCH', `registers/${REG}`, { status: 'blocked' });
    expect(code(await c.wk('check', sale('b-9')))).toBe(7);
    await c.ok('PATCH', `registers/${REG}`, { status: 'active' });
    expect((await c.wk('check', sale('b-9'))).json.Data.ShiftNumber).toBe(1);
  });

  it('slow answers and the fixed latency with one call at a time: a ceiling of one call per latency', async () => {
    const c = client();
    await c.rkLogin();
    await c.ok('POST', 'faults', { faults: [{ kind: 'slow', surface: 'rekassa', ms: 400, times: 1 }] });
    let t = Date.now();
    await c.rk('GET', '/api/crs');
    expect(Date.now() - t).toBeGreaterThanOrEqual(380);
    // The register lets calls overlap, so only the global setting makes them wait for each other.
    await c.ok('PATCH', `registers/${REG}`, { concurrency: 'allow' });
    const six = () =>
      Promise.all(Array.from({ length: 6 }, () => c.rk('POST', `/api/crs/${c.e.rekassa.id}/tickets`, ticket(10))));
    await c.ok('POST', 'settings', { latency_ms: 50 });
    // Overlapping calls each wait their own 50 ms (no upper bound is asserted: a busy machine may be slow).
    t = Date.now();
    expect((await six()).every((r) => r.status === 200)).toBe(true);
    expect(Date.now() - t).toBeGreaterThanOrEqual(50 - 10);
    await c.ok('POST', 'settings', { one_at_a_time: true });
    t = Date.now();
    expect((await six()).every((r) => r.status === 200)).toBe(true);
    expect(Date.now() - t).toBeGreaterThanOrEqual(6 * 50 - 10);
    const calls = (await c.ok('GET', 'calls')).calls;
    expect(calls.filter((x: any) => x.path.endsWith('/tickets'))).toHaveLength(12);
  });

  it('reKassa: a lost ticket is found by its X-Request-ID, re-sent without a second receipt; offline', async () => {
    const c = client();
    await c.rkLogin();
    const p = `/api/crs/${c.e.rekassa.id}/tickets`;
    await c.ok('POST', 'faults', { faults: [{ kind: 'lost', surface: 'rekassa', path: '/tickets', times: 1 }] });
    await expect(c.rk('POST', p, ticket(300), { 'x-request-id': 'rk-lost' })).rejects.toThrow();
    const found = await c.rk('GET', `${p}?externalId=rk-lost`);
    expect(found.json._embedded.tickets).toHaveLength(1);
    const again = await c.rk('POST', p, ticket(300), { 'x-request-id': 'rk-lost' });
    expect(again.json.ticketNumber).toBe(found.json._embedded.tickets[0].ticketNumber);
    expect((await c.ok('GET', 'receipts')).receipts).toHaveLength(1);
    await c.ok('POST', `registers/${REG}/ofd`, { online: false });
    const off = await c.rk('POST', p, ticket(100));
    expect(off.json).toMatchObject({ offline: true, offlineTicketNumber: off.json.ticketNumber });
    expect((await c.rk('GET', `/api/crs/${c.e.rekassa.id}`)).json.fdoMode).toBe('OFFLINE');
    await c.ok('POST', 'tokens/expire', { surface: 'rekassa' });
    const expired = await c.rk('POST', p, ticket(100));
    expect([expired.status, expired.json.code]).toEqual([401, 'TOKEN_EXPIRED']);
  });
});
