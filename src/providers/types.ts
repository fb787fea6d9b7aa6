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
  createQr(input: { amount: number; comment?: string | null; lifetimeS: number }): Promise<ProviderQr>;
  createInvoice(input: { phone: string; amount: number; comment?: string | null; lifetimeS: number }): Promise<ProviderInvoice>;
  getStatus(ref: string): Promise<ProviderStatus>;
  /** false when the invoice can no longer be cancelled (already paid) */
  cancelInvoice(ref: string): Promise<boolean>;
  refund(ref: string, amount: number): Promise<ProviderRefund>;
  /** null: no customer with this phone */
  findCustomer(phone: string): Promise<ProviderCustomer | null>;
  checkSession(): Promise<boolean>;
}

/** Raised by drivers when the provider cannot be reached or answers garbage: 502 provider_error. */
export class ProviderUnavailable extends Error {}
/** Raised by drivers when the merchant's provider session is over: 503 session_expired (live only). */
export class ProviderSessionExpired extends Error {}
