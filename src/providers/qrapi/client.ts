// One provider account's connection to the official QR partner API (decisions 24): r1 with Api-Key, r2
// and r3 over client-certificate TLS 1.2 (an undici Agent per account from its PFX; the provider's CA
// configurable; r3 through the egress proxy of its static IP when set), X-Request-ID on every call, the
// {StatusCode, Message, Data} envelope, retries only where the caller says a call is safe to repeat, and
// a circuit breaker per account.
import { randomUUID } from 'node:crypto';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Scheme } from '../types.ts';
import { ProviderOutcomeUnknown, ProviderRefused, ProviderSessionExpired, ProviderUnavailable } from '../types.ts';
import { CircuitBreaker } from './breaker.ts';
import { errorForCode, normalizeCode, TRANSIENT } from './codes.ts';

export interface QrapiEndpoints {
  /** full base of each scheme, e.g. https://host:8545/r3/v01 */
  r1?: string;
  r2?: string;
  r3?: string;
  /** the provider's CA (PEM); the system's CAs when unset */
  ca?: string;
  timeoutMs: number;
  /** r3's static egress IP: an HTTP(S) proxy the provider allow-lists */
  egressProxy?: string;
  /** first retry delay; doubled each time, with jitter */
  retryBaseMs?: number;
  breakerOpenMs?: number;
}

export type QrapiCredentials = { scheme: 'r1'; apiKey: string } | { scheme: 'r2' | 'r3'; pfx: Buffer; password: string };

export interface CallOptions {
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** v02 exists for payment/status only */
  version?: 'v01' | 'v02';
  /** a read or an idempotent call (device/register): retried with back-off on -999 and network failures */
  retry?: boolean;
}

const RETRIES = 2;
const TLS_FAILURE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/;
/** Failures of the connection itself: nothing reached the provider. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export class QrapiClient {
  readonly breaker: CircuitBreaker;
  private dispatcher?: Dispatcher;
  private readonly base: string;

  constructor(private readonly ep: QrapiEndpoints, private readonly cred: QrapiCredentials) {
    this.breaker = new CircuitBreaker(5, ep.breakerOpenMs ?? 30_000);
    const base = ep[cred.scheme];
    if (!base) throw new Error(`no base URL for scheme ${cred.scheme} (QRAPI_BASE_URL or QRAPI_${cred.scheme.toUpperCase()}_URL)`);
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
        ca: this.ep.ca,
        minVersion: 'TLSv1.2',
        maxVersion: 'TLSv1.2',
        ...(this.cred.scheme === 'r1' ? {} : { pfx: this.cred.pfx, passphrase: this.cred.password }),
      });
    } catch (err) {
      throw new ProviderSessionExpired(`the client certificate or the provider's CA cannot be read (${(err as Error).message})`);
    }
    const tls = { secureContext };
    this.dispatcher = this.cred.scheme === 'r3' && this.ep.egressProxy
      ? new ProxyAgent({ uri: this.ep.egressProxy, requestTls: tls })
      : new Agent({ connect: tls, keepAliveTimeout: 30_000 });
    return this.dispatcher;
  }

  get scheme(): Scheme {
    return this.cred.scheme;
  }

  async close(): Promise<void> {
    await this.dispatcher?.close();
  }

  /** The call's Data, or the error its answer means. */
  async call<T>(method: 'GET' | 'POST', path: string, opts: CallOptions = {}): Promise<T> {
    if (!this.breaker.allow()) throw new ProviderUnavailable('provider circuit open: recent calls failed; retry in a moment');
    let attempt = 0;
    for (;;) {
      try {
        const data = await this.once<T>(method, path, opts);
        this.breaker.success();
        return data;
      } catch (err) {
        // An outage: no usable answer (-999, a network failure, garbage). A refusal is an answer: the provider is up.
        const outage = err instanceof ProviderUnavailable && !(err instanceof ProviderRefused);
        if (outage) this.breaker.failure();
        else this.breaker.success();
        const again = opts.retry && outage && attempt < RETRIES && this.breaker.allow();
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

  private async once<T>(method: 'GET' | 'POST', path: string, opts: CallOptions): Promise<T> {
    const headers: Record<string, string> = { 'x-request-id': randomUUID(), accept: 'application/json' };
    if (this.cred.scheme === 'r1') headers['api-key'] = this.cred.apiKey;
    if (opts.body) headers['content-type'] = 'application/json';
    let status: number;
    let text: string;
    const dispatcher = this.connections();
    try {
      const res = await request(this.url(path, opts), {
        method, headers, body: opts.body ? JSON.stringify(opts.body) : undefined, dispatcher,
        headersTimeout: this.ep.timeoutMs, bodyTimeout: this.ep.timeoutMs,
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      const code = String((err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code ?? '');
      const what = `${path}: ${code || (err as Error).name}`;
      if (TLS_FAILURE.test(code)) throw new ProviderSessionExpired(`TLS or certificate failure on ${what}`);
      if (NOT_SENT.has(code)) throw new ProviderUnavailable(`provider not reachable (${what})`);
      // A time-out or a reset after the request left: the provider may have acted.
      throw new ProviderOutcomeUnknown(`no answer from the provider (${what})`);
    }
    let envelope: { StatusCode?: unknown; Message?: string; Data?: unknown };
    try {
      envelope = JSON.parse(text);
    } catch {
      throw new ProviderOutcomeUnknown(`${path}: HTTP ${status}, an answer that is not JSON`);
    }
    if (typeof envelope?.StatusCode !== 'number') throw new ProviderOutcomeUnknown(`${path}: HTTP ${status}, no StatusCode`);
    if (envelope.StatusCode === 0) return envelope.Data as T;
    if (normalizeCode(envelope.StatusCode) === TRANSIENT) throw new ProviderUnavailable(`provider StatusCode -999 on ${path}`);
    throw errorForCode(envelope.StatusCode, envelope.Message);
  }
}
