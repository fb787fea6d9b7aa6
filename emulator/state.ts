// The emulator's memory: devices, payments and return QRs with their timers on a virtual clock, the
// settings a test can change (date style, code sign, trade-point states, r3's allow-list), faults, and
// the requests it saw. Organizations are in organizations.ts.
import { randomInt, randomUUID } from 'node:crypto';
import type { Fault } from './faults.ts';
import { OPEN, type Allowlist } from './allowlist.ts';
import { DATE_FORMS, DEFAULT_UTC_OFFSET_HOURS, type DateForm, type DateStyle } from './dates.ts';
import type { CodeSign } from './envelope.ts';
import type { TradePointState } from './organizations.ts';

// Tests that set faults in process import the type from here.
export type { Fault } from './faults.ts';

export type Status =
  | 'QrTokenCreated'
  | 'Wait'
  | 'Processed'
  | 'Error'
  | 'RemotePaymentCreated'
  | 'RemotePaymentCanceled';
export type ReturnStatus = 'QrTokenCreated' | 'CustomerIdentityObtained' | 'Error';

export interface Payment {
  QrPaymentId: number;
  /** what the QR image encodes; null for a pay link and an invoice, which have none */
  QrToken: string | null;
  Amount: number;
  Status: Status;
  OrganizationBin: string;
  DeviceToken: string;
  TradePointId: number;
  ExternalId: string | null;
  ReturnedAmount: number;
  kind: 'qr' | 'link' | 'remote';
  createdAt: number;
  scannedAt: number | null;
  TransactionId: string | null;
  /** when it was paid, on the virtual clock; written as TransactionDate in the date style of each answer */
  paidAt: number | null;
  /** who paid it (test/payment/confirm's `customer`): a return QR's customer may return only their own */
  customer: string | null;
  productType: 'Gold' | 'Loan' | null;
  PhoneNumber: string | null;
}

/** A return QR (r2's refund with the customer present, document p.22-25). */
export interface QrReturn {
  QrReturnId: number;
  QrToken: string;
  Status: ReturnStatus;
  DeviceToken: string;
  OrganizationBin: string;
  TradePointId: number;
  ExternalId: string | null;
  createdAt: number;
  /** who scanned it */
  customer: string | null;
  /** a return QR serves one payment/return */
  used: boolean;
}

export interface Device {
  DeviceToken: string;
  DeviceId: string;
  TradePointId: number;
  OrganizationBin: string;
  active: boolean;
}

export const TIMING = {
  StatusPollingInterval: 5,
  QrCodeScanWaitTimeout: 180,
  PaymentConfirmationTimeout: 65,
  LinkActivationWaitTimeout: 180,
  // The return QR's own two (document p.23): how often to read return/status, how long it waits for the scan.
  QrCodeScanEventPollingInterval: 5,
  ReturnScanWaitTimeout: 180,
};
const INVOICE_LIFETIME_MS = 24 * 3600_000;
const CLIENT_INFO_PER_MINUTE = 50;
const KEPT_REQUESTS = 200;
const KEPT_CALL_KEYS = 500;

/**
 * A QR's content: digits only, as the document's example and production logs show. 27 random digits (the
 * first not 0, so no reader drops it), a kind digit (1 payment, 2 return) and the id in 12 digits: unique
 * per QR by construction, 40 digits long.
 */
export function digitToken(kind: 1 | 2, id: number): string {
  let random = String(randomInt(1, 10));
  for (let i = 1; i < 27; i++) random += String(randomInt(0, 10));
  return `${random}${kind}${String(id).padStart(12, '0')}`;
}

/** The settings a start chooses (CLI, startEmulator) and a reset goes back to. */
export interface StartSettings {
  dateStyle: DateStyle;
  utcOffsetHours: number;
}

