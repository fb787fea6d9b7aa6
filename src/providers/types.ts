// The provider port: what Tolem needs from the upstream payment provider. Test mode always uses the
// sandbox; live mode uses the configured driver. Calls happen outside database transactions.

export type ProviderPaymentStatus = 'waiting' | 'paid' | 'expired' | 'cancelled' | 'declined';

export interface ProviderQr {
  ref: string;
  qrToken: string;
  deepLink: string;
  expiresAt: Date;
}

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
