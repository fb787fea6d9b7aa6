// The webkassa driver (Webkassa API v4, decisions 27): Authorize's token kept in the FiscalSession and
// carried in each body, receipts through /api/v4/check keyed by ExternalCheckNumber (Tolem's receipt id),
// lost answers settled by GetTicketByExternalCheckNumber, the register from /api/v4/Cashboxes, the
// Z-report from /api/v4/ZReport. Errors are FiscalErrors by codes.ts; nothing here logs a credential.
import type { FiscalConfig } from '../../config.ts';
import { parseServiceTime } from '../almaty.ts';
import type { DriverContext, DriverSpec, RegisterBinding } from '../registry.ts';
import {
  FiscalError,
  type FiscalDriver,
  type FiscalOfd,
  type FiscalReceiptRequest,
  type FiscalSession,
  type IssuedFiscalReceipt,
  type RegisterInfo,
  type RegisterStatus,
  type ZReport,
} from '../types.ts';
import { DUPLICATE, errorOf, hasCode, NO_OPEN_SHIFT, NO_SUCH_RECEIPT, SHIFT_ALREADY_CLOSED } from './codes.ts';
import { WebkassaConnection, type WebkassaEnvelope } from './connection.ts';
import { checkBody, checkUrlFor, issuedOf, ofdOf, ticketPrintUrl } from './receipt.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;

/** Cashboxes' CurrentStatus: 1 active; 0 created (not activated), 2 blocked by the OFD, 4 data broken, 5 gone. */
export function statusOf(cashbox: Obj): RegisterStatus {
  const s = Number(cashbox.CurrentStatus ?? 1);
  if (s !== 1) return 'blocked';
  return cashbox.IsOffline === true ? 'offline' : 'active';
}

/** A shift object ({ShiftNumber, OpenDate, CloseDate?}) as the port's open shift, or null when closed. */
export function openShiftOf(v: unknown): { number: number; openedAt: Date } | null {
  const s = obj(v);
  const number = Number(s.ShiftNumber ?? s.Number);
  const openedAt = parseServiceTime(s.OpenDate ?? s.StartOn);
  if (!Number.isFinite(number) || number <= 0 || !openedAt) return null;
  if (s.CloseDate || s.CloseOn) return null;
  return { number, openedAt };
}

/** A Z-report's totals of one operation: the sum of its payments by type (tenge, rounded), its count. */
function totalsOf(v: unknown): { count: number; total: number } {
  const o = obj(v);
  const payments = Array.isArray(o.PaymentsByTypesApiModel) ? o.PaymentsByTypesApiModel : [];
  const paid = payments.reduce((s: number, p) => s + Number(obj(p).Sum ?? 0), 0);
  const total = payments.length ? paid : Number(o.Taken ?? 0) - Number(o.Change ?? 0);
  return { count: Number(o.Count ?? 0), total: Math.round(total) };
}

export function zReportOf(data: unknown, now: Date): ZReport {
  const d = obj(data);
  const sale = totalsOf(d.Sell);
  const ret = totalsOf(d.ReturnSell);
  return {
    shiftNumber: Number(d.ShiftNumber ?? 0),
    openedAt: parseServiceTime(d.StartOn),
    closedAt: parseServiceTime(d.CloseOn) ?? now,
    saleCount: sale.count,
    saleTotal: sale.total,
    returnCount: ret.count,
    returnTotal: ret.total,
    // Counted where the answer carries OfflineDocumentCount; null where it does not tell.
    offlineCount: typeof d.OfflineDocumentCount === 'number' ? d.OfflineDocumentCount : null,
  };
}

class WebkassaDriver implements FiscalDriver {
  readonly name = 'webkassa' as const;
  private readonly conn: WebkassaConnection;
  private readonly baseUrl: string;

  constructor(
    config: FiscalConfig,
    ca: string | undefined,
    private readonly binding: RegisterBinding,
    private readonly now: () => Date,
  ) {
    this.baseUrl = config.webkassaUrl;
    this.conn = new WebkassaConnection({
      baseUrl: config.webkassaUrl,
      apiKey: binding.credentials.api_key || config.webkassaApiKey,
      ca,
      timeoutMs: config.timeoutMs,
    });
  }

  private get cashbox(): string {
    return this.binding.registerNumber;
  }

  private token(session: FiscalSession): string {
    const t = session.token;
    // No token in the session: as an expired one, the domain authorizes and repeats.
    if (typeof t !== 'string' || !t) throw new FiscalError('token_expired', 'webkassa: no token in the session');
    return t;
  }

