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
  qrToken: string;
  deepLink: string;
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
  createQr(input: { amount: number; comment?: string | null; lifetimeS: number; requestId?: string }): Promise<ProviderQr>;
  createInvoice(input: { phone: string; amount: number; comment?: string | null; lifetimeS: number; requestId?: string }): Promise<ProviderInvoice>;
  getStatus(ref: string): Promise<ProviderStatus>;
  /** false when the invoice can no longer be cancelled (already paid) */
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

/**
 * The provider refused a request for a reason the API names (decisions 24): the amount, a refund beyond
 * the rest, a payment that cannot be refunded. It did nothing.
 */
export class ProviderRejected extends ProviderRefused {
  constructor(readonly reason: 'invalid_amount' | 'refund_amount_exceeds' | 'payment_not_refundable' | 'not_found', message: string) {
    super(message);
  }
}

export const ALL_CAPABILITIES: ReadonlySet<Capability> = new Set(['qr', 'invoice', 'refund', 'customer_lookup']);
