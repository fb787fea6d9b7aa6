// Faults per register (research section 10), set with POST /__fiscal/faults and used up after `times`
// hits (absent: until changed). A fault matches a call when its register, surface and path suffix (each
// optional) match:
//   lost        the call is answered inside the emulator (the receipt is stored) and the connection is
//               then destroyed without an answer: the case recovery by external id exists for
//   timeout     the call hangs `ms` (default 10000) and the connection is dropped; nothing is stored
//   http5xx     an HTML error page with status `status` (default 502), as a web front answers
//   domain_505  Webkassa only: calls reaching the emulator by the host name `host` (default 127.0.0.1)
//               get code 505 with an AlternativeDomainNames header naming the other name (localhost);
//               the same call by that name is served
//   slow        the call waits `ms` (default 2000) before it is answered, holding its register's place
import type { ServerResponse } from 'node:http';

export const FAULT_KINDS = ['lost', 'timeout', 'http5xx', 'domain_505', 'slow'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  kind: FaultKind;
  /** the register's unique number (ЗНМ); absent: every register and calls that name none */
  register?: string;
  surface?: 'webkassa' | 'rekassa';
  /** a suffix of the path, any case: "check", "/tickets", "zreport" */
  path?: string;
  times?: number;
  ms?: number;
  status?: number;
  host?: string;
}

export interface Call {
  surface: 'webkassa' | 'rekassa';
  path: string;
  register: string | null;
}

export function parseFaults(input: unknown): Fault[] | string {
  if (!Array.isArray(input)) return 'faults must be a list';
  const out: Fault[] = [];
  for (const f of input as Partial<Fault>[]) {
    if (!FAULT_KINDS.includes(f?.kind as FaultKind))
      return `unknown fault kind ${String(f?.kind)}; one of ${FAULT_KINDS.join(', ')}`;
    if (f.times !== undefined && !(Number.isInteger(f.times) && f.times > 0)) return 'times must be a whole number > 0';
    out.push({ ...f } as Fault);
  }
  return out;
}

const matches = (f: Fault, c: Call) =>
  (f.register === undefined || f.register === c.register) &&
  (f.surface === undefined || f.surface === c.surface) &&
  (f.path === undefined || c.path.toLowerCase().replace(/\/+$/, '').endsWith(f.path.toLowerCase()));

/** The faults that apply to this call, a hit of each used up. `domain_505` is taken only on its host. */
export function takeFaults(holder: { faults: Fault[] }, c: Call, hostname: string): Fault[] {
  const hit = holder.faults.filter(
    (f) =>
      matches(f, c) && (f.kind !== 'domain_505' || (c.surface === 'webkassa' && (f.host ?? '127.0.0.1') === hostname)),
  );
  for (const f of hit)
    if (f.times !== undefined && --f.times <= 0) holder.faults = holder.faults.filter((x) => x !== f);
  return hit;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function htmlError(res: ServerResponse, status: number): void {
  res
    .writeHead(status, { 'content-type': 'text/html' })
    .end(
      `<html><head><title>${status} Bad Gateway</title></head><body><center><h1>${status} Bad Gateway</h1></center>` +
        '<hr><center>nginx</center></body></html>',
    );
}
