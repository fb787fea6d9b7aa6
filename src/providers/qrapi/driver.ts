// The `qrapi` driver: the PaymentProvider port over the provider's official QR partner API, bound to one
// provider account (its scheme, credentials, organization BIN and registered device). Stateless: what a
// payment needs later (its QrPaymentId, the refundable rest read before a refund, a return's id) lives in
// the domain's tables. Capabilities by scheme (decisions 24, 26): r1 has no refunds, invoices or customer
// lookup; r2 refunds through the customer's return QR (`returns`); r3 refunds without the customer.
import type {
  Capability,
  PaymentProvider,
  ProviderOnboarding,
  ProviderCustomer,
  ProviderInvoice,
  ProviderQr,
  ProviderRefund,
  ProviderReturnQr,
  ProviderReturns,
  ProviderStatus,
  Scheme,
} from '../types.ts';
import { ProviderRejected, ProviderUnavailable } from '../types.ts';
import type { QrapiConnection } from './connection.ts';
import { parseProviderDate, PROVIDER_LOCAL_OFFSET, type UtcOffsetMinutes } from './dates.ts';

const CAPABILITIES: Record<Scheme, ReadonlySet<Capability>> = {
  r1: new Set(['qr']),
  r2: new Set(['qr']),
  r3: new Set(['qr', 'invoice', 'refund', 'customer_lookup']),
};

/** remote/client-info: at most 50 calls a minute per device (the document), kept on our side. */
export const CLIENT_INFO_PER_MINUTE = 50;

export interface QrapiAccount {
  connection: QrapiConnection;
  /** r3 names the organization on every call */
  orgBin: string | null;
  deviceToken: string | null;
  /** asks the shared rate limiter; false: the per-device minute is used up */
  allowClientInfo(deviceToken: string): Promise<boolean>;
  /** payment/status of v02 (the default: its TransactionId fills transaction_id) or v01 (the document's) */
  statusVersion?: 'v01' | 'v02';
  /** minutes east of UTC of the provider's times written without an offset (QRAPI_TIMEZONE; UTC+5) */
  localOffset?: UtcOffsetMinutes;
  /** how phones go to the provider: `8XXXXXXXXXX` (the document's examples) or `7XXXXXXXXXX` (QRAPI_PHONE_FORMAT) */
  phoneFormat?: '8' | '7';
}

/** The Kazakh mobile number (+7XXXXXXXXXX, as the domain keeps it) in the form the provider reads. */
export function providerPhone(phone: string, format: '8' | '7' = '8'): string {
  const national = phone.replace(/\D/g, '').slice(-10);
  return `${format}${national}`;
}

/** v02's status (public clients read it; the document's v01 has Status alone). */
interface StatusData {
  Status: string;
  TransactionId?: string | number | null;
  Amount?: number | null;
}

interface QrCreated {
  QrToken: string;
  ExpireDate: string;
  QrPaymentId: number | string;
  QrPaymentBehaviorOptions?: {
    StatusPollingInterval?: number;
    QrCodeScanWaitTimeout?: number;
    PaymentConfirmationTimeout?: number;
  };
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

  readonly returns?: ProviderReturns;

  constructor(private readonly a: QrapiAccount) {
    this.capabilities = CAPABILITIES[a.connection.scheme];
    if (a.connection.scheme === 'r2') this.returns = new QrapiReturns(a, () => this.device());
  }

  get scheme(): Scheme {
    return this.a.connection.scheme;
  }

  private withBin(body: Record<string, unknown>): Record<string, unknown> {
    return this.scheme === 'r3' ? { ...body, OrganizationBin: this.a.orgBin } : body;
  }

  private device(): string {
    if (!this.a.deviceToken)
      throw new ProviderUnavailable('the provider account has no registered device; finish onboarding');
    return this.a.deviceToken;
  }

