// GET /me/reports/payments.csv|.xlsx (decisions 28): every payment of a range, oldest first, with the sale
// receipt's status and fiscal sign; the range rules; roles and tenants; and the streaming itself: rows read in
// keyset batches (none repeated or skipped among payments of one millisecond), reading that waits for a slow
// client and stops for a client that went away.
import { randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { api, headersOf, type Caller } from '../helpers/api.ts';
import { errorOf, newMerchant, type Merchant } from '../helpers/factories.ts';
import { newMember } from '../helpers/actors.ts';
import { createQr, pay } from '../helpers/payments.ts';
import { issueReceipts, newRegister } from '../helpers/fiscal.ts';
import { csvReport, REPORT_COLUMNS, xlsxReport } from '../../src/domain/payments/report-export.ts';
import { reportRows, type ReportRow } from '../../src/domain/payments/report-rows.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/**
 * A GET of a report. Not the typed `api()`: the SDK's generated paths (packages/sdk/src/schema.ts) do not have
 * these routes until it is regenerated.
 */
async function get(who: Caller, url: string) {
  const raw = await t.app.inject({ method: 'GET', url, headers: headersOf(who) });
  const json = String(raw.headers['content-type'] ?? '').includes('json');
  return { status: raw.statusCode, body: json ? raw.json() : raw.body, headers: raw.headers, raw };
}

/** Today's calendar date in Kazakhstan (UTC+5), moved by `days`. */
const kzDay = (days: number) => new Date(Date.now() + 5 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);
const RANGE = () => `mode=test&from=${kzDay(-1)}&to=${kzDay(1)}`;

/** Moves a payment's creation time: the store's clock is the only way to have payments of other days. */
async function createdAt(opId: string, at: string) {
  await t.runtime.deps.db.query('UPDATE operations SET created_at = $2 WHERE id = $1', [opId, at]);
}

async function shop(): Promise<{ m: Merchant; paid: string; open: string; old: string }> {
  const m = await newMerchant(t.app);
  await newRegister(t, m);
  const paid = (await createQr(t.app, m.testKey, 12_500, { comment: '=SUM(A1)' })).operation_id;
  await pay(t.app, m.testKey, paid, { sender_name: 'Айгерім' });
  await issueReceipts(t);
  const open = (await createQr(t.app, m.testKey, 700)).operation_id;
  const old = (await createQr(t.app, m.testKey, 300)).operation_id;
  await createdAt(old, '2020-01-01T00:00:00Z');
  // Oldest first: the paid one before the open one even when both are of one millisecond.
  await createdAt(open, new Date(Date.now() + 1000).toISOString());
  return { m, paid, open, old };
}

describe('GET /me/reports/payments.csv', () => {
  it('streams the range oldest first with the receipt columns; excel-ru as the capped export', async () => {
    const { m, paid, open, old } = await shop();
    const other = await newMerchant(t.app);
    const foreign = (await createQr(t.app, other.testKey, 999)).operation_id;
    const res = await get(m, `/me/reports/payments.csv?${RANGE()}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="payments-test-${kzDay(-1)}-${kzDay(1)}.csv"`,
    );
    const lines = (res.body as string).trim().split('\n');
    expect(lines[0]).toBe(REPORT_COLUMNS.join(','));
    expect(lines).toHaveLength(3);
    expect(lines[1].startsWith(`${paid},qr,paid,12500,0,'=SUM(A1),`)).toBe(true);
    expect(lines[1]).toMatch(/,issued,\S+$/);
    expect(lines[2].startsWith(`${open},qr,created,700,`)).toBe(true);
    expect(lines[2].endsWith(',,')).toBe(true);
    expect(res.body).not.toContain(old);
    expect(res.body).not.toContain(foreign);
    // The old payment is in a range of its own day.
    const then = await get(m, '/me/reports/payments.csv?mode=test&from=2019-12-31&to=2020-01-02');
    expect((then.body as string).trim().split('\n').slice(1)).toHaveLength(1);
    expect(then.body).toContain(old);
    // Live mode has none of the test payments.
    const live = await get(m, `/me/reports/payments.csv?from=${kzDay(-1)}&to=${kzDay(1)}`);
    expect((live.body as string).trim().split('\n')).toHaveLength(1);
    const ru = await get(m, `/me/reports/payments.csv?${RANGE()}&format=excel-ru`);
    const raw = ru.raw.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = raw.subarray(3).toString('utf8');
    expect(text.split('\r\n')[0]).toBe(REPORT_COLUMNS.join(';'));
    expect(text).toMatch(/;\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2};/);
  });

  it('takes dates or instants, to exclusive, at most 366 days; refuses the rest with invalid_parameter', async () => {
    const m = await newMerchant(t.app);
    const ok = async (q: string) => (await get(m, `/me/reports/payments.csv?mode=test&${q}`)).status;
    const refused = async (q: string) => {
      const res = await get(m, `/me/reports/payments.csv?mode=test&${q}`);
      expect(res.status, q).toBe(400);
      const e = errorOf(res);
      expect(e.code, q).toBe('invalid_parameter');
      return e.param;
    };
    expect(await ok('from=2025-01-01&to=2026-01-02')).toBe(200); // 366 days
    expect(await ok('from=2026-05-01T00:00:00%2B05:00&to=2026-05-01T12:00:00Z')).toBe(200);
    expect(await refused('from=2025-01-01&to=2026-01-03')).toBe('to');
    expect(await refused('from=2026-05-02&to=2026-05-01')).toBe('to');
    expect(await refused('from=2026-05-01&to=2026-05-01')).toBe('to');
    expect(await refused('from=2026-05-01')).toBe('to');
    expect(await refused('to=2026-05-01')).toBe('from');
    expect(await refused('from=2026-02-30&to=2026-03-01')).toBe('from');
    expect(await refused('from=2026-05-01T00:00:00&to=2026-05-02')).toBe('from');
    expect(await refused('from=2026-05-01&to=2026-05-02&format=xml')).toBe('format');
    const x = await get(m, '/me/reports/payments.xlsx?mode=test&from=2025-01-01&to=2026-01-03');
    expect(errorOf(x)).toMatchObject({ code: 'invalid_parameter', param: 'to' });
  });

  it('roles: a viewer is refused like the capped export, an accountant exports', async () => {
    const m = await newMerchant(t.app);
    const viewer = await newMember(t.app, m, 'viewer');
    const accountant = await newMember(t.app, m, 'accountant');
    for (const ext of ['csv', 'xlsx']) {
      const url = `/me/reports/payments.${ext}?${RANGE()}`;
      const no = await get(viewer, url);
      expect(no.status, ext).toBe(403);
      expect(errorOf(no).code).toBe('forbidden_role');
      expect((await get(accountant, url)).status, ext).toBe(200);
    }
  });
});

