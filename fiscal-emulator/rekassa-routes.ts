// reKassa's partner API (research section 2): login with the partner's apiKey and the register's number
// and password, then `Authorization: Bearer`; JSON both ways; errors as {code, message, meta, url} with a
// 4xx/5xx status. reKassa's own error codes are not public: the emulator's are named after the rule.
import { randomUUID } from 'node:crypto';
import { json, type Answer, type ApiRequest } from './api.ts';
import { isoAlmaty } from './dates.ts';
import { field, text } from './jsonc.ts';
import { issueReceipt, isRefusal, moneyOperation, SHIFT_LIMIT_MS, OFFLINE_LIMIT_MS } from './operations.ts';
import { xReport, zReport, shiftExpired, type RefusalKind } from './operations.ts';
import { ofdDate } from './dates.ts';
import { ticketUrl } from './ofds.ts';
import { money, readTicket, toMoney, KIND_OF } from './rekassa-read.ts';
import type { FiscalState, Receipt, Register, Shift } from './state.ts';
import { totalOf } from './validation.ts';

export const REKASSA_ERRORS: Record<RefusalKind, [number, string]> = {
  unknown_register: [404, 'CASH_REGISTER_NOT_FOUND'],
  blocked: [403, 'CASH_REGISTER_BLOCKED'],
  not_activated: [403, 'CASH_REGISTER_NOT_ACTIVATED'],
  shift_expired: [400, 'SHIFT_EXPIRED'],
  shift_closed: [400, 'SHIFT_ALREADY_CLOSED'],
  no_shift: [400, 'SHIFT_NOT_OPEN'],
  duplicate: [409, 'DUPLICATE'],
  offline_expired: [400, 'OFFLINE_PERIOD_EXPIRED'],
  no_basis: [400, 'PARENT_TICKET_REQUIRED'],
  invalid: [400, 'VALIDATION_ERROR'],
  not_enough_cash: [400, 'NOT_ENOUGH_CASH'],
  busy: [409, 'CONCURRENT_REQUEST'],
};

/** How far the client's dateTime may be from the register's clock. */
export const CLOCK_SKEW_MS = 5 * 60_000;

export const error = (status: number, code: string, message: string, url: string, meta: object = {}): Answer =>
  json(status, { code, message, meta, url });

const STATUS = { active: 'ACTIVE', blocked: 'BLOCKED', 'not-activated': 'NEW', deregistered: 'DEREGISTERED' };
const KIND_NAME = Object.fromEntries(Object.entries(KIND_OF).map(([k, v]) => [v, k]));
const PAYMENT_NAME: Record<number, string> = { 0: 'PAYMENT_CASH', 1: 'PAYMENT_CARD', 4: 'PAYMENT_MOBILE' };

const fdo = (r: Register) => ({ code: r.ofd.code, nameRu: r.ofd.name, nameKk: r.ofd.nameKz, url: r.ofd.consumerUrl });
const maybeTime = (ms: number | null) => (ms === null ? null : isoAlmaty(ms));

export function cashRegister(s: FiscalState, r: Register) {
  const open = r.shift;
  return {
    id: r.id,
    serialNumber: r.uniqueNumber,
    registrationNumber: r.registrationNumber,
    name: r.name,
    status: STATUS[r.status],
    fdo: fdo(r),
    fdoMode: r.offlineSince === null ? 'ONLINE' : 'OFFLINE',
    shiftNumber: open?.number ?? r.shifts.at(-1)?.number ?? 0,
    shiftOpen: open !== null,
    shiftOpenTime: maybeTime(open?.openedAt ?? null),
    shiftExpireTime: maybeTime(open ? open.openedAt + SHIFT_LIMIT_MS : null),
    shiftExpired: shiftExpired(s, r),
    offlineStartTime: maybeTime(r.offlineSince),
    offlineExpireTime: maybeTime(r.offlineSince === null ? null : r.offlineSince + OFFLINE_LIMIT_MS),
    blockStartTime: null,
    data: {
      configuration: { taxMode: 'VAT_PAYER', taxationType: 'STS', timezone: 'Asia/Almaty' },
      preferences: { paymentTypes: ['PAYMENT_CASH', 'PAYMENT_CARD', 'PAYMENT_MOBILE'] },
      service: {
        regInfo: {
          kkm: { fnsKkmId: r.registrationNumber, serialNumber: r.uniqueNumber },
          org: { inn: '990140001233', title: 'ТОО Tolem Emulator', address: r.address },
          pos: { title: r.name, address: r.address },
        },
      },
    },
  };
}