export class EmulatorState {
  /** the virtual clock: real time plus this */
  offsetMs = 0;
  /** what qr/create announces and the timers use; POST /__emulator/timing shortens it for fast tests */
  timing = { ...TIMING };
  payments = new Map<number, Payment>();
  returns = new Map<number, QrReturn>();
  devices = new Map<string, Device>();
  faults: Fault[] = [];
  requests: { id: string | null; method: string; path: string }[] = [];
  /** every request since the last reset, by method and path with its numbers as :n (GET /__emulator/calls):
   * the kept requests are the last 200, and a driver under load makes thousands a second */
  calls = new Map<string, number>();
  /** status reads answered under a flap fault: every second one is the stale QrTokenCreated */
  flapHits = 0;
  dateStyle: DateStyle;
  utcOffsetHours: number;
  /** answers written with a date in the `vary` style: the next one takes the next form */
  varyHits = 0;
  codeSign: CodeSign = 'doc';
  /** by `${bin}/${tradePointId}`; absent is `ok` */
  tradePoints = new Map<string, TradePointState>();
  allowlist: Allowlist = { ...OPEN };
  // Ids keep growing across resets, so a driver never meets an id it saw before.
  private nextId = 1000;
  private nextReturnOperation = 1;
  private nextQrReturn = 1;
  private clientInfo = new Map<string, number[]>();

