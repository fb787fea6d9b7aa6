// The `qrapi` driver: the PaymentProvider port over the provider's official QR partner API, bound to one
// provider account (its scheme, credentials, organization BIN and registered device). Stateless: what a
// payment needs later (its QrPaymentId, the refundable rest read before a refund) lives in the domain's
// tables. Capabilities by scheme (decisions 24): r1 has no refunds, invoices or customer lookup; r2's
// refunds need the customer's return QR, so API refunds are r3's alone.
import type { Capability, PaymentProvider, ProviderOnboarding, ProviderCustomer, ProviderInvoice, ProviderQr, ProviderRefund, ProviderStatus, Scheme } from '../types.ts';
import { ProviderRejected, ProviderUnavailable } from '../types.ts';
import type { QrapiClient } from './client.ts';

const CAPABILITIES: Record<Scheme, ReadonlySet<Capability>> = {
  r1: new Set(['qr']),
  r2: new Set(['qr']),
  r3: new Set(['qr', 'invoice', 'refund', 'customer_lookup']),
};

/** remote/client-info: at most 50 calls a minute per device (the document), kept on our side. */
export const CLIENT_INFO_PER_MINUTE = 50;

export interface QrapiAccount {
  client: QrapiClient;
  /** r3 names the organization on every call */
  orgBin: string | null;
  deviceToken: string | null;
  /** asks the shared rate limiter; false: the per-device minute is used up */
  allowClientInfo(deviceToken: string): Promise<boolean>;
  /** payment/status of v01 (the document's) or v02 (adds the transaction id; public clients use it) */
  statusVersion?: 'v01' | 'v02';
}

interface QrCreated {
  QrToken: string;
  ExpireDate: string;
  QrPaymentId: number | string;
  QrPaymentBehaviorOptions?: { StatusPollingInterval?: number; QrCodeScanWaitTimeout?: number; PaymentConfirmationTimeout?: number };
}

/** The provider's status words (appendix 4, and the invoice ones) as the port's. */
export function mapStatus(raw: string): ProviderStatus['status'] {
  switch (raw) {
    case 'Processed':
      return 'paid';
    // An Error is declined; the domain calls one at or after Tolem's deadline an expiry (decisions 24).
    case 'Error':
      return 'declined';
    case 'RemotePaymentCanceled':
      return 'cancelled';
    // QrTokenCreated, Wait (scanned: the domain holds the expiry), RemotePaymentCreated, and any word the
    // document does not know: still waiting, never failed on a guess.
    default:
      return 'waiting';
  }
}

export class QrapiDriver implements PaymentProvider, ProviderOnboarding {
  readonly name = 'qrapi';
  readonly capabilities: ReadonlySet<Capability>;
  readonly onboarding: ProviderOnboarding = this;

  constructor(private readonly a: QrapiAccount) {
    this.capabilities = CAPABILITIES[a.client.scheme];
  }

  get scheme(): Scheme {
    return this.a.client.scheme;
  }

  private withBin(body: Record<string, unknown>): Record<string, unknown> {
    return this.scheme === 'r3' ? { ...body, OrganizationBin: this.a.orgBin } : body;
  }

  private device(): string {
    if (!this.a.deviceToken) throw new ProviderUnavailable('the provider account has no registered device; finish onboarding');
    return this.a.deviceToken;
  }

  // Never retried: a repeat could make a second QR. A lost answer is a 502; the provider drops the
  // unscanned QR by itself (decisions 24).
  async createQr(input: { amount: number; requestId?: string }): Promise<ProviderQr> {
    const d = await this.a.client.call<QrCreated>('POST', 'qr/create', {
      body: this.withBin({ DeviceToken: this.device(), Amount: input.amount, ...(input.requestId ? { ExternalId: input.requestId.slice(0, 64) } : {}) }),
    });
    const o = d.QrPaymentBehaviorOptions ?? {};
    return {
      ref: String(d.QrPaymentId),
      // The QR's content is a link the provider's app opens: the same text serves as the phone's deep link.
      qrToken: d.QrToken,
      deepLink: d.QrToken,
      expiresAt: new Date(d.ExpireDate),
      timing: { pollIntervalS: o.StatusPollingInterval ?? 5, scanTimeoutS: o.QrCodeScanWaitTimeout ?? 180, confirmTimeoutS: o.PaymentConfirmationTimeout ?? 65 },
    };
  }