  /** Data of a call, or the FiscalError its Errors mean. */
  private async data(path: string, body: Obj, mutating: boolean): Promise<unknown> {
    const env = await this.conn.post(path, body, mutating);
    if (env.Errors?.length) throw errorOf(path, env.Errors);
    return env.Data;
  }

  async authorize(): Promise<FiscalSession> {
    const { login, password } = this.binding.credentials;
    let answer: unknown;
    try {
      answer = await this.data('/api/v4/Authorize', { Login: login, Password: password }, false);
    } catch (err) {
      // Code 3 at login is the integrator's x-api-key refused, not a token to renew: logging in again would
      // loop. The credentials (or the key) are what needs fixing.
      if (err instanceof FiscalError && err.kind === 'token_expired')
        throw new FiscalError('auth_failed', err.message, err.code, { cause: err });
      throw err;
    }
    const data = obj(answer);
    const token = str(data.Token);
    if (!token) throw new FiscalError('auth_failed', 'webkassa Authorize: an answer without a token');
    return { token };
  }

  async registerInfo(session: FiscalSession): Promise<RegisterInfo> {
    const Token = this.token(session);
    const data = obj(await this.data('/api/v4/Cashboxes', { Token }, false));
    const list = Array.isArray(data.List) ? data.List : [];
    const cashbox = list.map(obj).find((c) => str(c.UniqueNumber) === this.cashbox);
    if (!cashbox)
      throw new FiscalError('blocked', `webkassa: register ${this.cashbox} is not among this user's registers`, '6');
    // Cashboxes' Shift is the shift's number (or, in some answers, the shift itself): its open date and
    // whether it is closed come from ShiftHistory.
    const shift =
      cashbox.Shift && typeof cashbox.Shift === 'object'
        ? openShiftOf(cashbox.Shift)
        : await this.shiftFromHistory(Token, Number(cashbox.Shift ?? 0));
    return {
      uniqueNumber: this.cashbox,
      registrationNumber: str(cashbox.RegistrationNumber) ?? '',
      ofd: ofdOf(cashbox.Ofd) ?? (await this.ofd(Token)),
      status: statusOf(cashbox),
      shift,
    };
  }

  /** The register's OFD from client-info, where Cashboxes does not name it; null when that call fails. */
  private async ofd(Token: string): Promise<FiscalOfd | null> {
    try {
      const body = { Token, CashboxUniqueNumber: this.cashbox };
      return ofdOf(obj(await this.data('/api-portal/v4/cashbox/client-info', body, false)).Ofd);
    } catch {
      // The OFD is shown on the status page, nothing depends on it: the register's state stands without.
      return null;
    }
  }

  /**
   * The shift numbered `number` (the newest when 0) in ShiftHistory, open or null. The history's order is not
   * documented: the first page is read, and the last one when the shift is not on the first.
   */
  private async shiftFromHistory(Token: string, number: number): Promise<{ number: number; openedAt: Date } | null> {
    const take = 50;
    const read = async (Skip: number) => {
      const body = { Token, CashboxUniqueNumber: this.cashbox, Skip, Take: take };
      const data = obj(await this.data('/api/v4/Cashbox/ShiftHistory', body, false));
      return { shifts: (Array.isArray(data.Shifts) ? data.Shifts : []).map(obj), total: Number(data.Total ?? 0) };
    };
    const pick = (shifts: Obj[]) =>
      number > 0
        ? shifts.find((x) => Number(x.ShiftNumber) === number)
        : shifts.sort((a, b) => Number(b.ShiftNumber ?? 0) - Number(a.ShiftNumber ?? 0))[0];
    const first = await read(0);
    let found = pick(first.shifts);
    if (!found && first.total > take) found = pick((await read(first.total - take)).shifts);
    return found ? openShiftOf(found) : null;
  }

  async issue(session: FiscalSession, request: FiscalReceiptRequest): Promise<IssuedFiscalReceipt> {
    const body = { Token: this.token(session), ...checkBody(this.cashbox, request) };
    const env: WebkassaEnvelope = await this.conn.post('/api/v4/check', body, true);
    if (env.Errors?.length) {
      // Some Webkassa versions answer a re-sent ExternalCheckNumber with 14 AND the original receipt: it is
      // the receipt. A 14 alone is `duplicate`, which the domain settles by lookup.
      if (hasCode(env.Errors, DUPLICATE) && env.Data) {
        const original = issuedOf(env.Data);
        if (original) return this.withRegistrationNumber(session, original);
      }
      throw errorOf('/api/v4/check', env.Errors);
    }
    const issued = issuedOf(env.Data);
    // Webkassa said success without a receipt: it may exist, so the domain looks it up before anything else.
    if (!issued) throw new FiscalError('outcome_unknown', 'webkassa check: a success without CheckNumber');
    return this.withRegistrationNumber(session, issued);
  }

