// The fiscal port: what Tolem needs from a merchant's cloud cash register (decisions 27). A driver speaks
// one service's API (webkassa, rekassa) or none (sandbox, test mode); the domain sees only these shapes, so
// a third service (ukassa, Kassa24) is a new driver, not a change to the domain. Calls happen outside
// database transactions, and one at a time per register: the domain holds the register's lease.

export type FiscalDriverName = 'sandbox' | 'webkassa' | 'rekassa';
export const FISCAL_DRIVERS: readonly FiscalDriverName[] = ['sandbox', 'webkassa', 'rekassa'];

export type PositionType = 'goods' | 'work' | 'service';
export type FiscalPaymentType = 'mobile' | 'card';

/** One line of a receipt, in whole tenge as Tolem keeps money; a driver converts to its service's units. */
export interface FiscalLine {
  /** at most 128 characters (the receipt rules of every service) */
  name: string;
  /** price of one unit, tenge */
  price: number;
  /** a positive whole count (Tolem sells by the piece or by the unit named by unitCode) */
  quantity: number;
  /** price × quantity, tenge */
  total: number;
  /** the unit's code of the national classifier: 796 piece, 166 kg, 5114 service, ... */
  unitCode: number;
  sectionCode: string | null;
  /** the national catalogue's code (НКТ) */
  ntin: string | null;
  gtin: string | null;
  /** VAT inside the price in basis points (1600 = 16%); null: no VAT on this line */
  vatRateBps: number | null;
  positionType: PositionType;
}

/** The sale a return refers to (a return without it is refused since protocol 2.0.3). */
export interface FiscalBasis {
  fiscalSign: string;
  registrationNumber: string;
  issuedAt: Date;
  /** the sale's total, tenge */
  total: number;
  offline: boolean;
  /** the service's own id of the sale receipt, for services that refer to it (rekassa's ticket id) */
  ref: string | null;
}

export interface FiscalReceiptRequest {
  /**
   * Tolem's receipt id, sent as the register's external number (Webkassa `ExternalCheckNumber`): the key a
   * lost answer is settled by (lookup) before anything is re-sent.
   */
  externalNumber: string;
  kind: 'sale' | 'return';
  lines: FiscalLine[];
  /** the sum of the lines' totals, tenge: paid in full by one payment of `paymentType` */
  total: number;
  paymentType: FiscalPaymentType;
  /** required for a return */
  basis: FiscalBasis | null;
  customerEmail: string | null;
  customerPhone: string | null;
  /** when the money moved (the services that take a date get it; the register stamps its own time) */
  at: Date;
}

/** A receipt the register issued (or found issued by its external number). */
export interface IssuedFiscalReceipt {
  /** the fiscal sign (Webkassa CheckNumber, reKassa ticketNumber) */
  fiscalSign: string;
  registrationNumber: string;
  shiftNumber: number;
  issuedAt: Date;
  /** signed by the register itself while its fiscal data operator was unreachable */
  offline: boolean;
  /** the fiscal data operator's page where anyone checks the receipt (its QR on paper) */
  checkUrl: string | null;
  /** the service's printable page of the receipt */
  ticketUrl: string | null;
  /** the service's own id of the receipt (a later return's basis may need it) */
  ref: string | null;
}

export interface FiscalOfd {
  name: string;
  code: string | null;
  host: string | null;
}

export type RegisterStatus = 'active' | 'blocked' | 'offline' | 'auth_failed';

/** What a register says of itself (the set-up wizard's check, the status page). */
export interface RegisterInfo {
  uniqueNumber: string;
  registrationNumber: string;
  ofd: FiscalOfd | null;
  status: RegisterStatus;
  shift: { number: number; openedAt: Date } | null;
}

/** A closed shift's Z-report, totals in tenge. */
export interface ZReport {
  shiftNumber: number;
  openedAt: Date | null;
  closedAt: Date;
  saleCount: number;
  saleTotal: number;
  returnCount: number;
  returnTotal: number;
  /** documents signed offline in the shift, where the service tells */
  offlineCount: number | null;
}

/**
 * What a driver keeps between calls (an access token): sealed at rest by the domain and handed back on the
 * next call. A driver that needs none returns `{}`.
 */
export type FiscalSession = Record<string, string | number | null>;

export interface FiscalDriver {
  readonly name: FiscalDriverName;
  /** Logs in with the register's credentials; FiscalError auth_failed when they are wrong. */
  authorize(): Promise<FiscalSession>;
  /** The register as the service sees it, for the live check and the status page. */
  registerInfo(session: FiscalSession): Promise<RegisterInfo>;
  /**
   * Issues one receipt. Throws FiscalError: `duplicate` when the external number is already there (look it
   * up), `outcome_unknown` when the request may have been acted on without an answer (look it up before any
   * resend), the other kinds as their docs say.
   */
  issue(session: FiscalSession, request: FiscalReceiptRequest): Promise<IssuedFiscalReceipt>;
  /** The receipt issued under this external number, or null when the register has none. */
  lookup(
    session: FiscalSession,
    externalNumber: string,
    hint: { shiftNumber: number | null; at: Date },
  ): Promise<IssuedFiscalReceipt | null>;
  /** Closes the open shift (Z-report); null when no shift is open. */
  closeShift(session: FiscalSession): Promise<ZReport | null>;
}

/**
 * How a call failed, in the domain's words. What the domain does with each:
 * - `token_expired`: authorize again once, then repeat the call;
 * - `auth_failed`: the register's credentials are wrong (status auth_failed; retried later with back-off);
 * - `blocked`: the register is blocked, not activated, unknown or its licence ended (status blocked);
 * - `shift_expired`: the shift passed 24 hours: close it, then repeat;
 * - `offline_expired`: offline past 72 hours: the register refuses until its data reach the operator;
 * - `duplicate`: the external number is taken: the receipt exists, look it up;
 * - `basis_missing`: a return whose sale the register does not know;
 * - `rejected`: the service refused the request as invalid; sending it again will not help;
 * - `busy`: another request on this register is running (the service's one-at-a-time rule);
 * - `unavailable`: no answer and nothing done (refused connection, 5xx before the request was taken);
 * - `outcome_unknown`: the request went out and no answer came: it may have been acted on.
 */
export type FiscalErrorKind =
  | 'token_expired'
  | 'auth_failed'
  | 'blocked'
  | 'shift_expired'
  | 'offline_expired'
  | 'duplicate'
  | 'basis_missing'
  | 'rejected'
  | 'busy'
  | 'unavailable'
  | 'outcome_unknown';

export class FiscalError extends Error {
  constructor(
    readonly kind: FiscalErrorKind,
    message: string,
    /** the service's own code (Webkassa 11, reKassa's error code), for the receipt's error and the logs */
    readonly code: string | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'FiscalError';
  }
}

/** VAT inside a price (Webkassa `Tax`, reKassa's tax sum): total × rate / (100% + rate), in tiyn, rounded. */
export function vatInsideTiyn(totalTenge: number, rateBps: number): number {
  return Math.round((totalTenge * 100 * rateBps) / (10_000 + rateBps));
}
