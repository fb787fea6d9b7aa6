// The rekassa driver (reKassa's partner API, decisions 27): auth/login's token and register id kept in the
// FiscalSession, tickets through POST /api/crs/{id}/tickets, the register from GET /api/crs/{id}, the
// Z-report by POST .../shifts/{n}/close with the register's PIN, then the shift re-read, because a 2xx
// alone has not proved a closed shift (an integrator's lesson). reKassa documents no de-duplication: the
// X-Request-ID is stable per receipt, but nothing here trusts it; a lost answer is settled by lookup(),
// which reads the register's tickets and matches the external id. Nothing here logs a credential or a token.
import type { FiscalConfig } from '../../config.ts';
import { parseServiceTime } from '../almaty.ts';
import type { DriverContext, DriverSpec, RegisterBinding } from '../registry.ts';
import {
  FiscalError,
  type FiscalDriver,
  type FiscalReceiptRequest,
  type FiscalSession,
  type IssuedFiscalReceipt,
  type RegisterInfo,
  type RegisterStatus,
  type ZReport,
} from '../types.ts';
import { RekassaConnection } from './connection.ts';
import { dateTimeOf, instantOf, issuedOf, ofdOf, requestIdOf, ticketBody, tiynOf } from './receipt.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;

/** How many tickets one page of the register's list asks for, and how many pages lookup reads at most. */
const PAGE_SIZE = 100;
const MAX_PAGES = 20;

/** GET /api/crs/{id} answers the register itself; some answers wrap it as {cashRegister}. */
export function registerOf(body: unknown): Obj {
  const b = obj(body);
  return b.cashRegister && typeof b.cashRegister === 'object' ? obj(b.cashRegister) : b;
}

/** NEW: registered with reKassa, not activated yet (the emulator's and reKassa's word for it). */
const BLOCKED_STATUS = /block|deregist|not_?activ|^new$|deleted|disabled|archiv/i;

/** Blocked when reKassa says so (a block time, a status of that sense); offline while its offline time runs. */
export function statusOf(cr: Obj): RegisterStatus {
  if (cr.blockStartTime || BLOCKED_STATUS.test(String(cr.status ?? ''))) return 'blocked';
  if (cr.offlineStartTime || /offline/i.test(String(cr.fdoMode ?? ''))) return 'offline';
  return 'active';
}

export function shiftOf(cr: Obj): { number: number; openedAt: Date } | null {
  if (cr.shiftOpen !== true) return null;
  const openedAt = parseServiceTime(cr.shiftOpenTime);
  const number = Number(cr.shiftNumber);
  return openedAt && Number.isFinite(number) ? { number, openedAt } : null;
}

/** A list answer's tickets: Spring's `_embedded.<name>`, `content`, or a bare array. */
export function ticketsOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  const b = obj(body);
  if (Array.isArray(b.content)) return b.content;
  const embedded = obj(b._embedded);
  for (const v of Object.values(embedded)) if (Array.isArray(v)) return v;
  return [];
}

/** A closed shift's report: the shift object or its Z-report (`data` inside or not). */
export function zReportOf(body: unknown, shiftNumber: number, now: Date): ZReport {
  const b = obj(body);
  const d = b.data && typeof b.data === 'object' ? { ...b, ...obj(b.data) } : b;
  let saleCount = 0;
  let saleTiyn = 0;
  let returnCount = 0;
  let returnTiyn = 0;
  let offline: number | null = null;
  // Two shapes: the shift's `data.sell` / `data.sellReturn` ({count, sum}), or the KKM protocol's
  // ticketOperations ({operation, ticketsCount, ticketsSum, offlineCount}).
  for (const [key, isSale] of [
    ['sell', true],
    ['sellReturn', false],
  ] as const) {
    if (!d[key] || typeof d[key] !== 'object') continue;
    const o = obj(d[key]);
    if (isSale) {
      saleCount += Number(o.count ?? 0);
      saleTiyn += tiynOf(o.sum);
    } else {
      returnCount += Number(o.count ?? 0);
      returnTiyn += tiynOf(o.sum);
    }
  }
  if (typeof d.offlineTicketsCount === 'number') offline = d.offlineTicketsCount;
  const ops = Array.isArray(d.ticketOperations) ? d.ticketOperations : [];
  for (const raw of ops) {
    const op = obj(raw);
    const count = Number(op.ticketsCount ?? op.count ?? 0);
    const sum = tiynOf(op.ticketsSum ?? op.sum);
    if (op.offlineCount !== undefined) offline = (offline ?? 0) + Number(op.offlineCount);
    if (op.operation === 'OPERATION_SELL') {
      saleCount += count;
      saleTiyn += sum;
    } else if (op.operation === 'OPERATION_SELL_RETURN') {
      returnCount += count;
      returnTiyn += sum;
    }
  }
  return {
    shiftNumber: Number(d.shiftNumber ?? shiftNumber),
    openedAt: parseServiceTime(d.openTime ?? d.shiftOpenTime ?? d.openShiftTime),
    closedAt: parseServiceTime(d.closeTime ?? d.shiftCloseTime ?? d.closeShiftTime) ?? now,
    saleCount,
    saleTotal: Math.round(saleTiyn / 100),
    returnCount,
    returnTotal: Math.round(returnTiyn / 100),
    offlineCount: offline ?? (d.offlineCount === undefined ? null : Number(d.offlineCount)),
  };
}

