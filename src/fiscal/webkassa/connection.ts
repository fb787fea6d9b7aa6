// Webkassa API v4 over HTTPS: every call a POST of JSON with the integrator's x-api-key, the token in the
// body, and the `{Data}` / `{Errors: [{Code, Text}]}` envelope at HTTP 200 (research section 1). A 505
// ("not served on this domain", as an HTTP status or an error code) is sent once more to a host the
// answer's AlternativeDomainNames header names: only its host name is taken, with the configured scheme
// and port, so an answer can never point the driver (and the token in its body) at another URL.
import type { Dispatcher } from 'undici';
import { type HttpAnswer, parseJson, poolFor, send, statusFailure } from '../http.ts';
import { FiscalError } from '../types.ts';
import { OTHER_DOMAIN, type WebkassaErrorItem } from './codes.ts';

export interface WebkassaEndpoint {
  /** https://kkm.webkassa.kz, without a trailing slash */
  baseUrl: string;
  apiKey: string | undefined;
  ca: string | undefined;
  timeoutMs: number;
}

export interface WebkassaEnvelope {
  Data?: unknown;
  Errors?: WebkassaErrorItem[];
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * The hosts of an AlternativeDomainNames header ("kkm2.webkassa.kz, kkm3.webkassa.kz", one header or
 * several, bare names or URLs), each as `base` with only its host name replaced. Entries that are not a
 * plain host name (a path, credentials, an odd scheme) are dropped; so is the host already tried.
 */
export function alternativeBases(header: string | string[] | undefined, base: string): string[] {
  if (!header) return [];
  const current = new URL(base);
  const out: string[] = [];
  for (const raw of (Array.isArray(header) ? header : [header]).flatMap((h) => h.split(/[\s,;]+/))) {
    const entry = raw.trim();
    if (!entry) continue;
    let host: string;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
      let u: URL;
      try {
        u = new URL(entry);
      } catch {
        continue;
      }
      if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password) continue;
      if ((u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) continue;
      host = u.hostname;
    } else {
      // "host" or "host:port": the port is the configured one, whatever the entry says.
      host = entry.replace(/:\d+$/, '');
    }
    if (!HOST_NAME.test(host) || host.toLowerCase() === current.hostname.toLowerCase()) continue;
    const next = new URL(current.href);
    next.hostname = host;
    const href = next.href.replace(/\/+$/, '');
    if (!out.includes(href)) out.push(href);
  }
  return out;
}

export class WebkassaConnection {
  private readonly pool: Dispatcher;

  constructor(private readonly ep: WebkassaEndpoint) {
    this.pool = poolFor('webkassa', ep.ca);
  }

  /**
   * POSTs one call and returns its envelope (Data or Errors, for the driver to read: a 14 may carry the
   * original receipt). Throws FiscalError for answers that are not Webkassa's (5xx, HTML) and for no answer.
   */
  async post(path: string, body: Record<string, unknown>, mutating: boolean): Promise<WebkassaEnvelope> {
    const first = await this.once(this.ep.baseUrl, path, body, mutating);
    if (!isOtherDomain(first.answer, first.envelope)) return this.envelopeOf(path, first, mutating);
    const alt = alternativeBases(first.answer.headers.alternativedomainnames, this.ep.baseUrl)[0];
    if (!alt)
      throw new FiscalError('unavailable', `webkassa ${path}: 505 without an alternative domain`, String(OTHER_DOMAIN));
    const second = await this.once(alt, path, body, mutating);
    if (isOtherDomain(second.answer, second.envelope))
      throw new FiscalError('unavailable', `webkassa ${path}: 505 on the alternative domain too`, String(OTHER_DOMAIN));
    return this.envelopeOf(path, second, mutating);
  }

  private async once(
    base: string,
    path: string,
    body: Record<string, unknown>,
    mutating: boolean,
  ): Promise<{ answer: HttpAnswer; envelope: WebkassaEnvelope | undefined }> {
    const headers: Record<string, string> = {};
    if (this.ep.apiKey) headers['x-api-key'] = this.ep.apiKey;
    const answer = await send(
      this.pool,
      { method: 'POST', url: `${base}${path}`, headers, body, mutating, name: path },
      this.ep.timeoutMs,
      { 'tolem.fiscal.driver': 'webkassa', 'server.address': new URL(base).hostname },
    );
    const parsed = parseJson(answer.text);
    const envelope =
      parsed && typeof parsed === 'object' && ('Data' in parsed || 'Errors' in parsed)
        ? (parsed as WebkassaEnvelope)
        : undefined;
    return { answer, envelope };
  }

  private envelopeOf(
    path: string,
    got: { answer: HttpAnswer; envelope: WebkassaEnvelope | undefined },
    mutating: boolean,
  ): WebkassaEnvelope {
    // Webkassa puts its refusals in the envelope at HTTP 200; an envelope under another status is still its
    // answer. No envelope: a gateway's page (5xx, HTML), no answer of the service's.
    if (got.envelope) return got.envelope;
    const status = got.answer.status;
    if (status >= 500) throw statusFailure(status, `webkassa ${path}`, mutating);
    if (status === 401 || status === 403)
      throw new FiscalError('auth_failed', `webkassa ${path}: HTTP ${status} (the x-api-key?)`, `HTTP_${status}`);
    throw new FiscalError(
      mutating ? 'outcome_unknown' : 'unavailable',
      `webkassa ${path}: HTTP ${status}, an answer that is not Webkassa's envelope`,
      `HTTP_${status}`,
    );
  }
}

function isOtherDomain(answer: HttpAnswer, envelope: WebkassaEnvelope | undefined): boolean {
  if (answer.status === OTHER_DOMAIN) return true;
  return !!envelope?.Errors?.some((e) => Number(e.Code) === OTHER_DOMAIN);
}