function ticketBody(r: Register, rc: Receipt, base: string) {
  const d = rc.draft;
  return {
    id: rc.ticketId,
    ticketNumber: rc.fiscalSign,
    qrCode: ticketUrl(r.ofd, rc.fiscalSign, r.registrationNumber, rc.totalTiyn, ofdDate(rc.at)),
    status: 'OK',
    offline: rc.offline,
    offlineTicketNumber: rc.offline ? rc.fiscalSign : null,
    shiftNumber: rc.shiftNumber,
    shiftDocumentNumber: rc.orderNumber,
    shiftMessageNumber: rc.orderNumber,
    messageTime: isoAlmaty(rc.at),
    // Annulment is banned from 2026-01-01: no receipt can be cancelled, a return is the only way back.
    cancelable: false,
    externalId: rc.externalId,
    fdo: fdo(r),
    _links: { self: { href: `${base}/api/crs/${r.id}/tickets/${rc.ticketId}` } },
    data: {
      ticket: {
        operation: KIND_NAME[rc.kind],
        items: d.lines.map((l) => ({
          type: 'ITEM_TYPE_COMMODITY',
          commodity: {
            name: l.name,
            sectionCode: l.sectionCode,
            quantity: l.quantityMilli,
            price: toMoney(l.priceTiyn),
            sum: toMoney(l.sumTiyn),
            measureUnitCode: String(l.unitCode),
            ntin: l.ntin,
            barcode: l.gtin,
            exciseStamp: l.marks[0] ?? null,
            taxes:
              l.vatPercent === null
                ? []
                : [{ taxType: 100, percent: l.vatPercent * 1000, sum: toMoney(l.taxTiyn), isInTotalSum: true }],
          },
        })),
        payments: d.payments.map((p) => ({ type: PAYMENT_NAME[p.type] ?? 'PAYMENT_CASH', sum: toMoney(p.sumTiyn) })),
        amounts: {
          total: toMoney(rc.totalTiyn),
          taken: toMoney(rc.totalTiyn + rc.changeTiyn),
          change: toMoney(rc.changeTiyn),
        },
      },
    },
  };
}

function shiftBody(r: Register, sh: Shift, now: number) {
  const t = sh.totals;
  return {
    shiftNumber: sh.number,
    open: sh.closedAt === null,
    openTime: isoAlmaty(sh.openedAt),
    closeTime: maybeTime(sh.closedAt),
    expireTime: isoAlmaty(sh.openedAt + SHIFT_LIMIT_MS),
    cashRegisterId: r.id,
    ticketsCount: sh.documents,
    offlineTicketsCount: sh.offlineDocuments,
    data: {
      sell: { count: t.sale.count, sum: toMoney(t.sale.totalTiyn) },
      sellReturn: { count: t.sale_return.count, sum: toMoney(t.sale_return.totalTiyn) },
      buy: { count: t.buy.count, sum: toMoney(t.buy.totalTiyn) },
      buyReturn: { count: t.buy_return.count, sum: toMoney(t.buy_return.totalTiyn) },
      deposits: { count: sh.putCount, sum: toMoney(sh.putTiyn) },
      withdrawals: { count: sh.takeCount, sum: toMoney(sh.takeTiyn) },
    },
    reportTime: isoAlmaty(sh.closedAt ?? now),
  };
}

const page = <T>(name: string, all: T[], q: URLSearchParams) => {
  const size = Math.max(1, Number(q.get('size') ?? 20) || 20);
  const number = Math.max(0, Number(q.get('page') ?? 0) || 0);
  return {
    _embedded: { [name]: all.slice(number * size, number * size + size) },
    page: { size, totalElements: all.length, totalPages: Math.ceil(all.length / size), number },
  };
};

interface Ctx {
  s: FiscalState;
  req: ApiRequest;
  r: Register;
  url: string;
}

const refused = (c: Ctx, kind: RefusalKind, message: string) =>
  error(REKASSA_ERRORS[kind][0], REKASSA_ERRORS[kind][1], message, c.url);

function createTicket(c: Ctx): Answer {
  if (!c.req.body) return error(400, 'VALIDATION_ERROR', 'the body is not JSON', c.url);
  const t = readTicket(c.req.body);
  if (typeof t === 'string') return refused(c, 'invalid', t);
  if (!(Math.abs(t.at - c.s.now()) <= CLOCK_SKEW_MS))
    return error(400, 'DATE_TIME_INVALID', 'dateTime is missing or too far from the current time', c.url);
  if (t.totalTiyn !== totalOf(t.draft)) return refused(c, 'invalid', 'amounts.total is not the sum of the items');
  const requestId = c.req.headers['x-request-id'];
  const rid = typeof requestId === 'string' && requestId ? requestId : randomUUID();
  // With de-duplication off the same X-Request-ID makes a new ticket each time, as a service that ignores it.
  let external = rid;
  for (let n = 2; c.r.receipts.has(external); n++) external = `${rid}#${n}`;
  const rc = issueReceipt(c.s, c.r, t.draft, external, 'rekassa');
  if (isRefusal(rc)) return refused(c, rc.refused, rc.message);
  // 200, not 201: public clients take only 200 as success (research RK1).
  return json(200, ticketBody(c.r, rc, c.req.base));
}