  // Never retried: a repeat could make a second QR. A lost answer is a 502; the provider drops the
  // unscanned QR by itself (decisions 24).
  async createQr(input: { amount: number; requestId?: string }): Promise<ProviderQr> {
    const d = await this.a.connection.call<QrCreated>('POST', 'qr/create', {
      body: this.withBin({
        DeviceToken: this.device(),
        Amount: input.amount,
        ...(input.requestId ? { ExternalId: input.requestId.slice(0, 64) } : {}),
      }),
    });
    const o = d.QrPaymentBehaviorOptions ?? {};
    const timing = {
      pollIntervalS: o.StatusPollingInterval ?? 5,
      scanTimeoutS: o.QrCodeScanWaitTimeout ?? 180,
      confirmTimeoutS: o.PaymentConfirmationTimeout ?? 65,
    };
    const token = String(d.QrToken);
    return {
      ref: String(d.QrPaymentId),
      // What the QR image encodes (a digit string in the document): the QR's content, as given. Only a
      // token that is itself a link opens the provider's app from a phone.
      qrToken: token,
      ...(/^https?:\/\//i.test(token) ? { deepLink: token } : {}),
      // The provider has made the QR by now: a date it writes some other way must not turn that into an
      // error, so an unreadable expiry is now plus the scan time-out it announced (decisions 26).
      expiresAt: this.date(d.ExpireDate) ?? new Date(Date.now() + timing.scanTimeoutS * 1000),
      timing,
    };
  }

  private date(text: unknown): Date | null {
    return parseProviderDate(text, this.a.localOffset ?? PROVIDER_LOCAL_OFFSET);
  }

  // Never retried either: a second push could be paid too. A lost answer is the domain's "outcome unknown".
  async createInvoice(input: {
    phone: string;
    amount: number;
    comment?: string | null;
    lifetimeS: number;
  }): Promise<ProviderInvoice> {
    const d = await this.a.connection.call<{ QrPaymentId: number | string }>('POST', 'remote/create', {
      body: {
        OrganizationBin: this.a.orgBin,
        Amount: input.amount,
        PhoneNumber: providerPhone(input.phone, this.a.phoneFormat),
        DeviceToken: this.device(),
        ...(input.comment ? { Comment: input.comment } : {}),
      },
    });
    // The document: an invoice is payable within 24 hours.
    return {
      ref: String(d.QrPaymentId),
      expiresAt: new Date(Date.now() + Math.min(input.lifetimeS, 24 * 3600) * 1000),
    };
  }

  async getStatus(ref: string): Promise<ProviderStatus> {
    // v02 adds the transaction id of a paid payment; the status word is the same in both.
    const d = await this.a.connection.call<StatusData>('GET', `payment/status/${encodeURIComponent(ref)}`, {
      version: this.a.statusVersion ?? 'v02',
      retry: true,
    });
    const status = mapStatus(d.Status);
    return {
      status,
      raw: d.Status,
      ...(status === 'paid'
        ? {
            transactionId:
              d.TransactionId === undefined || d.TransactionId === null || d.TransactionId === ''
                ? null
                : String(d.TransactionId),
          }
        : {}),
    };
  }

  /**
   * Any refusal of a cancel is followed by a status read before Tolem answers (decisions 26): the document
   * lists only vague codes for remote/cancel, and the invoice may have been paid, or already cancelled,
   * a moment ago. A lost session or an outage is answered as it is.
   */
  async cancelInvoice(ref: string): Promise<boolean> {
    try {
      await this.a.connection.call('POST', 'remote/cancel', {
        body: { OrganizationBin: this.a.orgBin, QrPaymentId: Number(ref), DeviceToken: this.device() },
      });
      return true;
    } catch (err) {
      if (!(err instanceof ProviderRejected)) throw err;
      const now = await this.getStatus(ref).catch(() => null);
      if (now?.status === 'paid') return false;
      if (now?.status === 'cancelled') return true;
      throw err;
    }
  }

  async refundableAmount(ref: string): Promise<number> {
    const d = await this.a.connection.call<{ AvailableReturnAmount: number }>('GET', 'payment/details', {
      query: { QrPaymentId: ref, DeviceToken: this.device() },
      retry: true,
    });
    return Math.round(Number(d.AvailableReturnAmount));
  }

  // Sent once per call; the domain reads refundableAmount before and, after a lost answer, again before
  // anything is sent a second time (decisions 24).
  async refund(ref: string, amount: number): Promise<ProviderRefund> {
    const d = await this.a.connection.call<{ ReturnOperationId: number | string }>('POST', 'payment/return', {
      body: this.withBin({ DeviceToken: this.device(), QrPaymentId: Number(ref), Amount: amount }),
    });
    return { ref: String(d.ReturnOperationId), status: 'completed' };
  }

  async findCustomer(phone: string): Promise<ProviderCustomer | null> {
    const device = this.device();
    if (!(await this.a.allowClientInfo(device)))
      throw new ProviderUnavailable('customer lookups are limited to 50 a minute per device; retry shortly');
    try {
      const d = await this.a.connection.call<{ ClientName?: string | null }>('GET', 'remote/client-info', {
        query: { phoneNumber: providerPhone(phone, this.a.phoneFormat), deviceToken: device },
        retry: true,
      });
      return { phone, name: d.ClientName ?? null };
    } catch (err) {
      // The document's lookup codes (-1401, -1404, 9900000xx): no such customer, a refusal, not an outage.
      if (err instanceof ProviderRejected && err.reason === 'client_not_found') return null;
      throw err;
    }
  }

  async checkSession(): Promise<boolean> {
    await this.a.connection.call('GET', 'health/ping', { retry: true });
    return true;
  }

  // Onboarding and health (decisions 19).
  async tradePoints(): Promise<{ id: number; name: string }[]> {
    const path = this.scheme === 'r3' ? `partner/tradepoints/${this.a.orgBin}` : 'partner/tradepoints';
    const d = await this.a.connection.call<{ TradePointId: number; TradePointName: string }[]>('GET', path, {
      retry: true,
    });
    return (d ?? []).map((t) => ({ id: Number(t.TradePointId), name: t.TradePointName }));
  }

  /** Idempotent at the provider (the same DeviceId answers the same token), so it may be retried. */
  async registerDevice(deviceId: string, tradePointId: number): Promise<string> {
    const d = await this.a.connection.call<{ DeviceToken: string }>('POST', 'device/register', {
      body: this.withBin({ DeviceId: deviceId, TradePointId: tradePointId }),
      retry: true,
    });
    return d.DeviceToken;
  }

  /** Done when the provider confirms it, or says it has no such device (-1501): already gone. */
  async deleteDevice(): Promise<void> {
    try {
      await this.a.connection.call('POST', 'device/delete', { body: this.withBin({ DeviceToken: this.device() }) });
    } catch (err) {
      if (err instanceof ProviderRejected && err.reason === 'not_found') return;
      throw err;
    }
  }
}

/** The r2 return flow (document p.22-25): the payer scans a return QR, then the refund names the return. */
class QrapiReturns implements ProviderReturns {
  constructor(
    private readonly a: QrapiAccount,
    private readonly device: () => string,
  ) {}

