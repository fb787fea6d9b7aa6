// One provider account's connection to the official QR partner API (decisions 24, 26): r1 with Api-Key,
// r2 and r3 over client-certificate TLS 1.2 (an undici Agent per account from its PFX; the provider's CA
// added to the trusted ones; r3 through the egress proxy of its static IP when set), X-Request-ID on
// every call, the {StatusCode, Message, Data} envelope read by codes.ts, retries only of outages and only
// where the caller says a call is safe to repeat, and a circuit breaker per account that counts outages
// alone: a refusal is an answer, and proves the provider up.
import { randomUUID } from 'node:crypto';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Scheme } from '../types.ts';
import {
  ProviderEgressRefused,
  ProviderOutcomeUnknown,
  ProviderRefused,
  ProviderSessionExpired,
  ProviderUnavailable,
} from '../types.ts';
import { CircuitBreaker } from './breaker.ts';
import { errorForCode, type Call } from './codes.ts';
import { inSpan } from '../../telemetry/tracing.ts';
import { NOT_SENT_CODES, TLS_FAILURE, TLS_NOT_ESTABLISHED, trustedCas } from '../../infra/outbound.ts';

export interface QrapiEndpoints {
  /** full base of each scheme, e.g. https://host:8545/r3/v01 */
  r1?: string;
  r2?: string;
  r3?: string;
  /** the provider's CA (PEM), trusted beside the system's CAs (decisions 26: added, never instead) */
  ca?: string;
  timeoutMs: number;
  /** r3's static egress IP: an HTTP(S) proxy the provider allow-lists */
  egressProxy?: string;
  /** first retry delay; doubled each time, with jitter */
  retryBaseMs?: number;
  breakerOpenMs?: number;
}

export type QrapiCredentials =
  | { scheme: 'r1'; apiKey: string }
  | { scheme: 'r2' | 'r3'; pfx: Buffer; password: string };

export interface CallOptions {
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** v02 exists for payment/status only */
  version?: 'v01' | 'v02';
  /** a read or an idempotent call (device/register): retried with back-off on -999 and network failures */
  retry?: boolean;
}

const RETRIES = 2;

/**
 * A TLS or certificate failure: the account's credentials or the provider's certificate (503
 * session_expired), and an outage for the breaker, since no answer came.
 */
export class ProviderTlsFailure extends ProviderSessionExpired {}

/** An error that says the provider gave no usable answer: the breaker counts it, a safe call retries it. */
export function isOutage(err: unknown): boolean {
  if (err instanceof ProviderTlsFailure) return true;
  // A refusal (ProviderRefused) extends ProviderUnavailable too: it is an answer, not an outage.
  return err instanceof ProviderUnavailable && !(err instanceof ProviderRefused);
}

/** The document's name of the call a path makes: its ids (a QrPaymentId, a BIN) cut off. */
export function callOf(path: string): Call {
  return path.replace(/\/+$/, '').replace(/^(payment\/status|return\/status|partner\/tradepoints)\/.*$/, '$1') as Call;
}

export class QrapiConnection {
  readonly breaker: CircuitBreaker;
  private dispatcher?: Dispatcher;
  private readonly base: string;

  constructor(
    private readonly ep: QrapiEndpoints,
    private readonly cred: QrapiCredentials,
  ) {
    this.breaker = new CircuitBreaker(5, ep.breakerOpenMs ?? 30_000);
    const base = ep[cred.scheme];
    if (!base)
      throw new Error(
        `no base URL for scheme ${cred.scheme} (QRAPI_BASE_URL or QRAPI_${cred.scheme.toUpperCase()}_URL)`,
      );
    this.base = base.replace(/\/+$/, '');
  }

  /**
   * The account's connections, made at its first call. One TLS context for all of them: given the PFX
   * and CA as options, each new connection built its own context, decrypting the PKCS#12 and parsing the
   * CA again (the watcher's profile, 1,000 status calls a second over 200 accounts: most of its CPU in
   * configSecureContext). Made at the first call, not here, so that a PFX that cannot be opened fails that
   * call as a certificate failure before anything is sent, as a refused handshake does.
   */
  private connections(): Dispatcher {
    if (this.dispatcher) return this.dispatcher;
    let secureContext: SecureContext;
    try {
      secureContext = createSecureContext({
        ca: trustedCas(this.ep.ca),
        minVersion: 'TLSv1.2',
        maxVersion: 'TLSv1.2',
        ...(this.cred.scheme === 'r1' ? {} : { pfx: this.cred.pfx, passphrase: this.cred.password }),
      });
    } catch (err) {
      throw new ProviderSessionExpired(
        `the client certificate or the provider's CA cannot be read (${(err as Error).message})`,
      );
    }
    const tls = { secureContext };
    this.dispatcher =
      this.cred.scheme === 'r3' && this.ep.egressProxy
        ? new ProxyAgent({ uri: this.ep.egressProxy, requestTls: tls })
        : new Agent({ connect: tls, keepAliveTimeout: 30_000 });
    return this.dispatcher;
  }