describe('GET /me/reports/payments.xlsx', () => {
  it('is a workbook of the same rows: numbers, Kazakhstan times as dates, the receipt', async () => {
    const { m, paid, open, old } = await shop();
    const res = await get(m, `/me/reports/payments.xlsx?${RANGE()}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="payments-test-.+\.xlsx"$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    const rows = sheet.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0].slice(1)).toEqual([...REPORT_COLUMNS]);
    expect(rows).toHaveLength(3);
    const col = (name: string) => REPORT_COLUMNS.indexOf(name as never) + 1;
    expect(rows[1][col('operation_id')]).toBe(paid);
    expect(rows[1][col('amount')]).toBe(12_500);
    expect(rows[1][col('comment')]).toBe(`'=SUM(A1)`);
    expect(rows[1][col('sender_name')]).toBe('Айгерім');
    expect(rows[1][col('receipt_status')]).toBe('issued');
    expect(rows[1][col('fiscal_sign')]).toEqual(expect.any(String));
    expect(rows[2][col('operation_id')]).toBe(open);
    expect(rows[2][col('receipt_status')]).toBeUndefined();
    const created = rows[1][col('created_at')] as Date;
    expect(created).toBeInstanceOf(Date);
    // The cell shows Kazakhstan's wall-clock time: 5 hours ahead of the instant.
    const listed = await api(t.app, m).get(`/me/payments/status/${paid}?mode=test`);
    const at = new Date((listed.body as { created_at: string }).created_at).getTime();
    expect(created.getTime() - at).toBe(5 * 3600_000);
    expect(JSON.stringify(rows)).not.toContain(old);
  });
});

describe('reading in batches', () => {
  it('repeats and skips no payment among many of one millisecond, across batches', async () => {
    const m = await newMerchant(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await createQr(t.app, m.testKey, 100 + i)).operation_id);
    // Microseconds apart within one millisecond: a key cut to milliseconds would repeat or skip some.
    for (const [i, id] of ids.entries())
      await createdAt(id, `2026-03-01T10:00:00.123${String(i * 7 + 1).padStart(3, '0')}Z`);
    const me = (await api(t.app, m).get('/me')).body as { id: number };
    const seen: string[] = [];
    let batches = 0;
    const range = { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z') };
    for await (const b of reportRows(t.runtime.deps, { clientId: me.id, mode: 'test' }, range, 2)) {
      batches++;
      seen.push(...b.map((r) => r.id));
    }
    expect(batches).toBe(4);
    expect(seen).toEqual(ids);
  });
});

/** Batches of made-up rows, counting how many were pulled. */
function counted(total: number) {
  const row: ReportRow = {
    id: 'op_x',
    type: 'qr',
    status: 'paid',
    amount: 100,
    refunded_amount: 0,
    comment: null,
    phone: null,
    sender_name: null,
    transaction_id: null,
    source: 'api',
    created_at: new Date(),
    paid_at: null,
    receipt_status: null,
    fiscal_sign: null,
  };
  const state = { pulled: 0 };
  async function* gen() {
    for (; state.pulled < total; ) {
      state.pulled++;
      // Random comments: made-up rows that compress like real ones, not a thousandfold.
      yield Array.from({ length: 1000 }, (_, i) => ({
        ...row,
        id: `op_${state.pulled}_${i}`,
        comment: randomBytes(40).toString('base64'),
      }));
    }
  }
  return { state, batches: gen() };
}

const settle = () => new Promise((r) => setTimeout(r, 200));

/** Waits until no batch has been pulled for a while (at most 5 s) and returns how many were. */
async function stalled(state: { pulled: number }): Promise<number> {
  for (let i = 0, last = -1; i < 25; i++, await settle()) {
    if (state.pulled === last) break;
    last = state.pulled;
  }
  return state.pulled;
}

describe('back-pressure and a client gone', () => {
  it('CSV: nothing is read past what an unread response buffers; destroying it stops the reading', async () => {
    const { state, batches } = counted(500);
    const stream = Readable.from(csvReport(batches, 'csv'));
    stream.once('data', () => stream.pause());
    expect(await stalled(state)).toBeLessThan(40);
    stream.destroy();
    await settle();
    const after = state.pulled;
    await settle();
    expect(state.pulled).toBe(after);
    expect(after).toBeLessThan(500);
  });

  it('XLSX: the writer waits for an unread response and returns when it is closed', async () => {
    const { state, batches } = counted(500);
    const out = new PassThrough();
    const done = xlsxReport(batches, out);
    const waiting = await stalled(state);
    expect(waiting).toBeLessThan(40);
    await settle();
    expect(state.pulled).toBe(waiting);
    out.destroy();
    await done;
    expect(state.pulled).toBeLessThan(500);
  });
});
