// Fault injection (decisions 24): a list set through POST /__emulator/faults, each matched by a suffix of
// the URL path and used up after `times` hits. The faults that stand in for the transport are answered
// here, before the API sees the request; `code`, `lost`, `flap` and `date_vary` (the dates of each answer
// in the next form in turn, as the `vary` date style) need the API and are applied by the server and the
// routes.
import type { ServerResponse } from 'node:http';

export const FAULT_KINDS = [
  'latency',
  'hang',
  'reset',
  'http5xx',
  'malformed',
  'code',
  'lost',
  'flap',
  'tls_refuse',
  'expired_cert',
  'date_vary',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  /** a suffix of the URL path without the query: "qr/create", "payment/status", "/r3/v01/health/ping" */
  path: string;
  kind: FaultKind;
  /** hits left; absent = unlimited */
  times?: number;
  ms?: number;
  code?: number;
  status?: number;
}

/** The faults of a control call, copied (hits are counted on them), or what is wrong with them. */
export function parseFaults(input: unknown): Fault[] | string {
  if (!Array.isArray(input)) return 'faults must be an array';
  const out: Fault[] = [];
  for (const f of input as Partial<Fault>[]) {
    if (typeof f?.path !== 'string') return 'each fault needs a path';
    if (!FAULT_KINDS.includes(f.kind as FaultKind))
      return `unknown fault kind ${String(f.kind)}; one of ${FAULT_KINDS.join(', ')}`;
    out.push({ ...f } as Fault);
  }
  return out;
}

/** Paths with an id at the end (payment/status/{id}, partner/tradepoints/{bin}) match without it too. */
export function matches(f: Fault, pathname: string): boolean {
  return pathname.endsWith(f.path) || pathname.replace(/\/\d+$/, '').endsWith(f.path);
}

/** The first fault for this path, with one of its hits used up (it leaves the list at zero). */
export function takeFault(holder: { faults: Fault[] }, pathname: string): Fault | undefined {
  const f = holder.faults.find((x) => matches(x, pathname));
  if (!f) return undefined;
  if (f.times !== undefined && --f.times <= 0) holder.faults = holder.faults.filter((x) => x !== f);
  return f;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Applies a fault that replaces the answer; true when the request is thereby dealt with. `latency` only
 * waits, so the API answers after it. `hang` keeps the response in `hanging` so that closing the emulator
 * can end it; until then only the client giving up ends it.
 */
export async function answerFault(
  f: Fault | undefined,
  res: ServerResponse,
  hanging: Set<ServerResponse>,
): Promise<boolean> {
  switch (f?.kind) {
    case 'latency':
      await sleep(f.ms ?? 500);
      return false;
    case 'hang':
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return true;
    case 'reset':
    case 'tls_refuse': // the path is known only after the handshake, so a refusal is a socket closed unanswered
      res.socket?.destroy();
      return true;
    case 'http5xx':
      res.writeHead(f.status ?? 503, { 'content-type': 'text/plain' }).end('Service Unavailable');
      return true;
    case 'malformed':
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"StatusCode": 0, "Data": ');
      return true;
    case 'expired_cert':
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ StatusCode: -10000, Message: 'client certificate expired' }));
      return true;
    default:
      return false;
  }
}