  get scheme(): Scheme {
    return this.cred.scheme;
  }

  async close(): Promise<void> {
    this.breaker.dispose();
    await this.dispatcher?.close();
  }

  /** The call's Data, or the error its answer means. */
  async call<T>(method: 'GET' | 'POST', path: string, opts: CallOptions = {}): Promise<T> {
    if (!this.breaker.allow())
      throw new ProviderUnavailable('provider circuit open: recent calls failed; retry in a moment');
    let attempt = 0;
    for (;;) {
      try {
        const data = await this.once<T>(method, path, opts);
        this.breaker.success();
        return data;
      } catch (err) {
        const outage = isOutage(err);
        if (outage) this.breaker.failure();
        else this.breaker.success();
        const again =
          opts.retry && outage && !(err instanceof ProviderEgressRefused) && attempt < RETRIES && this.breaker.allow();
        if (!again) throw err;
        const base = (this.ep.retryBaseMs ?? 200) * 2 ** attempt;
        await new Promise((r) => setTimeout(r, base / 2 + Math.random() * base));
        attempt++;
      }
    }
  }

  private url(path: string, opts: CallOptions): string {
    const base = opts.version === 'v02' ? this.base.replace(/\/v01$/, '/v02') : this.base;
    const query = opts.query ? `?${new URLSearchParams(opts.query)}` : '';
    return `${base}/${path}${query}`;
  }

  /** One attempt, as an HTTP client span beneath the call's (providers/traced.ts) when tracing is on. */
  private once<T>(method: 'GET' | 'POST', path: string, opts: CallOptions): Promise<T> {
    const url = this.url(path, opts);
    return inSpan(
      `${method} ${callOf(path)}`,
      {
        kind: 'client',
        // Without the query: it carries the device token and, for client-info, the customer's phone.
        attributes: {
          'http.request.method': method,
          'url.full': url.split('?')[0],
          'tolem.provider.scheme': this.cred.scheme,
        },
      },
      async (span) => {
        const out = await this.attempt<T>(method, url, path, opts, (status) =>
          span?.setAttribute('http.response.status_code', status),
        );
        return out;
      },
    );
  }

  private async attempt<T>(
    method: 'GET' | 'POST',
    url: string,
    path: string,
    opts: CallOptions,
    answered: (status: number) => void,
  ): Promise<T> {
    const headers: Record<string, string> = { 'x-request-id': randomUUID(), accept: 'application/json' };
    if (this.cred.scheme === 'r1') headers['api-key'] = this.cred.apiKey;
    if (opts.body) headers['content-type'] = 'application/json';
    let status: number;
    let text: string;
    const dispatcher = this.connections();
    try {
      const res = await request(url, {
        method,
        headers,
        body: opts.body ? JSON.stringify(opts.body) : undefined,
        dispatcher,
        headersTimeout: this.ep.timeoutMs,
        bodyTimeout: this.ep.timeoutMs,
      });
      status = res.statusCode;
      answered(status);
      text = await res.body.text();
    } catch (err) {
      const code = String((err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code ?? '');
      const what = `${path}: ${code || (err as Error).name}`;
      // r3 alone is reached from an allow-listed address: its host closing the TLS session before it is
      // established is that rule refusing this server (decisions 26). Nothing was sent.
      if (this.cred.scheme === 'r3' && TLS_NOT_ESTABLISHED.test((err as Error).message ?? ''))
        throw egressRefused(what);
      if (TLS_FAILURE.test(code)) throw new ProviderTlsFailure(`TLS or certificate failure on ${what}`);
      if (NOT_SENT_CODES.has(code) || TLS_NOT_ESTABLISHED.test((err as Error).message ?? ''))
        throw new ProviderUnavailable(`provider not reachable (${what})`);
      // A time-out or a reset after the request left: the provider may have acted.
      throw new ProviderOutcomeUnknown(`no answer from the provider (${what})`);
    }
    if (status >= 500) throw new ProviderOutcomeUnknown(`${path}: HTTP ${status} from the provider`);
    let envelope: { StatusCode?: unknown; Message?: string; Data?: unknown } | undefined;
    try {
      envelope = JSON.parse(text);
    } catch {
      envelope = undefined;
    }
    if (typeof envelope?.StatusCode !== 'number') {
      if (status === 403 && this.cred.scheme === 'r3') throw egressRefused(`${path}: HTTP 403`);
      throw new ProviderOutcomeUnknown(`${path}: HTTP ${status}, an answer that is not the provider's envelope`);
    }
    if (envelope.StatusCode === 0) return envelope.Data as T;
    throw errorForCode(callOf(path), envelope.StatusCode, envelope.Message);
  }
}

function egressRefused(what: string): ProviderEgressRefused {
  return new ProviderEgressRefused(
    `the provider's r3 host refused this server (${what}): r3 answers only the static IP the provider allow-listed; ` +
      'send through that address (PROVIDER_EGRESS_PROXY) or have the provider add this one',
  );
}
