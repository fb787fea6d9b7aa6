// Webkassa API v4 (research section 1): every call a POST of JSON with `x-api-key`, the token in the body,
// answers at HTTP 200 as {Data} or {Errors:[{Code,Text}]}. Paths are matched in any case, as ASP.NET does.
import { randomUUID } from 'node:crypto';
import { json, type Answer, type ApiRequest } from './api.ts';
import { tiyn } from './draft.ts';
import { webkassaDate } from './dates.ts';
import { field, text, type Obj } from './jsonc.ts';
import { issueReceipt, isRefusal, moneyOperation, xReport, zReport, type RefusalKind } from './operations.ts';
import type { FiscalState, Register } from './state.ts';
import { readCheck } from './webkassa-read.ts';
import {
  cashboxBlock,
  checkData,
  historyItem,
  OPERATION_TEXT,
  printLines,
  receiptUrl,
  reportData,
} from './webkassa-shapes.ts';

export const WEBKASSA_CODES: Record<RefusalKind, number> = {
  unknown_register: 6,
  blocked: 7,
  not_enough_cash: 8,
  invalid: 9,
  busy: 9,
  not_activated: 10,
  shift_expired: 11,
  shift_closed: 12,
  no_shift: 13,
  duplicate: 14,
  offline_expired: 18,
  no_basis: 255,
};

export const data = (Data: unknown): Answer => json(200, { Data });
export const errors = (Code: number, Text: string, extra: Obj = {}): Answer =>
  json(200, { Errors: [{ Code, Text }], ...extra });

export const NO_REGISTER = 'Касса не зарегистрирована в системе или не доступна пользователю';

/** Paths of the collection the emulator does not serve (portal, couriers, employees): named, not faked. */
export const NOT_EMULATED = [
  '/api-history/v4/reports/reportbyshiftsandsections',
  '/api/v4/employee/list',
  '/api-portal/v4/permission/by-organization',
  '/api-portal/v4/organization/main-info',
  '/api-history/v4/ticket/getticketgroupurl',
  '/api/v4/courier/uploadexternalorder',
  '/api/v4/cashbox/changetoken',
  '/api-portal/v4/employee/create',
  '/api-portal/v4/employee/edit',
  '/api-portal/v4/employee/remove',
  '/api-portal/v4/employee/employees-and-cashboxes',
];

const UNITS = [
  [796, 'шт', 'pcs', 'дана'],
  [166, 'кг', 'kg', 'кг'],
  [112, 'литр', 'liter', 'литр'],
  [6, 'м', 'm', 'м'],
  [55, 'м2', 'm2', 'м2'],
  [113, 'м3', 'm3', 'м3'],
  [168, 'тонн.', 'tons.', 'тонн.'],
  [778, 'упак.', 'pack', 'орама'],
  [5114, 'одн.усл.', 'one', 'бір қызмет'],
  [356, 'час', 'hour', 'сағат'],
].map(([Code, NameRu, NameEn, NameKz]) => ({ Code, NameRu, NameEn, NameKz }));

const CURRENT_STATUS = { 'not-activated': 0, active: 1, blocked: 2, deregistered: 5 } as const;

interface Ctx {
  s: FiscalState;
  req: ApiRequest;
  b: Obj;
  login: string;
}

/** The register the body names, if the user may use it. */
function register(c: Ctx): Register | Answer {
  const n = text(c.b, 'CashboxUniqueNumber');
  const r = n === undefined ? undefined : c.s.registers.get(n);
  const user = c.s.users.get(c.login);
  if (!r || !user || !(user.registers.includes('*') || user.registers.includes(r.uniqueNumber)))
    return errors(6, NO_REGISTER);
  return r;
}
const isAnswer = (v: unknown): v is Answer => Boolean(v) && typeof (v as Answer).status === 'number';

const refusal = (kind: RefusalKind, message: string, extra: Obj = {}) => errors(WEBKASSA_CODES[kind], message, extra);

function check(c: Ctx): Answer {
  const r = register(c);
  if (isAnswer(r)) return r;
  const draft = readCheck(c.b);
  if (typeof draft === 'string') return errors(9, draft);
  const external = text(c.b, 'ExternalCheckNumber') || randomUUID();
  const rc = issueReceipt(c.s, r, draft, external, 'webkassa');
  if (!isRefusal(rc)) return data(checkData(r, rc, c.req.base));
  // A repeated ExternalCheckNumber: the original stays the only receipt; some versions also send its Data.
  if (rc.refused === 'duplicate' && rc.receipt && c.s.settings.duplicateMode === 'error_with_data')
    return refusal('duplicate', rc.message, { Data: checkData(r, rc.receipt, c.req.base) });
  return refusal(rc.refused, rc.message);
}

