// The one model behind both surfaces (research section 10): registers with their identity, status, OFD,
// shifts, cash and offline time; the receipts they issued, keyed by the client's external id; Webkassa's
// users and both surfaces' tokens; the settings and faults a test changes; the calls it saw. Time is a
// virtual clock (real time plus an offset) so tests can pass 24 and 72 hours.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Draft, ReceiptKind } from './draft.ts';
import type { Fault } from './faults.ts';
import { OFDS, type Ofd } from './ofds.ts';

export type RegisterStatus = 'active' | 'blocked' | 'not-activated' | 'deregistered';
export const REGISTER_STATUSES: RegisterStatus[] = ['active', 'blocked', 'not-activated', 'deregistered'];
export type Concurrency = 'allow' | 'reject' | 'serialize';
export const CONCURRENCY: Concurrency[] = ['allow', 'reject', 'serialize'];

export interface KindTotals {
  count: number;
  totalTiyn: number;
  vatTiyn: number;
  discountTiyn: number;
  markupTiyn: number;
  changeTiyn: number;
  takenTiyn: number;
  byPayment: Map<number, number>;
}

export interface Shift {
  number: number;
  openedAt: number;
  closedAt: number | null;
  /** documents in the shift: receipts and cash operations (CheckOrderNumber counts them) */
  documents: number;
  offlineDocuments: number;
  cashAtOpenTiyn: number;
  putTiyn: number;
  putCount: number;
  takeTiyn: number;
  takeCount: number;
  totals: Record<ReceiptKind, KindTotals>;
  /** the Z-report's number once closed */
  reportNumber: number | null;
}

export interface Receipt {
  externalId: string;
  /** reKassa's ticket id */
  ticketId: number;
  fiscalSign: string;
  kind: ReceiptKind;
  draft: Draft;
  totalTiyn: number;
  changeTiyn: number;
  vatTiyn: number;
  /** what returns have taken back from this sale so far */
  returnedTiyn: number;
  at: number;
  shiftNumber: number;
  orderNumber: number;
  offline: boolean;
  register: string;
  surface: 'webkassa' | 'rekassa';
}

export interface MoneyOperation {
  externalId: string;
  kind: 'in' | 'out';
  sumTiyn: number;
  at: number;
  shiftNumber: number;
  offline: boolean;
  balanceTiyn: number;
}

export interface Register {
  /** reKassa's register ("crs") id */
  id: number;
  /** ЗНМ, Webkassa's CashboxUniqueNumber */
  uniqueNumber: string;
  /** РНМ, the tax registration number */
  registrationNumber: string;
  /** ИНК, the OFD's identity number */
  identityNumber: string;
  name: string;
  address: string;
  status: RegisterStatus;
  ofd: Ofd;
  protocol: '2.0.3' | '2.0.4';
  strictCatalog: boolean;
  concurrency: Concurrency;
  shift: Shift | null;
  shifts: Shift[];
  cashTiyn: number;
  offlineSince: number | null;
  receipts: Map<string, Receipt>;
  money: Map<string, MoneyOperation>;
  /** reKassa's login of this register and the PIN its Z-report asks for */
  rekassa: { number: string; password: string; pin: string };
  /** requests for this register being answered now */
  inFlight: number;
  /** the end of the queue of requests in `serialize` mode */
  queue: Promise<void>;
}

export interface Settings {
  /** how long a token of either surface lives */
  tokenTtlSeconds: number;
  /** a repeated ExternalCheckNumber: code 14 alone, or 14 with the original receipt's Data */
  duplicateMode: 'error' | 'error_with_data';
  /** reKassa: the same X-Request-ID returns the first ticket instead of issuing another */
  rekassaRequestIdDedup: boolean;
  /** added to every API call (the benchmark's "50 ms per call") */
  latencyMs: number;
  /** every API call waits for the one before it to be answered (with latencyMs: a throughput ceiling) */
  oneAtATime: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  tokenTtlSeconds: 24 * 3600,
  duplicateMode: 'error',
  rekassaRequestIdDedup: true,
  latencyMs: 0,
  oneAtATime: false,
};

export interface Token {
  surface: 'webkassa' | 'rekassa';
  /** the Webkassa login, or the reKassa register's unique number */
  subject: string;
  expiresAt: number;
}

export interface WebkassaUser {
  login: string;
  password: string;
  name: string;
  /** unique numbers of the registers the user may use; ['*'] for all */
  registers: string[];
}

