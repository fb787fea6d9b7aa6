// The one HTTP client for every outbound webhook call (worker, manual retry, test). Its connector
// resolves the name itself, refuses addresses outside public unicast (address-policy.ts) and connects to
// exactly the address it checked, so a DNS answer cannot change between check and connect (rebinding).
// No redirects are followed (undici's request never follows them), the whole call has one time-out, and
// the response body is read to at most 64 KiB. A refused destination reads the same to the caller whatever
// the reason (a private address, a name that does not resolve): ADDRESS_NOT_ALLOWED, never the address a
// name resolved to nor the resolver's error, so the test call and the delivery log cannot be used to map
// internal names (issue 38). The reason is kept in `detail`, for the operator's log only.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { classifyAddress } from './address-policy.ts';

export const MAX_RESPONSE_BYTES = 64 * 1024;

/** What a caller reads for every refused destination. */
export const ADDRESS_NOT_ALLOWED = 'address not allowed: the host has no public address that webhooks may reach';

export class AddressRefusedError extends Error {
  readonly code = 'ERR_ADDRESS_REFUSED';
  /** for the operator's log only: the name, what it resolved to or what the resolver answered, and why refused */
  readonly detail: string;
  constructor(detail: string) {
    super(ADDRESS_NOT_ALLOWED);
    this.detail = detail;
  }
}

export type LookupAll = (hostname: string) => Promise<LookupAddress[]>;

const systemLookup: LookupAll = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addrs) => (err ? reject(err) : resolve(addrs))),
  );

/**
 * The address to connect to: the first resolved one the policy allows. Refused (AddressRefusedError) when
 * there is none, and when the name does not resolve at all: to a caller, a name that does not exist and a
 * name of a private address must look alike.
 */
export async function resolveChecked(
  hostname: string,
  allowPrivate: boolean,
  lookup: LookupAll = systemLookup,
): Promise<string> {
  const host = hostname.replace(/^\[|\]$/g, '');
  let candidates: string[];
  if (isIP(host)) {
    candidates = [host];
  } else {
    try {
      candidates = (await lookup(host)).map((a) => a.address);
    } catch (err) {
      const e = err as { code?: string; message?: string };
      throw new AddressRefusedError(
        `${host} did not resolve: ${e?.code ?? 'error'} ${(e?.message ?? String(err)).slice(0, 200)}`,
      );
    }
  }
  const verdicts = candidates.map((a) => classifyAddress(a, allowPrivate));
  const ok = verdicts.find((v) => v.allowed);
  if (ok) return ok.address;
  throw new AddressRefusedError(
    verdicts.length
      ? `${host} resolves to ${verdicts.map((v) => `${v.address} (${v.range})`).join(', ')}` +
          ', which webhooks may not reach'
      : `${host} has no address`,
  );
}

/** An undici connector that checks the resolved address before connecting to it. */
export function guardedConnector(opts: {
  allowPrivate: boolean;
  timeoutMs: number;
  lookup?: LookupAll;
}): buildConnector.connector {
  const base = buildConnector({ timeout: opts.timeoutMs });
  return (options, callback) => {
    resolveChecked(options.hostname, opts.allowPrivate, opts.lookup).then(
      // `host` keeps the original name, so TLS still sends it as SNI and verifies the certificate for it.
      (address) => base({ ...options, hostname: address }, callback),
      (err: Error) => callback(err, null),
    );
  };
}

const agents = new Map<string, Agent>();