function money(c: Ctx): Answer {
  const r = register(c);
  if (isAnswer(r)) return r;
  const type = field(c.b, 'OperationType');
  if (type !== 0 && type !== 1) return errors(9, 'OperationType must be 0 (cash in) or 1 (cash out)');
  const sum = tiyn(field(c.b, 'Sum'), 'Sum');
  if (typeof sum === 'string') return errors(9, sum);
  const op = moneyOperation(c.s, r, type === 0 ? 'in' : 'out', sum, text(c.b, 'ExternalCheckNumber') || randomUUID());
  if (isRefusal(op)) return refusal(op.refused, op.message);
  return data({
    OfflineMode: op.offline,
    CashboxOfflineMode: r.offlineSince !== null,
    ShiftNumber: op.shiftNumber,
    DateTime: webkassaDate(op.at),
    DateTimeUTC: `${webkassaDate(op.at)} +05:00`,
    Sum: op.balanceTiyn / 100,
    Cashbox: cashboxBlock(r),
  });
}

function report(c: Ctx, close: boolean): Answer {
  const r = register(c);
  if (isAnswer(r)) return r;
  const shift = close ? zReport(c.s, r) : xReport(c.s, r);
  if (isRefusal(shift)) return refusal(shift.refused, shift.message);
  return data(reportData(r, shift, c.s.now()));
}

function byExternal(c: Ctx, r: Register) {
  const rc = r.receipts.get(text(c.b, 'ExternalCheckNumber') ?? '');
  const shift = field(c.b, 'ShiftNumber');
  return rc && (typeof shift !== 'number' || shift === rc.shiftNumber) ? rc : undefined;
}

function ticketByExternal(c: Ctx): Answer {
  const r = register(c);
  if (isAnswer(r)) return r;
  const rc = byExternal(c, r);
  if (!rc) return errors(19, 'Чек с указанным внешним номером не найден');
  return data({
    CheckNumber: rc.fiscalSign,
    DateTime: webkassaDate(rc.at),
    ShiftNumber: rc.shiftNumber,
    CheckOrderNumber: rc.orderNumber,
    Total: rc.totalTiyn / 100,
    IsOffline: rc.offline,
    ExternalCheckNumber: rc.externalId,
    OperationType: historyItem(r, rc, c.req.base).OperationType,
    TicketUrl: receiptUrl(r, rc),
  });
}

function printFormat(c: Ctx): Answer {
  const r = register(c);
  if (isAnswer(r)) return r;
  const rc = byExternal(c, r);
  if (!rc) return errors(19, 'Чек с указанным внешним номером не найден');
  return data({ Lines: printLines(r, rc) });
}

const page = (b: Obj, take: number) => {
  const skip = Math.max(0, Number(field(b, 'Skip') ?? 0) || 0);
  return { skip, take: Math.max(0, Number(field(b, 'Take') ?? take) || take) };
};

function history(c: Ctx): Answer {
  const r = register(c);
  if (isAnswer(r)) return r;
  const shift = field(c.b, 'ShiftNumber') ?? r.shift?.number ?? r.shifts.at(-1)?.number;
  const all = [...r.receipts.values()].filter((rc) => rc.shiftNumber === shift);
  const { skip, take } = page(c.b, 50);
  return data({
    Skip: skip,
    Take: take,
    Total: all.length,
    Items: all.slice(skip, skip + take).map((rc) => historyItem(r, rc, c.req.base)),
    CashboxUniqueNumber: r.uniqueNumber,
    CashboxRegistrationNumber: r.registrationNumber,
    CashboxIdentityNumber: r.identityNumber,
    Ofd: { Name: r.ofd.name, Host: r.ofd.host, Code: r.ofd.code },
  });
}

function historyByNumber(c: Ctx): Answer {
  const r = register(c);
  if (isAnswer(r)) return r;
  const number = text(c.b, 'Number');
  const shift = field(c.b, 'ShiftNumber');
  const rc = [...r.receipts.values()].find(
    (x) => x.fiscalSign === number && (typeof shift !== 'number' || x.shiftNumber === shift),
  );
  return rc ? data(historyItem(r, rc, c.req.base)) : errors(16, 'Чек не найден');
}

function shiftHistory(c: Ctx): Answer {
  const r = register(c);
  if (isAnswer(r)) return r;
  const { skip, take } = page(c.b, 50);
  return data({
    CashboxUniqueNumber: r.uniqueNumber,
    Skip: skip,
    Take: take,
    Total: r.shifts.length,
    Shifts: r.shifts.slice(skip, skip + take).map((s) => ({
      ShiftNumber: s.number,
      OpenDate: webkassaDate(s.openedAt),
      ...(s.closedAt === null ? {} : { CloseDate: webkassaDate(s.closedAt) }),
    })),
  });
}

function zHistory(c: Ctx): Answer {
  const r = register(c);
  if (isAnswer(r)) return r;
  const closed = r.shifts.filter((s) => s.closedAt !== null);
  const { skip, take } = page(c.b, 50);
  return data({
    CashboxUniqueNumber: r.uniqueNumber,
    Skip: skip,
    Take: take,
    Total: closed.length,
    Reports: closed.slice(skip, skip + take).map((s) => reportData(r, s, c.s.now())),
  });
}