export interface NewRegister {
  unique_number?: string;
  registration_number?: string;
  identity_number?: string;
  name?: string;
  status?: RegisterStatus;
  ofd_code?: number;
  protocol?: '2.0.3' | '2.0.4';
  strict_catalog?: boolean;
  concurrency?: Concurrency;
  cash?: number;
  rekassa?: { number?: string; password?: string; pin?: string };
}

const KEPT_CALLS = 500;
const digits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join('');

export class FiscalState {
  offsetMs = 0;
  settings: Settings = { ...DEFAULT_SETTINGS };
  registers = new Map<string, Register>();
  users = new Map<string, WebkassaUser>();
  tokens = new Map<string, Token>();
  /** every receipt by fiscal sign, for return bases */
  bySign = new Map<string, Receipt>();
  /** reKassa's first answer per X-Request-ID (the de-duplication switch) */
  requestIds = new Map<string, { status: number; body: unknown }>();
  faults: Fault[] = [];
  calls: { at: string; surface: string; method: string; path: string; register: string | null; outcome: string }[] = [];
  // Counters keep growing across resets so a driver never meets a sign or id it saw before.
  private nextSign = 100_000_000 + Number(digits(6));
  private nextOfflineSign = 9_000_000_000 + Number(digits(6));
  private nextTicket = 1;
  private nextRegisterId = 1;

  constructor(readonly seed: (s: FiscalState) => void = () => {}) {
    seed(this);
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  reset(): void {
    this.offsetMs = 0;
    this.settings = { ...DEFAULT_SETTINGS };
    this.registers.clear();
    this.users.clear();
    this.tokens.clear();
    this.bySign.clear();
    this.requestIds.clear();
    this.faults = [];
    this.calls = [];
    // Register ids restart, so the seeded register keeps the id a driver was configured with.
    this.nextRegisterId = 1;
    this.seed(this);
  }

  addRegister(o: NewRegister): Register {
    const id = this.nextRegisterId++;
    const r: Register = {
      id,
      uniqueNumber: o.unique_number ?? `SWK${String(10_000_000 + id * 7919).slice(-8)}`,
      registrationNumber: o.registration_number ?? digits(12),
      identityNumber: o.identity_number ?? String(1000 + id),
      name: o.name ?? `Касса ${id}`,
      address: 'г.Алматы, ул. Абая, д. 1',
      status: o.status ?? 'active',
      ofd: OFDS[o.ofd_code ?? 4],
      protocol: o.protocol ?? '2.0.3',
      strictCatalog: o.strict_catalog ?? false,
      concurrency: o.concurrency ?? 'serialize',
      shift: null,
      shifts: [],
      cashTiyn: Math.round((o.cash ?? 0) * 100),
      offlineSince: null,
      receipts: new Map(),
      money: new Map(),
      rekassa: {
        number: o.rekassa?.number ?? String(700_000 + id),
        password: o.rekassa?.password ?? randomUUID().slice(0, 8),
        pin: o.rekassa?.pin ?? digits(4),
      },
      inFlight: 0,
      queue: Promise.resolve(),
    };
    this.registers.set(r.uniqueNumber, r);
    return r;
  }

  registerById(id: number): Register | undefined {
    return [...this.registers.values()].find((r) => r.id === id);
  }

  issueToken(surface: Token['surface'], subject: string): string {
    const token = randomBytes(16).toString('hex');
    this.tokens.set(token, { surface, subject, expiresAt: this.now() + this.settings.tokenTtlSeconds * 1000 });
    return token;
  }

  /** The token's subject; 'expired' or 'unknown' otherwise. */
  tokenSubject(surface: Token['surface'], token: unknown): string | 'expired' | 'unknown' {
    const t = typeof token === 'string' ? this.tokens.get(token) : undefined;
    if (!t || t.surface !== surface) return 'unknown';
    return t.expiresAt <= this.now() ? 'expired' : t.subject;
  }

  /** Every token of a surface (or both) expires now: "a token expiring mid-batch". */
  expireTokens(surface?: Token['surface']): number {
    let n = 0;
    for (const t of this.tokens.values())
      if (!surface || t.surface === surface) {
        t.expiresAt = this.now();
        n++;
      }
    return n;
  }

  fiscalSign(offline: boolean): string {
    return String(offline ? this.nextOfflineSign++ : this.nextSign++);
  }

  ticketId(): number {
    return this.nextTicket++;
  }

  record(c: Omit<FiscalState['calls'][number], 'at'>): void {
    this.calls.push({ at: new Date(this.now()).toISOString(), ...c });
    if (this.calls.length > KEPT_CALLS) this.calls.shift();
  }
}
