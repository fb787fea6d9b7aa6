// Retries and time-outs around fetch. 429, 502 and 503 (and a connection that failed or timed out) are
// tried again with exponential back-off and jitter, or after the server's Retry-After; a POST is retried
// only when it carries an Idempotency-Key, since the server then answers a repeat with the first answer
// instead of creating twice.
export interface RetryOptions {
  /** attempts after the first (default 2) */
  maxRetries: number;
  /** per attempt, milliseconds (default 30 000) */
  timeoutMs: number;
  fetch: typeof fetch;
  /** waits between attempts; replaceable in tests */
  sleep?: (ms: number) => Promise<void>;
}

const RETRIED_STATUSES = new Set([429, 502, 503]);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE', 'PUT']);

export const mayRetry = (req: Request) => SAFE_METHODS.has(req.method) || req.headers.has('idempotency-key');

/** Seconds of a Retry-After header (delta seconds or an HTTP date), capped at a minute. */
export function retryAfterMs(res: Response, now = Date.now()): number | null {
  const v = res.headers.get('retry-after');
  if (!v) return null;
  const s = /^\d+$/.test(v.trim()) ? Number(v) * 1000 : Date.parse(v) - now;
  return Number.isFinite(s) ? Math.min(60_000, Math.max(0, s)) : null;
}

const backoffMs = (attempt: number) => Math.min(8000, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);
const defaultSleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

/**
 * One attempt's request, aborted after `timeoutMs` (headers and body) or when the caller's signal is.
 * Garbage collection must not lose the abort: AbortSignal.any() and a Request built with a signal follow
 * their sources through weak references, so a timeout signal, or the Request's own signal, that nothing
 * else references can be collected before it fires, and the call then hangs for ever (a test forces
 * collections to check this). Here the timer's callback holds the controller and the Request, and the
 * timer is unref'd (Node) so that a finished call's timer never keeps a process alive.
 */
function attemptRequest(req: Request, timeoutMs: number, caller?: AbortSignal | null): Request {
  const controller = new AbortController();
  let request: Request | undefined;
  const timer = setTimeout(() => {
    if (request) controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
  }, timeoutMs);
  (timer as { unref?: () => void }).unref?.();
  if (caller) {
    if (caller.aborted) controller.abort(caller.reason);
    else caller.addEventListener('abort', () => controller.abort(caller.reason), { once: true });
  }
  controller.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  request = new Request(req, { signal: controller.signal });
  return request;
}

export function retryingFetch(o: RetryOptions): (input: Request) => Promise<Response> {
  const sleep = o.sleep ?? defaultSleep;
  return async (input: Request) => {
    const retryable = mayRetry(input);
    for (let attempt = 0; ; attempt++) {
      const req = input.clone();
      let res: Response | undefined;
      let failure: unknown;
      try {
        res = await o.fetch(attemptRequest(req, o.timeoutMs, input.signal));
      } catch (err) {
        if (input.signal?.aborted) throw err; // the caller's own abort: never retried
        failure = err;
      }
      const again = retryable && attempt < o.maxRetries && (res === undefined || RETRIED_STATUSES.has(res.status));
      if (!again) {
        if (res) return res;
        throw failure;
      }
      await res?.body?.cancel().catch(() => {});
      await sleep((res && retryAfterMs(res)) ?? backoffMs(attempt));
    }
  };
}