function shiftNamed(c: Ctx, r: Register) {
  return r.shifts.find((s) => s.number === field(c.b, 'ShiftNumber'));
}

function zByShift(c: Ctx): Answer {
  const r = register(c);
  if (isAnswer(r)) return r;
  const s = shiftNamed(c, r);
  if (!s) return errors(15, 'Смена не найдена');
  if (s.closedAt === null) return errors(1014, 'Z-отчет отсутствует: смена ещё открыта');
  return data(reportData(r, s, c.s.now()));
}

function controlTape(c: Ctx): Answer {
  const r = register(c);
  if (isAnswer(r)) return r;
  const s = shiftNamed(c, r);
  if (!s) return errors(15, 'Смена не существует');
  const receipts = [...r.receipts.values()].filter((rc) => rc.shiftNumber === s.number);
  return data(
    receipts.map((rc) => ({
      OperationTypeText: OPERATION_TEXT[rc.kind],
      Sum: rc.totalTiyn / 100,
      Date: webkassaDate(rc.at),
      EmployeeCode: 1,
      Number: rc.fiscalSign,
      IsOffline: rc.offline,
      ExternalOperationId: rc.externalId,
    })),
  );
}

function cashboxes(c: Ctx): Answer {
  const user = c.s.users.get(c.login);
  const list = [...c.s.registers.values()].filter(
    (r) => user && (user.registers.includes('*') || user.registers.includes(r.uniqueNumber)),
  );
  return data({
    List: list.map((r) => ({
      UniqueNumber: r.uniqueNumber,
      RegistrationNumber: r.registrationNumber,
      IdentificationNumber: r.identityNumber,
      Name: r.name,
      Description: '',
      IsOffline: r.offlineSince !== null,
      CurrentStatus: CURRENT_STATUS[r.status],
      Shift: r.shift?.number ?? r.shifts.at(-1)?.number ?? 0,
    })),
  });
}

function clientInfo(c: Ctx): Answer {
  const r = register(c);
  if (isAnswer(r)) return r;
  return data({
    CashboxStatus: CURRENT_STATUS[r.status],
    // The collection's example: a licensed register answers LicenseStatus 2, and Ofd carries only its code.
    License: {
      LicenseStatus: r.status === 'not-activated' ? 0 : 2,
      LicenseExpirationDate: '2099-12-31T00:00:00+05:00',
    },
    Ofd: { Ofd: r.ofd.code },
  });
}

const ROUTES: Record<string, (c: Ctx) => Answer> = {
  '/api/v4/check': check,
  '/api/v4/moneyoperation': money,
  '/api/v4/xreport': (c) => report(c, false),
  '/api/v4/zreport': (c) => report(c, true),
  '/api/v4/ticket/printformat': printFormat,
  '/api/v4/cashboxes': cashboxes,
  '/api/v4/cashbox/shifthistory': shiftHistory,
  '/api/v4/check/history': history,
  '/api/v4/check/historybynumber': historyByNumber,
  '/api/v4/zreport/history': zHistory,
  '/api/v4/zreport/byshiftnumber': zByShift,
  '/api/v4/reports/controltape': controlTape,
  '/api/v4/references/refunits': () => data(UNITS),
  '/api-history/v4/ticket/getticketbyexternalchecknumber': ticketByExternal,
  '/api-portal/v4/cashbox/client-info': clientInfo,
};

export const isWebkassaPath = (p: string) => /^\/api(-history|-portal)?\/v4\//i.test(p);

/** The register a Webkassa request names (for its faults and queue): the body's CashboxUniqueNumber. */
export const webkassaRegister = (s: FiscalState, b: Obj | undefined) =>
  s.registers.get(text(b, 'CashboxUniqueNumber') ?? '');

export function webkassa(s: FiscalState, req: ApiRequest, apiKey: string): Answer {
  const path = req.path.toLowerCase().replace(/\/+$/, '');
  if (NOT_EMULATED.includes(path)) return json(404, { Errors: [{ Code: -1, Text: `not emulated: ${req.path}` }] });
  if (path !== '/api/v4/authorize' && !ROUTES[path]) return json(404, { Errors: [{ Code: -1, Text: 'no such path' }] });
  if (req.method !== 'POST') return json(405, { Errors: [{ Code: -1, Text: 'only POST' }] });
  if (req.headers['x-api-key'] !== apiKey) return errors(3, 'API-key отсутствует либо не найден');
  if (!req.body) return errors(9, 'the body is not JSON');
  if (path === '/api/v4/authorize') {
    const user = s.users.get(text(req.body, 'Login') ?? '');
    if (!user || user.password !== field(req.body, 'Password')) return errors(1, 'Неверный логин или пароль');
    return data({ Token: s.issueToken('webkassa', user.login) });
  }
  const login = s.tokenSubject('webkassa', field(req.body, 'Token'));
  if (login === 'expired') return errors(2, 'Срок действия сессии истек');
  if (login === 'unknown') return errors(3, 'Необходимо авторизоваться');
  return ROUTES[path]({ s, req, b: req.body, login });
}