function agentFor(allowPrivate: boolean, timeoutMs: number): Agent {
  const key = `${allowPrivate}:${timeoutMs}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({
      connect: guardedConnector({ allowPrivate, timeoutMs }),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4_000,
    });
    agents.set(key, agent);
  }
  return agent;
}

export interface OutboundResult {
  /** HTTP status; 0 when no response arrived (refused address, DNS, TLS, connection, time-out) */
  status: number;
  /** response body, at most 64 KiB, decoded as UTF-8 */
  body: string;
  truncated: boolean;
  headers: Record<string, string>;
  durationMs: number;
  /** short reason when status is 0, as the caller may read it */
  error: string | null;
  /** for the operator's log only: why a destination was refused (what the name resolved to, the resolver's error) */
  detail: string | null;
}

function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (
    e?.name === 'TimeoutError' ||
    e?.name === 'AbortError' ||
    e?.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e?.code === 'UND_ERR_BODY_TIMEOUT' ||
    e?.code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return `timeout after ${timeoutMs} ms`;
  }
  if (err instanceof AddressRefusedError) return ADDRESS_NOT_ALLOWED;
  const code = e?.code ?? e?.cause?.code;
  const msg = (e?.message ?? String(err)).slice(0, 200);
  return code && !msg.includes(code) ? `${code}: ${msg}` : msg;
}

const noResponse = (error: string, durationMs = 0, detail: string | null = null): OutboundResult => ({
  status: 0,
  body: '',
  truncated: false,
  headers: {},
  durationMs,
  error,
  detail,
});

/** No answer: what the caller reads, and the refusal's detail for the operator. */
const failed = (err: unknown, timeoutMs: number, durationMs: number): OutboundResult =>
  noResponse(describe(err, timeoutMs), durationMs, err instanceof AddressRefusedError ? err.detail : null);

/**
 * One POST. Sent through undici's dispatcher with a handler of our own rather than `request()`: no
 * response stream, no request object and no AbortSignal per call, which halves the client's CPU per call
 * (measured: ~88 -> ~40 µs per POST to a local receiver), and the webhook worker is CPU-bound on it.
 */
export function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { allowPrivate: boolean; timeoutMs: number },
): Promise<OutboundResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(noResponse('invalid url'));
  }
  if (target.protocol !== 'https:' && !(opts.allowPrivate && target.protocol === 'http:')) {
    return Promise.resolve(noResponse('refused: url must use https'));
  }
  return new Promise((resolve) => {
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let status = 0;
    let responseHeaders: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (r: OutboundResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const answered = (truncated: boolean) =>
      finish({
        status,
        body: Buffer.concat(chunks).toString('utf8'),
        truncated,
        headers: responseHeaders,
        durationMs: took(),
        error: null,
        detail: null,
      });
    // One time-out for the whole call (connection, headers and body together).
    const timer = setTimeout(() => {
      const err = new DOMException('timed out', 'TimeoutError');
      controller?.abort(err);
      // A body cut by the time-out: the status already arrived and is what counts.
      if (status) answered(true);
      else finish(noResponse(describe(err, opts.timeoutMs), took()));
    }, opts.timeoutMs);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (settled) c.abort(new DOMException('timed out', 'TimeoutError'));
      },
      onResponseStart(_c, statusCode, h) {
        status = statusCode;
        const flat: Record<string, string> = {};
        for (const [k, v] of Object.entries(h)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
        responseHeaders = flat;
      },
      onResponseData(c, chunk) {
        // The body up to MAX_RESPONSE_BYTES; the rest is never read (the request is aborted).
        if (size + chunk.length > MAX_RESPONSE_BYTES) {
          chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
          size = MAX_RESPONSE_BYTES;
          answered(true);
          c.abort(new Error('response body over the limit'));
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      },
      onResponseEnd() {
        answered(false);
      },
      onResponseError(_c, err) {
        // A body cut by the peer after the status arrived still counts as that answer.
        if (status) answered(true);
        else finish(failed(err, opts.timeoutMs, took()));
      },
    };
    try {
      agentFor(opts.allowPrivate, opts.timeoutMs).dispatch(
        { origin: target.origin, path: target.pathname + target.search, method: 'POST', headers, body },
        handler,
      );
    } catch (err) {
      finish(failed(err, opts.timeoutMs, took()));
    }
  });
}
