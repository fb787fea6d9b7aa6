// What every route file shares: the request as the routes see it (read leniently, lenient.ts), the
// context a handler runs in, and the checks most money calls begin with.
import type { Fault } from './faults.ts';
import type { CaselessQuery } from './lenient.ts';
import { fail, type Envelope } from './envelope.ts';
import { tradePointRefusal, type TradePointCall } from './organizations.ts';
import type { Device, EmulatorState } from './state.ts';

export type Scheme = 'r1' | 'r2' | 'r3';

export interface ApiRequest {
  scheme: Scheme;
  version: 'v01' | 'v02';
  method: string;
  /** after /rN/vNN/, without trailing slashes */
  path: string;
  query: CaselessQuery;
  /** a case-insensitive view of the JSON body */
  body: Record<string, unknown>;
  /** the fault taken for this request, for those the answer itself carries (flap, date_vary) */
  fault?: Fault;
}

export interface Ctx {
  s: EmulatorState;
  r: ApiRequest;
  b: Record<string, unknown>;
  /** the organization the call acts for: r3 names it, r1 and r2 have one */
  bin: string;
  m: RegExpMatchArray;
  /** an instant written in this answer's date form (every date of one answer has the same form) */
  date(ms: number): string;
}

export interface Route {
  method: 'GET' | 'POST';
  path: RegExp;
  /** absent: every scheme */
  schemes?: Scheme[];
  /** v02 exists for payment/status only */
  v02?: boolean;
  run(c: Ctx): Envelope;
}

/** The device of a token, or the failure to answer. */
export function device(c: Ctx, token: unknown): Device | Envelope {
  const d = c.s.devices.get(String(token ?? ''));
  // GET calls name no organization (client-info): there the token alone identifies the device.
  if (!d || (c.r.scheme === 'r3' && c.r.method === 'POST' && d.OrganizationBin !== c.bin))
    return fail(-1501, 'device not found');
  if (!d.active) return fail(-1502, 'device inactive');
  return d;
}

/** The refusal of a trade point (a device's) for this kind of call, if its state refuses it. */
export const refusedAt = (
  c: Ctx,
  at: Pick<Device, 'OrganizationBin' | 'TradePointId'>,
  call: TradePointCall,
): Envelope | undefined => tradePointRefusal(c.s.tradePointState(at.OrganizationBin, at.TradePointId), call);

/** The document types Amount as a double: a number, and above zero. */
export const isAmount = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;

/** A body field as an id: the document's Int64 ids arrive as numbers or digit strings. */
export const idOf = (x: unknown): number =>
  typeof x === 'number' || (typeof x === 'string' && /^\d+$/.test(x.trim())) ? Number(x) : NaN;

/** Who pays in the test calls and scans a return QR when the call names nobody. */
export const DEFAULT_CUSTOMER = 'customer-1';

/** The optional text fields (ExternalId, customer): absent and null are none. */
export const textOf = (x: unknown): string | null => (x === undefined || x === null ? null : String(x));
