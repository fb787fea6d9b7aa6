// reKassa's partner API over HTTPS: JSON, `Authorization: Bearer <token>` after auth/login (whose apiKey
// rides in the query), refusals as {code, message} with a 4xx/5xx status (research section 2).
import type { Dispatcher } from 'undici';
import { parseJson, poolFor, send, statusFailure } from '../http.ts';
import { FiscalError } from '../types.ts';
import { errorOf, type RekassaErrorBody } from './codes.ts';

export interface RekassaEndpoint {
  /** https://app.rekassa.kz/partner: the partner API without its /api */
  baseUrl: string;
  ca: string | undefined;
  timeoutMs: number;
}

export interface RekassaCall {
  method: 'GET' | 'POST';
  /** from /api on, e.g. /api/crs/42/tickets */
  path: string;
  /** the call's name in spans and errors: the path without ids */
  name: string;
  query?: Record<string, string>;
  token?: string;
  headers?: Record<string, string>;
  body?: unknown;
  mutating: boolean;
  /** auth/login: 400/401/403 mean wrong credentials, not an expired token */
  login?: boolean;
}

export class RekassaConnection {
  private readonly pool: Dispatcher;

  constructor(private readonly ep: RekassaEndpoint) {
    this.pool = poolFor('rekassa', ep.ca);
  }

  get baseUrl(): string {
    return this.ep.baseUrl;
  }

  /** The answer's JSON body on 2xx; a FiscalError otherwise. */
  async call(c: RekassaCall): Promise<unknown> {
    const query = c.query ? `?${new URLSearchParams(c.query)}` : '';
    const headers: Record<string, string> = { ...c.headers };
    if (c.token) headers.authorization = `Bearer ${c.token}`;
    const answer = await send(
      this.pool,
      {
        method: c.method,
        url: `${this.ep.baseUrl}${c.path}${query}`,
        headers,
        body: c.body,
        mutating: c.mutating,
        name: c.name,
      },
      this.ep.timeoutMs,
      { 'tolem.fiscal.driver': 'rekassa' },
    );
    const body = parseJson(answer.text);
    if (answer.status >= 200 && answer.status < 300) {
      if (body === undefined && answer.text.trim() !== '')
        throw new FiscalError(
          c.mutating ? 'outcome_unknown' : 'unavailable',
          `rekassa ${c.name}: HTTP ${answer.status}, a body that is not JSON`,
        );
      return body ?? {};
    }
    const isServiceError = body && typeof body === 'object' && ('code' in body || 'message' in body);
    // A 5xx without reKassa's error body is a gateway's page, no answer of the service's.
    if (answer.status >= 500 && !isServiceError) throw statusFailure(answer.status, `rekassa ${c.name}`, c.mutating);
    if (answer.status >= 500 && answer.status !== 503 && c.mutating) {
      // reKassa's own 5xx on a receipt: it failed inside, perhaps after signing. Look it up before anything.
      const e = errorOf(c.name, answer.status, body as RekassaErrorBody, false);
      throw new FiscalError('outcome_unknown', e.message, e.code);
    }
    throw errorOf(c.name, answer.status, (isServiceError ? body : {}) as RekassaErrorBody, c.login === true);
  }
}