function receiptById(c: Ctx, id: string) {
  return [...c.r.receipts.values()].find((rc) => String(rc.ticketId) === id);
}

function listTickets(c: Ctx): Answer {
  const ext = c.req.query.get('externalId');
  const all = [...c.r.receipts.values()].filter(
    (rc) => ext === null || rc.externalId === ext || rc.externalId.startsWith(`${ext}#`),
  );
  return json(
    200,
    page(
      'tickets',
      all.map((rc) => ticketBody(c.r, rc, c.req.base)),
      c.req.query,
    ),
  );
}

function closeShift(c: Ctx, n: number): Answer {
  if (c.req.headers['cash-register-password'] !== c.r.rekassa.pin)
    return error(403, 'WRONG_CASH_REGISTER_PASSWORD', 'cash-register-password is missing or wrong', c.url);
  if (!c.r.shifts.some((s) => s.number === n)) return error(404, 'SHIFT_NOT_FOUND', `no shift ${n}`, c.url);
  if (c.r.shift?.number !== n) return refused(c, 'shift_closed', `shift ${n} is already closed`);
  const sh = zReport(c.s, c.r);
  if (isRefusal(sh)) return refused(c, sh.refused, sh.message);
  return json(200, shiftBody(c.r, sh, c.s.now()));
}

function cash(c: Ctx): Answer {
  const b = c.req.body;
  if (!b) return error(400, 'VALIDATION_ERROR', 'the body is not JSON', c.url);
  const op = b.operation;
  if (op !== 'MONEY_PLACEMENT_DEPOSIT' && op !== 'MONEY_PLACEMENT_WITHDRAWAL')
    return refused(c, 'invalid', 'operation must be MONEY_PLACEMENT_DEPOSIT or MONEY_PLACEMENT_WITHDRAWAL');
  let sum: number;
  try {
    sum = money(b.sum, 'sum');
  } catch (err) {
    return refused(c, 'invalid', (err as Error).message);
  }
  const rid = c.req.headers['x-request-id'];
  const done = moneyOperation(
    c.s,
    c.r,
    op === 'MONEY_PLACEMENT_DEPOSIT' ? 'in' : 'out',
    sum,
    typeof rid === 'string' && rid ? rid : randomUUID(),
  );
  if (isRefusal(done)) return refused(c, done.refused, done.message);
  return json(200, {
    operation: op,
    sum: toMoney(done.sumTiyn),
    shiftNumber: done.shiftNumber,
    offline: done.offline,
    balance: toMoney(done.balanceTiyn),
    datetime: isoAlmaty(done.at),
  });
}

/** The register a reKassa path names, for its faults and queue. */
export function rekassaRegister(s: FiscalState, path: string): Register | undefined {
  const m = /^\/api\/crs\/(\d+)/.exec(path);
  return m ? s.registerById(Number(m[1])) : undefined;
}

export const isRekassaPath = (p: string) => /^\/api\/(auth\/login|crs)(\/|$)/.test(p);