  /**
   * The receipt with its register's registration number, read from Cashboxes when the answer lacked its
   * Cashbox (a return's basis needs it). The receipt stands even if that read fails: it is issued.
   */
  private async withRegistrationNumber(
    session: FiscalSession,
    issued: IssuedFiscalReceipt,
  ): Promise<IssuedFiscalReceipt> {
    if (issued.registrationNumber) return issued;
    try {
      return { ...issued, registrationNumber: (await this.registerInfo(session)).registrationNumber };
    } catch {
      return issued;
    }
  }

  async lookup(
    session: FiscalSession,
    externalNumber: string,
    hint: { shiftNumber: number | null; at: Date },
  ): Promise<IssuedFiscalReceipt | null> {
    const Token = this.token(session);
    const body: Obj = { Token, CashboxUniqueNumber: this.cashbox, ExternalCheckNumber: externalNumber };
    const path = '/api-history/v4/Ticket/GetTicketByExternalCheckNumber';
    let env: WebkassaEnvelope | undefined;
    if (hint.shiftNumber !== null) {
      env = await this.conn.post(path, { ...body, ShiftNumber: hint.shiftNumber }, false);
      // Not in the shift the domain expected (a Z-report came between): asked again without the shift, so
      // that a receipt in the next one is found rather than re-sent into a 14 that lookup would never settle.
      if (env.Errors?.length && hasCode(env.Errors, NO_SUCH_RECEIPT)) env = undefined;
    }
    env ??= await this.conn.post(path, body, false);
    if (env.Errors?.length) {
      if (hasCode(env.Errors, NO_SUCH_RECEIPT)) return null;
      throw errorOf(path, env.Errors);
    }
    const d = obj(env.Data);
    const fiscalSign = str(d.CheckNumber);
    const issuedAt = parseServiceTime(d.DateTime) ?? parseServiceTime(d.DateTimeUTC);
    if (!fiscalSign || !issuedAt) return null;
    const shiftNumber = Number(d.ShiftNumber ?? hint.shiftNumber ?? 0);
    let registrationNumber = str(obj(d.Cashbox).RegistrationNumber);
    let checkUrl = str(d.TicketUrl);
    if (!registrationNumber || !checkUrl) {
      // The history answer (CheckNumber, DateTime, ShiftNumber, Total, IsOffline) lacks the register's number
      // and the OFD link: the register's own record gives the number and, where it tells, the OFD's host,
      // from which the link is built the way the OFD's pages read it. No host: no link (the receipt stands).
      const info = await this.registerInfo(session);
      registrationNumber ??= info.registrationNumber;
      if (!checkUrl && info.ofd?.host && d.Total !== undefined)
        checkUrl = checkUrlFor(info.ofd.host, {
          fiscalSign,
          registrationNumber,
          total: Number(d.Total),
          issuedAt,
        });
    }
    return {
      fiscalSign,
      registrationNumber,
      shiftNumber,
      issuedAt,
      offline: d.IsOffline === true || d.OfflineMode === true,
      checkUrl,
      ticketUrl: str(d.TicketPrintUrl) ?? ticketPrintUrl(this.baseUrl, this.cashbox, shiftNumber, externalNumber),
      ref: null,
    };
  }

  async closeShift(session: FiscalSession): Promise<ZReport | null> {
    const body = { Token: this.token(session), CashboxUniqueNumber: this.cashbox };
    const env = await this.conn.post('/api/v4/ZReport', body, true);
    if (env.Errors?.length) {
      if (hasCode(env.Errors, NO_OPEN_SHIFT) || hasCode(env.Errors, SHIFT_ALREADY_CLOSED)) return null;
      throw errorOf('/api/v4/ZReport', env.Errors);
    }
    return zReportOf(env.Data, this.now());
  }
}

export const webkassaSpec: DriverSpec = {
  factory: (ctx: DriverContext, binding: RegisterBinding) =>
    new WebkassaDriver(ctx.config, ctx.ca, binding, () => ctx.clock.now()),
  credentials: { required: ['login', 'password'], optional: ['api_key'] },
  testMode: false,
};
