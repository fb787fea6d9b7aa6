// The live-mode HTTP adapter: speaks a small JSON protocol to a provider gateway (docs/provider-gateway.md)
// that holds the merchant's provider session. A gateway that cannot be reached, or answers garbage, is
// ProviderUnavailable (502); when the request may have reached it (time-out, dropped connection, 5xx,
// garbage) it is the narrower ProviderOutcomeUnknown. The gateway's `session_expired` answer becomes
// ProviderSessionExpired (503, live only).
import type {
  PaymentProvider,
  ProviderCustomer,
  ProviderInvoice,
  ProviderQr,
  ProviderRefund,
  ProviderStatus,
} from './types.ts';
import {
  ALL_CAPABILITIES,
  ProviderOutcomeUnknown,
  ProviderRefused,
  ProviderSessionExpired,
  ProviderUnavailable,
} from './types.ts';
import { inSpan } from '../telemetry/tracing.ts';
import { NOT_SENT_CODES } from '../infra/outbound.ts';

export class GatewayProvider implements PaymentProvider {
  readonly name = 'gateway';
  readonly capabilities = ALL_CAPABILITIES;

  constructor(
    private baseUrl: string,
    private timeoutMs = 10_000,
  ) {}

  /** One request to the gateway, as an HTTP client span beneath the call's (traced.ts) when tracing is on. */
  private call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const url = `${this.baseUrl.replace(/\/+$/, '')}${path}`;
    return inSpan(
      method,
      {
        kind: 'client',
        // A customer lookup's path is the customer's phone: the span names the route, not the person.
        attributes: {
          'http.request.method': method,
          'url.full': url.replace(/\/customers\/[^/?]+/, '/customers/{phone}'),
        },
      },
      async (span) => {
        const out = await this.send<T>(method, url, path, body, (status) =>
          span?.setAttribute('http.response.status_code', status),
        );
        return out;
      },
    );
  }

  private async send<T>(
    method: 'GET' | 'POST',
    url: string,
    path: string,
    body: unknown,
    answered: (status: number) => void,
  ): Promise<T> {
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
        redirect: 'error',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const code = ((err as Error).cause as { code?: string } | undefined)?.code;
      const Unavailable = code && NOT_SENT_CODES.has(code) ? ProviderUnavailable : ProviderOutcomeUnknown;
      throw new Unavailable(`gateway unreachable: ${code ?? (err as Error).message}`);
    }
    answered(res.status);
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw new ProviderOutcomeUnknown(`gateway answer cut off: ${(err as Error).message}`);
    }
    let json: { error?: string } & Record<string, unknown>;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProviderOutcomeUnknown(`gateway answered ${res.status} with non-JSON`);
    }
    if (json.error === 'session_expired') throw new ProviderSessionExpired('provider session expired');
    if (res.status === 404 && path.startsWith('/customers/')) return null as T;
    // A 4xx is the gateway refusing the request (it did nothing); a 5xx may come after it acted.
    if (res.status >= 500) throw new ProviderOutcomeUnknown(`gateway answered ${res.status}: ${json.error ?? 'error'}`);
    if (!res.ok) throw new ProviderRefused(`gateway answered ${res.status}: ${json.error ?? 'error'}`);
    return json as T;
  }

  async createQr(input: {
    amount: number;
    comment?: string | null;
    lifetimeS: number;
    requestId?: string;
  }): Promise<ProviderQr> {
    const r = await this.call<{ ref: string; qr_token: string; deep_link: string; expires_at: string }>('POST', '/qr', {
      amount: input.amount,
      comment: input.comment ?? null,
      lifetime_s: input.lifetimeS,
      request_id: input.requestId ?? null,
    });
    return { ref: r.ref, qrToken: r.qr_token, deepLink: r.deep_link, expiresAt: new Date(r.expires_at) };
  }

  async createInvoice(input: {
    phone: string;
    amount: number;
    comment?: string | null;
    lifetimeS: number;
    requestId?: string;
  }): Promise<ProviderInvoice> {
    const r = await this.call<{ ref: string; expires_at: string }>('POST', '/invoices', {
      phone: input.phone,
      amount: input.amount,
      comment: input.comment ?? null,
      lifetime_s: input.lifetimeS,
      request_id: input.requestId ?? null,
    });
    return { ref: r.ref, expiresAt: new Date(r.expires_at) };
  }

  async getStatus(ref: string): Promise<ProviderStatus> {
    const r = await this.call<{
      status: ProviderStatus['status'];
      raw: string;
      sender_name?: string;
      sender_phone?: string;
      transaction_id?: string;
      paid_at?: string;
    }>('GET', `/payments/${encodeURIComponent(ref)}`);
    if (!['waiting', 'paid', 'expired', 'cancelled', 'declined'].includes(r.status))
      throw new ProviderUnavailable(`unknown status ${r.status}`);
    return {
      status: r.status,
      raw: r.raw,
      senderName: r.sender_name ?? null,
      senderPhone: r.sender_phone ?? null,
      transactionId: r.transaction_id ?? null,
      paidAt: r.paid_at ? new Date(r.paid_at) : null,
    };
  }

  async cancelInvoice(ref: string): Promise<boolean> {
    const r = await this.call<{ cancelled: boolean }>('POST', `/invoices/${encodeURIComponent(ref)}/cancel`, {});
    return r.cancelled === true;
  }

  async refund(ref: string, amount: number, refundId: string): Promise<ProviderRefund> {
    const r = await this.call<{ ref: string; status: ProviderRefund['status'] }>(
      'POST',
      `/payments/${encodeURIComponent(ref)}/refunds`,
      { amount, refund_id: refundId },
    );
    if (!['completed', 'pending', 'failed'].includes(r.status))
      throw new ProviderOutcomeUnknown(`unknown refund status ${r.status}`);
    return { ref: r.ref, status: r.status };
  }

  async findCustomer(phone: string): Promise<ProviderCustomer | null> {
    const r = await this.call<{ phone: string; name: string | null } | null>(
      'GET',
      `/customers/${encodeURIComponent(phone)}`,
    );
    return r ? { phone: r.phone, name: r.name } : null;
  }

  async checkSession(): Promise<boolean> {
    const r = await this.call<{ alive: boolean }>('GET', '/session');
    return r.alive === true;
  }
}