  // Never retried either: a second push could be paid too. A lost answer is the domain's "outcome unknown".
  async createInvoice(input: { phone: string; amount: number; comment?: string | null; lifetimeS: number }): Promise<ProviderInvoice> {
    const d = await this.a.client.call<{ QrPaymentId: number | string }>('POST', 'remote/create', {
      body: {
        OrganizationBin: this.a.orgBin, Amount: input.amount, PhoneNumber: input.phone.replace(/^\+/, ''), DeviceToken: this.device(),
        ...(input.comment ? { Comment: input.comment } : {}),
      },
    });
    // The document: an invoice is payable within 24 hours.
    return { ref: String(d.QrPaymentId), expiresAt: new Date(Date.now() + Math.min(input.lifetimeS, 24 * 3600) * 1000) };
  }

  async getStatus(ref: string): Promise<ProviderStatus> {
    // v02 adds the transaction id of a paid payment; the status word is the same in both.
    const d = await this.a.client.call<{ Status: string; TransactionId?: string | number | null }>('GET', `payment/status/${encodeURIComponent(ref)}`, {
      version: this.a.statusVersion ?? 'v01', retry: true,
    });
    const status = mapStatus(d.Status);
    return {
      status, raw: d.Status,
      ...(status === 'paid' ? { transactionId: d.TransactionId === undefined || d.TransactionId === null ? null : String(d.TransactionId) } : {}),
    };
  }

  async cancelInvoice(ref: string): Promise<boolean> {
    try {
      await this.a.client.call('POST', 'remote/cancel', { body: { OrganizationBin: this.a.orgBin, QrPaymentId: Number(ref), DeviceToken: this.device() } });
      return true;
    } catch (err) {
      // Paid meanwhile: it can no longer be cancelled.
      if (err instanceof ProviderRejected && err.reason === 'payment_not_refundable') return false;
      throw err;
    }
  }

  async refundableAmount(ref: string): Promise<number> {
    const d = await this.a.client.call<{ AvailableReturnAmount: number }>('GET', 'payment/details', {
      query: { QrPaymentId: ref, DeviceToken: this.device() }, retry: true,
    });
    return Math.round(Number(d.AvailableReturnAmount));
  }

  // Sent once per call; the domain reads refundableAmount before and, after a lost answer, again before
  // anything is sent a second time (decisions 24).
  async refund(ref: string, amount: number): Promise<ProviderRefund> {
    const d = await this.a.client.call<{ ReturnOperationId: number | string }>('POST', 'payment/return', {
      body: this.withBin({ DeviceToken: this.device(), QrPaymentId: Number(ref), Amount: amount }),
    });
    return { ref: String(d.ReturnOperationId), status: 'completed' };
  }

  async findCustomer(phone: string): Promise<ProviderCustomer | null> {
    const device = this.device();
    if (!(await this.a.allowClientInfo(device))) throw new ProviderUnavailable('customer lookups are limited to 50 a minute per device; retry shortly');
    try {
      const d = await this.a.client.call<{ ClientName?: string | null }>('GET', 'remote/client-info', {
        query: { phoneNumber: phone.replace(/^\+/, ''), deviceToken: device }, retry: true,
      });
      return { phone, name: d.ClientName ?? null };
    } catch (err) {
      if (err instanceof ProviderRejected && err.reason === 'not_found') return null;
      throw err;
    }
  }

  async checkSession(): Promise<boolean> {
    await this.a.client.call('GET', 'health/ping', { retry: true });
    return true;
  }

  // Onboarding and health (decisions 19).
  async tradePoints(): Promise<{ id: number; name: string }[]> {
    const path = this.scheme === 'r3' ? `partner/tradepoints/${this.a.orgBin}` : 'partner/tradepoints';
    const d = await this.a.client.call<{ TradePointId: number; TradePointName: string }[]>('GET', path, { retry: true });
    return (d ?? []).map((t) => ({ id: Number(t.TradePointId), name: t.TradePointName }));
  }

  /** Idempotent at the provider (the same DeviceId answers the same token), so it may be retried. */
  async registerDevice(deviceId: string, tradePointId: number): Promise<string> {
    const d = await this.a.client.call<{ DeviceToken: string }>('POST', 'device/register', {
      body: this.withBin({ DeviceId: deviceId, TradePointId: tradePointId }), retry: true,
    });
    return d.DeviceToken;
  }

  async deleteDevice(): Promise<void> {
    await this.a.client.call('POST', 'device/delete', { body: this.withBin({ DeviceToken: this.device() }) });
  }
}