/** The same X-Request-ID on a mutating call answers what the first one got (when the switch is on). */
export function rekassa(s: FiscalState, req: ApiRequest, apiKey: string): Answer {
  const url = req.path;
  const path = req.path.replace(/\/+$/, '');
  if (path === '/api/auth/login') {
    if (req.method !== 'POST') return error(405, 'METHOD_NOT_ALLOWED', 'only POST', url);
    if (req.query.get('apiKey') !== apiKey) return error(401, 'INVALID_API_KEY', 'apiKey is missing or unknown', url);
    const r = [...s.registers.values()].find(
      (x) => x.rekassa.number === text(req.body, 'number') && x.rekassa.password === field(req.body, 'password'),
    );
    if (!r) return error(401, 'BAD_CREDENTIALS', 'wrong number or password', url);
    const token = s.issueToken('rekassa', r.uniqueNumber);
    // Without format=json the answer is the bare token, as clients that omit it read it (research RK1).
    if (req.query.get('format') !== 'json') return { status: 200, body: null, text: token };
    return json(200, { id: r.id, serialNumber: r.uniqueNumber, token });
  }
  const auth = String(req.headers.authorization ?? '');
  const subject = s.tokenSubject('rekassa', auth.replace(/^Bearer\s+/i, ''));
  if (subject === 'expired') return error(401, 'TOKEN_EXPIRED', 'the token has expired', url);
  if (subject === 'unknown') return error(401, 'UNAUTHORIZED', 'a Bearer token is required', url);
  const own = s.registers.get(subject);
  if (!own) return error(401, 'UNAUTHORIZED', 'the token names no register', url);
  if (req.method === 'GET' && path === '/api/crs')
    return json(200, {
      _embedded: {
        userCashRegisterRoles: [
          {
            cashRegister: cashRegister(s, own),
            organization: { businessId: '990140001233', businessName: 'ТОО Tolem Emulator' },
            roles: ['OWNER'],
          },
        ],
      },
    });
  const m = /^\/api\/crs\/(\d+)(\/.*)?$/.exec(path);
  if (!m) return error(404, 'NOT_FOUND', 'no such path', url);
  const r = s.registerById(Number(m[1]));
  if (!r) return refused({ s, req, r: own, url }, 'unknown_register', `no register ${m[1]}`);
  if (r !== own) return error(403, 'FORBIDDEN', 'the token belongs to another register', url);
  const c: Ctx = { s, req, r, url };
  const rest = m[2] ?? '';
  const key = `${req.method} ${rest.replace(/\/\d+/g, '/{n}')}`;
  const mutating = req.method === 'POST';
  const rid = req.headers['x-request-id'];
  const dedupKey = `${r.id} ${key} ${typeof rid === 'string' ? rid : ''}`;
  if (mutating && s.settings.rekassaRequestIdDedup && typeof rid === 'string' && rid) {
    const seen = s.requestIds.get(dedupKey);
    if (seen) return json(seen.status, seen.body);
  }
  const answer = route(c, key, rest);
  if (mutating && typeof rid === 'string' && rid && answer.status < 300)
    s.requestIds.set(dedupKey, { status: answer.status, body: answer.body });
  return answer;
}

function route(c: Ctx, key: string, rest: string): Answer {
  const num = (i: number) => rest.split('/').filter(Boolean)[i] ?? '';
  switch (key) {
    case 'GET ':
    case 'GET /with-roles':
      return json(200, cashRegister(c.s, c.r));
    case 'POST /tickets':
      return createTicket(c);
    case 'GET /tickets':
      return listTickets(c);
    case 'GET /tickets/{n}': {
      const rc = receiptById(c, num(1));
      return rc ? json(200, ticketBody(c.r, rc, c.req.base)) : error(404, 'TICKET_NOT_FOUND', 'no such ticket', c.url);
    }
    case 'POST /tickets/{n}/cancel':
      return error(400, 'TICKET_NOT_CANCELABLE', 'annulment is not allowed; issue a return', c.url);
    case 'GET /shifts': {
      const includeOpen = c.req.query.get('includeOpen') !== 'false';
      const all = c.r.shifts.filter((s) => includeOpen || s.closedAt !== null).reverse();
      return json(
        200,
        page(
          'shifts',
          all.map((s) => shiftBody(c.r, s, c.s.now())),
          c.req.query,
        ),
      );
    }
    case 'GET /shifts/{n}': {
      const sh = c.r.shifts.find((s) => s.number === Number(num(1)));
      return sh ? json(200, shiftBody(c.r, sh, c.s.now())) : error(404, 'SHIFT_NOT_FOUND', 'no such shift', c.url);
    }
    case 'GET /shifts/{n}/tickets': {
      const n = Number(num(1));
      const all = [...c.r.receipts.values()].filter((rc) => rc.shiftNumber === n);
      return json(
        200,
        page(
          'tickets',
          all.map((rc) => ticketBody(c.r, rc, c.req.base)),
          c.req.query,
        ),
      );
    }
    case 'GET /shifts/{n}/reports/x': {
      const sh = xReport(c.s, c.r);
      if (isRefusal(sh)) return refused(c, sh.refused, sh.message);
      if (sh.number !== Number(num(1))) return refused(c, 'no_shift', `shift ${num(1)} is not open`);
      return json(200, shiftBody(c.r, sh, c.s.now()));
    }
    case 'POST /shifts/{n}/close':
      return closeShift(c, Number(num(1)));
    case 'POST /cash':
      return cash(c);
    default:
      return error(404, 'NOT_FOUND', 'no such path', c.url);
  }
}