  constructor(
    private readonly start: StartSettings = { dateStyle: 'offset', utcOffsetHours: DEFAULT_UTC_OFFSET_HOURS },
  ) {
    this.dateStyle = start.dateStyle;
    this.utcOffsetHours = start.utcOffsetHours;
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Everything back to how the emulator started, ids excepted. */
  reset(): void {
    this.offsetMs = 0;
    this.timing = { ...TIMING };
    this.payments.clear();
    this.returns.clear();
    this.devices.clear();
    this.faults = [];
    this.flapHits = 0;
    this.requests = [];
    this.calls.clear();
    this.clientInfo.clear();
    this.dateStyle = this.start.dateStyle;
    this.utcOffsetHours = this.start.utcOffsetHours;
    this.varyHits = 0;
    this.codeSign = 'doc';
    this.tradePoints.clear();
    this.allowlist = { ...OPEN };
  }

  record(id: string | null, method: string, path: string): void {
    this.requests.push({ id, method, path });
    if (this.requests.length > KEPT_REQUESTS) this.requests.shift();
    // Any path under a scheme is recorded, so the distinct keys are capped (a list, like the requests kept).
    let key = `${method} ${path.replace(/\/\d+(?=\/|$)/g, '/:n')}`;
    if (!this.calls.has(key) && this.calls.size >= KEPT_CALL_KEYS - 1) key = 'other';
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
  }

  /** The form of the dates of one answer: the set style, or under `vary` the next form in turn. */
  dateForm(style: DateStyle = this.dateStyle): DateForm {
    return style === 'vary' ? DATE_FORMS[this.varyHits++ % DATE_FORMS.length] : style;
  }

  tradePointState(bin: string, tradePointId: number): TradePointState {
    return this.tradePoints.get(`${bin}/${tradePointId}`) ?? 'ok';
  }

  registerDevice(deviceId: string, tradePointId: number, bin: string): Device | number {
    const existing = [...this.devices.values()].find(
      (d) => d.DeviceId === deviceId && d.OrganizationBin === bin && d.active,
    );
    if (existing) return existing.TradePointId === tradePointId ? existing : -1503;
    const d: Device = {
      DeviceToken: randomUUID(),
      DeviceId: deviceId,
      TradePointId: tradePointId,
      OrganizationBin: bin,
      active: true,
    };
    this.devices.set(d.DeviceToken, d);
    return d;
  }

  createPayment(
    p: Pick<
      Payment,
      'Amount' | 'OrganizationBin' | 'DeviceToken' | 'TradePointId' | 'ExternalId' | 'kind' | 'PhoneNumber'
    >,
  ): Payment {
    const id = this.nextId++;
    const pay: Payment = {
      ...p,
      QrPaymentId: id,
      QrToken: p.kind === 'qr' ? digitToken(1, id) : null,
      Status: p.kind === 'remote' ? 'RemotePaymentCreated' : 'QrTokenCreated',
      ReturnedAmount: 0,
      createdAt: this.now(),
      scannedAt: null,
      TransactionId: null,
      paidAt: null,
      customer: null,
      productType: null,
    };
    this.payments.set(id, pay);
    return pay;
  }

  /**
   * The payment with its timers run out, evaluated lazily on each read: the scan wait, the confirmation wait, an
   * invoice's 24 hours.
   */
  current(id: number): Payment | undefined {
    const p = this.payments.get(id);
    if (!p) return undefined;
    const now = this.now();
    const scanWait = p.kind === 'link' ? this.timing.LinkActivationWaitTimeout : this.timing.QrCodeScanWaitTimeout;
    if (p.Status === 'QrTokenCreated' && now - p.createdAt >= scanWait * 1000) p.Status = 'Error';
    if (
      p.Status === 'Wait' &&
      p.scannedAt !== null &&
      now - p.scannedAt >= this.timing.PaymentConfirmationTimeout * 1000
    )
      p.Status = 'Error';
    if (p.Status === 'RemotePaymentCreated' && now - p.createdAt >= INVOICE_LIFETIME_MS) p.Status = 'Error';
    return p;
  }

  createReturn(d: Device, externalId: string | null): QrReturn {
    const id = this.nextQrReturn++;
    const r: QrReturn = {
      QrReturnId: id,
      QrToken: digitToken(2, id),
      Status: 'QrTokenCreated',
      DeviceToken: d.DeviceToken,
      OrganizationBin: d.OrganizationBin,
      TradePointId: d.TradePointId,
      ExternalId: externalId,
      createdAt: this.now(),
      customer: null,
      used: false,
    };
    this.returns.set(id, r);
    return r;
  }

  /** The return QR with its scan wait run out (then Error, final), evaluated on each read. */
  currentReturn(id: number): QrReturn | undefined {
    const r = this.returns.get(id);
    if (r && r.Status === 'QrTokenCreated' && this.now() - r.createdAt >= this.timing.ReturnScanWaitTimeout * 1000)
      r.Status = 'Error';
    return r;
  }

  returnOperationId(): number {
    return this.nextReturnOperation++;
  }

  /** remote/client-info: 50 a minute per device, on the virtual clock. */
  clientInfoAllowed(device: string): boolean {
    const now = this.now();
    const hits = (this.clientInfo.get(device) ?? []).filter((t) => now - t < 60_000);
    if (hits.length >= CLIENT_INFO_PER_MINUTE) return false;
    hits.push(now);
    this.clientInfo.set(device, hits);
    return true;
  }

  /** What GET /__emulator/state shows. */
  view() {
    return {
      payments: [...this.payments.keys()]
        .map((id) => this.current(id)!)
        .map((p) => ({
          QrPaymentId: p.QrPaymentId,
          Amount: p.Amount,
          Status: p.Status,
          OrganizationBin: p.OrganizationBin,
          DeviceToken: p.DeviceToken,
          ExternalId: p.ExternalId,
          ReturnedAmount: p.ReturnedAmount,
          QrToken: p.QrToken,
          customer: p.customer,
        })),
      returns: [...this.returns.keys()]
        .map((id) => this.currentReturn(id)!)
        .map((r) => ({
          QrReturnId: r.QrReturnId,
          Status: r.Status,
          DeviceToken: r.DeviceToken,
          customer: r.customer,
          used: r.used,
        })),
      devices: [...this.devices.values()].map((d) => ({
        DeviceToken: d.DeviceToken,
        DeviceId: d.DeviceId,
        TradePointId: d.TradePointId,
        OrganizationBin: d.OrganizationBin,
      })),
      settings: {
        date_style: this.dateStyle,
        utc_offset_hours: this.utcOffsetHours,
        code_sign: this.codeSign,
        allowlist: this.allowlist,
        trade_points: Object.fromEntries(this.tradePoints),
      },
      requests: this.requests,
    };
  }
}