/** The answer carries a shift's totals (either shape zReportOf reads). */
function hasTotals(body: unknown): boolean {
  const b = obj(body);
  const d = obj(b.data);
  return Boolean(b.ticketOperations || d.ticketOperations || d.sell || b.sell);
}

/** A shift object says it is closed: a close time, shiftOpen false, or a closed status. */
export function shiftClosed(body: unknown): boolean {
  const b = obj(body);
  const d = b.data && typeof b.data === 'object' ? { ...b, ...obj(b.data) } : b;
  if (d.closeTime || d.shiftCloseTime || d.closeShiftTime) return true;
  if (d.shiftOpen === false || d.open === false) return true;
  return /closed/i.test(String(d.status ?? ''));
}

class RekassaDriver implements FiscalDriver {
  readonly name = 'rekassa' as const;
  private readonly conn: RekassaConnection;
  private readonly apiKey: string | undefined;

  constructor(
    config: FiscalConfig,
    ca: string | undefined,
    private readonly binding: RegisterBinding,
    private readonly now: () => Date,
  ) {
    this.conn = new RekassaConnection({ baseUrl: config.rekassaUrl, ca, timeoutMs: config.timeoutMs });
    this.apiKey = binding.credentials.api_key || config.rekassaApiKey;
  }

  private auth(session: FiscalSession): { token: string; crsId: string } {
    const token = session.token;
    const crsId = session.crsId;
    if (typeof token !== 'string' || !token || (typeof crsId !== 'string' && typeof crsId !== 'number'))
      throw new FiscalError('token_expired', 'rekassa: no token in the session');
    return { token, crsId: String(crsId) };
  }

  private readRegister(token: string, crsId: string): Promise<Obj> {
    return this.conn
      .call({
        method: 'GET',
        path: `/api/crs/${encodeURIComponent(crsId)}`,
        name: '/api/crs/{id}',
        token,
        mutating: false,
      })
      .then(registerOf);
  }

  async authorize(): Promise<FiscalSession> {
    if (!this.apiKey)
      throw new FiscalError(
        'auth_failed',
        'rekassa: no partner apiKey (FISCAL_REKASSA_API_KEY or the api_key credential)',
      );
    const body = obj(
      await this.conn.call({
        method: 'POST',
        path: '/api/auth/login',
        name: '/api/auth/login',
        query: { apiKey: this.apiKey, format: 'json' },
        body: { number: this.binding.registerNumber, password: this.binding.credentials.password },
        mutating: false,
        login: true,
      }),
    );
    const token = str(body.token);
    const crsId = str(body.id);
    if (!token || !crsId) throw new FiscalError('auth_failed', 'rekassa auth/login: an answer without a token');
    // The register's registration number (РНМ) goes on every receipt the port returns; a ticket's answer does
    // not carry it, so it is read once here and kept with the token.
    const cr = await this.readRegister(token, crsId);
    return { token, crsId, rnm: str(cr.registrationNumber) };
  }

  async registerInfo(session: FiscalSession): Promise<RegisterInfo> {
    const { token, crsId } = this.auth(session);
    const cr = await this.readRegister(token, crsId);
    return {
      uniqueNumber: str(cr.serialNumber) ?? this.binding.registerNumber,
      registrationNumber: str(cr.registrationNumber) ?? '',
      ofd: ofdOf(cr.fdo),
      status: statusOf(cr),
      shift: shiftOf(cr),
    };
  }

  private async rnm(session: FiscalSession, token: string, crsId: string): Promise<string> {
    if (typeof session.rnm === 'string' && session.rnm) return session.rnm;
    return str((await this.readRegister(token, crsId)).registrationNumber) ?? '';
  }

