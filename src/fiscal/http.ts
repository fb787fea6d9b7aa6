// The HTTP calls of the fiscal drivers (webkassa, rekassa): one undici connection pool per service and CA,
// shared by every register of that service, so that a register's calls reuse its TLS sessions; the extra
// CA (FISCAL_CA_FILE) trusted beside the system's, never instead; a time-out; a client span per call; and
// the line between `unavailable` (nothing reached the service: the call may be sent again) and
// `outcome_unknown` (it went out and no answer came: the receipt may exist, look it up first).
import { createSecureContext } from 'node:tls';
import { Agent, type Dispatcher, request } from 'undici';
import { inSpan } from '../telemetry/tracing.ts';
import { NOT_SENT_CODES, TLS_FAILURE, TLS_NOT_ESTABLISHED, trustedCas } from '../infra/outbound.ts';
import { FiscalError } from './types.ts';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface HttpCall {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /**
   * The call changes something (a receipt, a Z-report): a request that went out unanswered is then
   * `outcome_unknown`. A read that went unanswered changed nothing: `unavailable`.
   */
  mutating: boolean;
  /** the span's name: the call as the service's document names it, without ids */
  name: string;
}

const pools = new Map<string, Dispatcher>();

/** One pool per service and CA for the process: registers of one service share its connections. */
export function poolFor(service: string, ca: string | undefined): Dispatcher {
  const key = `${service}\n${ca ?? ''}`;
  let pool = pools.get(key);
  if (!pool) {
    const secureContext = createSecureContext({ ca: trustedCas(ca), minVersion: 'TLSv1.2' });
    pool = new Agent({ connect: { secureContext }, keepAliveTimeout: 30_000 });
    pools.set(key, pool);
  }
  return pool;
}

/** Closes the pools (the process's shutdown, a test's end). */
export async function closeFiscalPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}

/** The network error's code, from undici's error or its cause. */
function codeOf(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } };
  return String(e.code ?? e.cause?.code ?? '');
}

/**
 * What a call that got no HTTP answer means. Refused, unresolved, unreachable, a TLS failure: nothing
 * reached the service. A time-out, a reset or a closed socket after the request left: a mutating call may
 * have been acted on.
 */
export function networkFailure(err: unknown, what: string, mutating: boolean): FiscalError {
  const code = codeOf(err);
  const message = (err as Error)?.message ?? '';
  const label = `${what}: ${code || (err as Error)?.name || 'error'}`;
  if (NOT_SENT_CODES.has(code) || TLS_FAILURE.test(code) || TLS_NOT_ESTABLISHED.test(message))
    return new FiscalError('unavailable', `the cash-register service is not reachable (${label})`, null, {
      cause: err,
    });
  return new FiscalError(
    mutating ? 'outcome_unknown' : 'unavailable',
    `no answer from the cash-register service (${label})`,
    null,
    { cause: err },
  );
}

/**
 * An HTTP status that is no answer of the service's own (a gateway's 5xx, an HTML page). 503 says the
 * service did not take the request; any other 5xx (502, 504: a gateway gave up waiting) may come after
 * the service acted.
 */
export function statusFailure(status: number, what: string, mutating: boolean): FiscalError {
  const kind = status === 503 || !mutating ? 'unavailable' : 'outcome_unknown';
  return new FiscalError(kind, `${what}: HTTP ${status} from the cash-register service`, `HTTP_${status}`);
}

/** Sends one call; throws FiscalError unavailable/outcome_unknown when no HTTP answer came. */
export function send(
  pool: Dispatcher,
  call: HttpCall,
  timeoutMs: number,
  attributes: Record<string, string>,
): Promise<HttpAnswer> {
  const path = new URL(call.url).pathname;
  return inSpan(
    `${call.method} ${call.name}`,
    // Without the query (reKassa's apiKey rides in it) and never the body (tokens, passwords).
    { kind: 'client', attributes: { 'http.request.method': call.method, 'url.path': path, ...attributes } },
    async (span) => {
      const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
      if (call.body !== undefined) headers['content-type'] = 'application/json';
      try {
        const res = await request(call.url, {
          method: call.method,
          headers,
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
          dispatcher: pool,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        span?.setAttribute('http.response.status_code', res.statusCode);
        const text = await res.body.text();
        return { status: res.statusCode, headers: res.headers, text };
      } catch (err) {
        if (err instanceof FiscalError) throw err;
        throw networkFailure(err, call.name, call.mutating);
      }
    },
  );
}

/** The body as JSON, or undefined when it is not (an HTML error page, an empty body). */
export function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
