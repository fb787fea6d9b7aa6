// The one HTTP client for every outbound webhook call (worker, manual retry, test). Its connector
// resolves the name itself, refuses addresses outside public unicast (address-policy.ts) and connects to
// exactly the address it checked, so a DNS answer cannot change between check and connect (rebinding).
// No redirects are followed (undici's request never follows them), the whole call has one time-out, and
// the response body is read to at most 64 KiB.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { classifyAddress } from './address-policy.ts';

export const MAX_RESPONSE_BYTES = 64 * 1024;

export class AddressRefusedError extends Error {
  readonly code = 'ERR_ADDRESS_REFUSED';
}

export type LookupAll = (hostname: string) => Promise<LookupAddress[]>;

const systemLookup: LookupAll = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addrs) => (err ? reject(err) : resolve(addrs))),
  );

/** The address to connect to: the first resolved one the policy allows; refused when there is none. */
export async function resolveChecked(hostname: string, allowPrivate: boolean, lookup: LookupAll = systemLookup): Promise<string> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const candidates = isIP(host) ? [host] : (await lookup(host)).map((a) => a.address);
  const verdicts = candidates.map((a) => classifyAddress(a, allowPrivate));
  const ok = verdicts.find((v) => v.allowed);
  if (ok) return ok.address;
  const v = verdicts[0];
  throw new AddressRefusedError(
    v ? `refused: ${host} resolves to ${v.address} (${v.range}), which webhooks may not reach` : `refused: ${host} has no address`,
  );
}

/** An undici connector that checks the resolved address before connecting to it. */
export function guardedConnector(opts: { allowPrivate: boolean; timeoutMs: number; lookup?: LookupAll }): buildConnector.connector {
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
  /** short reason when status is 0 */
  error: string | null;
}

function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_BODY_TIMEOUT' || e?.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `timeout after ${timeoutMs} ms`;
  }
  if (err instanceof AddressRefusedError) return err.message;
  const code = e?.code ?? e?.cause?.code;
  const msg = (e?.message ?? String(err)).slice(0, 200);
  return code && !msg.includes(code) ? `${code}: ${msg}` : msg;
}

const noResponse = (error: string, durationMs = 0): OutboundResult => ({ status: 0, body: '', truncated: false, headers: {}, durationMs, error });

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
      finish({ status, body: Buffer.concat(chunks).toString('utf8'), truncated, headers: responseHeaders, durationMs: took(), error: null });
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
        else finish(noResponse(describe(err, opts.timeoutMs), took()));
      },
    };
    try {
      agentFor(opts.allowPrivate, opts.timeoutMs).dispatch(
        { origin: target.origin, path: target.pathname + target.search, method: 'POST', headers, body },
        handler,
      );
    } catch (err) {
      finish(noResponse(describe(err, opts.timeoutMs), took()));
    }
  });
}