  async issue(session: FiscalSession, request: FiscalReceiptRequest): Promise<IssuedFiscalReceipt> {
    const { token, crsId } = this.auth(session);
    // The ticket's time is the register's now, not when the money moved: reKassa refuses a dateTime far
    // from its clock or older than the register's last document, and a receipt retried hours later must pass.
    const at = this.now();
    const body = ticketBody({ ...request, at });
    // Read before the ticket is sent: a failure after it would lose a signed receipt's answer.
    const registrationNumber = await this.rnm(session, token, crsId);
    const answer = await this.conn.call({
      method: 'POST',
      path: `/api/crs/${encodeURIComponent(crsId)}/tickets`,
      name: '/api/crs/{id}/tickets',
      token,
      headers: { 'x-request-id': requestIdOf(request.externalNumber), timezone: '+05:00' },
      body,
      mutating: true,
    });
    const issued = issuedOf(answer, {
      baseUrl: this.conn.baseUrl,
      crsId,
      registrationNumber,
      sentAt: instantOf(dateTimeOf(at)),
    });
    if (!issued) {
      const a = obj(answer);
      // A 2xx whose ticket reports an error (status ERROR) was refused; one without a sign may still be signed.
      if (String(a.status ?? '').toUpperCase() === 'ERROR')
        throw new FiscalError('rejected', `rekassa tickets: ${String(a.errorType ?? 'ERROR')}`, str(a.errorType));
      throw new FiscalError('outcome_unknown', 'rekassa tickets: an answer without a ticket number');
    }
    return issued;
  }

  async lookup(
    session: FiscalSession,
    externalNumber: string,
    _hint: { shiftNumber: number | null; at: Date },
  ): Promise<IssuedFiscalReceipt | null> {
    const { token, crsId } = this.auth(session);
    const registrationNumber = await this.rnm(session, token, crsId);
    const requestId = requestIdOf(externalNumber);
    // A ticket's `externalId` is the X-Request-ID it was sent with (or the body's externalId, where reKassa
    // takes that): either names this receipt. The list is asked to filter by it and to put the newest first;
    // the match is made here too, in case the service ignores either.
    const ours = (t: unknown) => {
      const id = str(obj(t).externalId);
      return id === requestId || id === externalNumber;
    };
    for (let page = 0; page < MAX_PAGES; page++) {
      const list = ticketsOf(
        await this.conn.call({
          method: 'GET',
          path: `/api/crs/${encodeURIComponent(crsId)}/tickets`,
          name: '/api/crs/{id}/tickets',
          query: { externalId: requestId, page: String(page), size: String(PAGE_SIZE), sort: 'id,desc' },
          token,
          mutating: false,
        }),
      );
      const found = list.find(ours);
      if (found) return issuedOf(found, { baseUrl: this.conn.baseUrl, crsId, registrationNumber, sentAt: null });
      if (list.length < PAGE_SIZE) break;
    }
    return null;
  }

  async closeShift(session: FiscalSession): Promise<ZReport | null> {
    const { token, crsId } = this.auth(session);
    const cr = await this.readRegister(token, crsId);
    const shift = shiftOf(cr);
    if (!shift) return null;
    const shiftPath = `/api/crs/${encodeURIComponent(crsId)}/shifts/${shift.number}`;
    let closed: unknown;
    try {
      closed = await this.conn.call({
        method: 'POST',
        path: `${shiftPath}/close`,
        name: '/api/crs/{id}/shifts/{n}/close',
        token,
        headers: { 'cash-register-password': this.binding.credentials.pin ?? '' },
        mutating: true,
      });
    } catch (err) {
      // Closed between the read and the close (by the service's own schedule, or the merchant): no shift open.
      if (err instanceof FiscalError && /shift\w*(already_?closed|not_?open)/i.test(err.code ?? '')) return null;
      throw err;
    }
    const reread = await this.conn.call({
      method: 'GET',
      path: shiftPath,
      name: '/api/crs/{id}/shifts/{n}',
      token,
      mutating: false,
    });
    if (!shiftClosed(reread))
      throw new FiscalError('unavailable', `rekassa: shift ${shift.number} still open after its close was answered`);
    // The close's answer is the Z-report where reKassa sends one; the re-read shift otherwise.
    const report = hasTotals(closed) ? closed : reread;
    const z = zReportOf(report, shift.number, this.now());
    return { ...z, openedAt: z.openedAt ?? shift.openedAt };
  }
}

export const rekassaSpec: DriverSpec = {
  factory: (ctx: DriverContext, binding: RegisterBinding) =>
    new RekassaDriver(ctx.config, ctx.ca, binding, () => ctx.clock.now()),
  credentials: { required: ['password', 'pin'], optional: ['api_key'] },
  testMode: false,
};
