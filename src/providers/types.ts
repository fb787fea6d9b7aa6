// The provider port: what Tolem needs from the upstream payment provider. Test mode always uses the
// sandbox; live mode uses the configured driver. Calls happen outside database transactions.

export type ProviderPaymentStatus = 'waiting' | 'paid' | 'expired' | 'cancelled' | 'declined';

/** The provider's timing for one QR (qrapi announces it with each QR); the watcher polls by it. */
export interface ProviderTiming {
  pollIntervalS: number;
  scanTimeoutS: number;
  confirmTimeoutS: number;
}

export interface ProviderQr {
  ref: string;
  /** what the QR image encodes, as the provider gives it (qrapi: a digit string) */
  qrToken: string;
  /**
   * A URL that opens this payment, when the driver has one (the sandbox's payer page). Live operations get
   * Tolem's own payer page instead (decisions 26), so a driver whose token is not a link leaves it out.
   */
  deepLink?: string;
  expiresAt: Date;
  timing?: ProviderTiming;
}

/**
 * The calls onboarding and health checks make to a provider with an official API (decisions 19): a ping,
 * the organization's trade points, the device Tolem registers on one (idempotent) and its deletion.
 * Drivers without them (the sandbox: a one-time code instead) leave `onboarding` out.
 */
export interface ProviderOnboarding {
  checkSession(): Promise<boolean>;
  tradePoints(): Promise<{ id: number; name: string }[]>;
  registerDevice(deviceId: string, tradePointId: number): Promise<string>;
  deleteDevice(): Promise<void>;
}

/** A return QR (qrapi r2): the payer scans it in the provider's app, which tells who they are. */
export interface ProviderReturnQr {
  ref: string;
  qrToken: string;
  expiresAt: Date;
  pollIntervalS: number;
}

/**
 * Refunds with the customer present (the provider's r2 return flow, decisions 26): a return QR, its status
 * until the customer's identity is obtained, the customer's purchases, then the refund naming the return.
 */
export interface ProviderReturns {
  createReturn(input: { refundId: string }): Promise<ProviderReturnQr>;
  /** waiting: not scanned yet; identified: the customer scanned it (final); failed: expired or refused (final) */
  returnStatus(ref: string): Promise<{ status: 'waiting' | 'identified' | 'failed'; raw: string }>;
  /** the payment refs the identified customer made at this trade point, newest first (at most 10) */
  returnPurchases(ref: string): Promise<string[]>;
  refundWithReturn(paymentRef: string, amount: number, returnRef: string): Promise<ProviderRefund>;
}

/** What a driver can do; the domain answers 501 provider_capability_unavailable for the rest, without a call. */
export type Capability = 'qr' | 'invoice' | 'refund' | 'customer_lookup';

/** The provider's official API's schemes (decisions 24); drivers without schemes say null. */
export type Scheme = 'r1' | 'r2' | 'r3';

export interface ProviderInvoice {
  ref: string;
  expiresAt: Date;
}

export interface ProviderStatus {
  status: ProviderPaymentStatus;
  /** the provider's own word for it, shown as raw_provider_status */
  raw: string;
  senderName?: string | null;
  senderPhone?: string | null;
  transactionId?: string | null;
  paidAt?: Date | null;
}

export interface ProviderRefund {
  ref: string;
  status: 'completed' | 'pending' | 'failed';
}

export interface ProviderCustomer {
  phone: string;
  name: string | null;
}

export interface PaymentProvider {
  readonly name: string;
  /** the scheme of the account this driver is bound to (qrapi), for refusals that name it */
  readonly scheme?: Scheme | null;
  readonly capabilities: ReadonlySet<Capability>;
  /** present on drivers of an official API (qrapi) */
  readonly onboarding?: ProviderOnboarding;
  /** present where refunds need the customer's return QR (qrapi r2); `refund` is then not a capability */
  readonly returns?: ProviderReturns;
  /**
   * The refundable rest of a paid payment as the provider sees it, read before a refund is sent and again
   * when its answer was lost: a drop by exactly the refund's amount means it happened (decisions 24).
   * Absent: the driver's refunds are idempotent by refund id instead.
   */
  refundableAmount?(ref: string): Promise<number>;
  /**
   * `requestId`, when given, names the creating request: the provider answers a repeated id with the QR
   * or invoice the first one made, so a creation whose answer was lost is retried without a second.
   */
  createQr(input: {
    amount: number;
    comment?: string | null;
    lifetimeS: number;
    requestId?: string;
  }): Promise<ProviderQr>;
  createInvoice(input: {
    phone: string;
    amount: number;
    comment?: string | null;
    lifetimeS: number;
    requestId?: string;
  }): Promise<ProviderInvoice>;
  getStatus(ref: string): Promise<ProviderStatus>;
  /** false when the invoice can no longer be cancelled (already paid); true also when it already was cancelled */
  cancelInvoice(ref: string): Promise<boolean>;
  /**
   * Refunds `amount` of a paid payment. `refundId` is Tolem's id of the refund: the provider treats a
   * repeated id as the same refund and answers its current outcome, so a refund whose first answer was
   * lost is sent again safely.
   */
  refund(ref: string, amount: number, refundId: string): Promise<ProviderRefund>;
  /** null: no customer with this phone */
  findCustomer(phone: string): Promise<ProviderCustomer | null>;
  checkSession(): Promise<boolean>;
}

/** Raised by drivers when the provider cannot be reached or answers garbage: 502 provider_error. */
export class ProviderUnavailable extends Error {}
/**
 * A ProviderUnavailable after the request may have reached the provider (a time-out, a dropped
 * connection, a 5xx, garbage): the provider may have acted. A refund then stays pending, not failed.
 */
export class ProviderOutcomeUnknown extends ProviderUnavailable {}
/**
 * A ProviderUnavailable that is the provider's own refusal (a 4xx): it did nothing. For a refund id it
 * knows, the provider answers the refund's outcome instead (docs/provider-gateway.md), so a refusal of a
 * repeated refund also says the first send never took effect.
 */
export class ProviderRefused extends ProviderUnavailable {}
/** Raised by drivers when the merchant's provider session is over: 503 session_expired (live only). */
export class ProviderSessionExpired extends Error {}

/** Why the provider refused a request (decisions 26: a refusal names its reason, and is never an outage). */
export type RejectionReason =
  | 'invalid_amount'
  | 'refund_amount_exceeds'
  | 'payment_not_refundable'
  /** the provider does not know the payment (or the return) */
  | 'not_found'
  /** customer lookup or invoice: no customer of the provider with this phone */
  | 'client_not_found'
  /** onboarding: the device is bound to another trade point of the organization */
  | 'device_conflict'
  /** onboarding: the chosen trade point is not the organization's */
  | 'trade_point_not_found'
  /** the trade point does not take QR payments now, or has no payment methods */
  | 'trade_point_refused'
  /** a code the document lists for the call without saying what it means */
  | 'refused'
  /** a code the document never lists: still an answer, so not an outage (502 with the code) */
  | 'undocumented';

/** The provider refused a request for a reason the API names (decisions 26). It did nothing. */
export class ProviderRejected extends ProviderRefused {
  constructor(
    readonly reason: RejectionReason,
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

/**
 * r3's static-IP allow-list refused this server (an HTTP 403 or a refused TLS session from the r3 host):
 * nothing reached the provider. 503 provider_unreachable naming the rule (decisions 26).
 */
export class ProviderEgressRefused extends ProviderUnavailable {}

export const ALL_CAPABILITIES: ReadonlySet<Capability> = new Set(['qr', 'invoice', 'refund', 'customer_lookup']);