  // Not retried: a second return QR is harmless but confusing; the refund stays pending and the watcher
  // makes none until this one is settled.
  async createReturn(input: { refundId: string }): Promise<ProviderReturnQr> {
    const r = await this.a.connection.call<{
      QrToken: string | number;
      ExpireDate?: string;
      QrReturnId: number | string;
      QrReturnBehaviorOptions?: { QrCodeScanEventPollingInterval?: number; QrCodeScanWaitTimeout?: number };
    }>('POST', 'return/create', { body: { DeviceToken: this.device(), ExternalId: input.refundId.slice(0, 64) } });
    const o = r.QrReturnBehaviorOptions ?? {};
    const scanS = o.QrCodeScanWaitTimeout ?? 180;
    return {
      ref: String(r.QrReturnId),
      qrToken: String(r.QrToken),
      pollIntervalS: o.QrCodeScanEventPollingInterval ?? 5,
      expiresAt:
        parseProviderDate(r.ExpireDate, this.a.localOffset ?? PROVIDER_LOCAL_OFFSET) ??
        new Date(Date.now() + scanS * 1000),
    };
  }

  async returnStatus(ref: string): Promise<{ status: 'waiting' | 'identified' | 'failed'; raw: string }> {
    const r = await this.a.connection.call<{ Status: string }>('GET', `return/status/${encodeURIComponent(ref)}`, {
      retry: true,
    });
    // Appendix 5: QrTokenCreated (not final), CustomerIdentityObtained and Error (final); anything else waits.
    const status = r.Status === 'CustomerIdentityObtained' ? 'identified' : r.Status === 'Error' ? 'failed' : 'waiting';
    return { status, raw: r.Status };
  }

  async returnPurchases(ref: string): Promise<string[]> {
    const r = await this.a.connection.call<{ QrPaymentId: number | string }[] | null>('POST', 'return/operations', {
      body: { DeviceToken: this.device(), QrReturnId: Number(ref), MaxResult: 10 },
      retry: true,
    });
    return (r ?? []).map((p) => String(p.QrPaymentId));
  }

  async refundWithReturn(paymentRef: string, amount: number, returnRef: string): Promise<ProviderRefund> {
    const r = await this.a.connection.call<{ ReturnOperationId: number | string }>('POST', 'payment/return', {
      body: {
        DeviceToken: this.device(),
        QrPaymentId: Number(paymentRef),
        QrReturnId: Number(returnRef),
        Amount: amount,
      },
    });
    return { ref: String(r.ReturnOperationId), status: 'completed' };
  }
}
