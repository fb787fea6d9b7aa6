// The emulator's memory: organizations by BIN (every BIN with a valid check digit has trade points 1
// and 2), devices, payments with their timers on a virtual clock, faults, and the requests it saw.
import { randomUUID } from 'node:crypto';
import type { Fault } from './faults.ts';

export type { Fault } from './faults.ts';

export type Status = 'QrTokenCreated' | 'Wait' | 'Processed' | 'Error' | 'RemotePaymentCreated' | 'RemotePaymentCanceled';

export interface Payment {
  QrPaymentId: number;
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
  TransactionDate: string | null;
  PhoneNumber: string | null;
}

export interface Device {
  DeviceToken: string;
  DeviceId: string;
  TradePointId: number;
  OrganizationBin: string;
  active: boolean;
}

export const TIMING = { StatusPollingInterval: 5, QrCodeScanWaitTimeout: 180, PaymentConfirmationTimeout: 65, LinkActivationWaitTimeout: 180 };
const INVOICE_LIFETIME_MS = 24 * 3600_000;
const CLIENT_INFO_PER_MINUTE = 50;
const KEPT_REQUESTS = 200;
const KEPT_CALL_KEYS = 500;

/** r1 and r2 act for this organization's trade points. */
export const DEFAULT_BIN = '000000000000';
export const TRADE_POINTS = [{ TradePointId: 1, TradePointName: 'Test point 1' }, { TradePointId: 2, TradePointName: 'Test point 2' }];

/** The check digit of a Kazakh BIN/IIN: weights 1..11, and 3..11,1,2 when the first sum gives 10. */
export function validBin(bin: string): boolean {
  if (!/^\d{12}$/.test(bin)) return false;
  const d = [...bin].map(Number);
  const sum = (weights: number[]) => d.slice(0, 11).reduce((a, x, i) => a + x * weights[i], 0) % 11;
  let c = sum([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  if (c === 10) c = sum([3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2]);
  return c !== 10 && c === d[11];
}

/** The provider writes times in Almaty's offset. */
export const almaty = (ms: number) => new Date(ms + 5 * 3600_000).toISOString().replace('Z', '+05:00');

export class EmulatorState {
  /** the virtual clock: real time plus this */
  offsetMs = 0;
  /** what qr/create announces and the timers use; POST /__emulator/timing shortens it for fast tests */
  timing = { ...TIMING };
  payments = new Map<number, Payment>();
  devices = new Map<string, Device>();
  faults: Fault[] = [];
  requests: { id: string | null; method: string; path: string }[] = [];
  /** every request since the last reset, by method and path with its numbers as :n (GET /__emulator/calls):
   * the kept requests are the last 200, and a driver under load makes thousands a second */
  calls = new Map<string, number>();
  /** status reads answered under a flap fault: every second one is the stale QrTokenCreated */
  flapHits = 0;
  // Ids keep growing across resets, so a driver never meets an id it saw before.
  private nextId = 1000;
  private nextReturn = 1;
  private clientInfo = new Map<string, number[]>();

  now(): number {
    return Date.now() + this.offsetMs;
  }

  reset(): void {
    this.offsetMs = 0;
    this.timing = { ...TIMING };
    this.payments.clear();
    this.devices.clear();
    this.faults = [];
    this.flapHits = 0;
    this.requests = [];
    this.calls.clear();
    this.clientInfo.clear();
  }

  record(id: string | null, method: string, path: string): void {
    this.requests.push({ id, method, path });
    if (this.requests.length > KEPT_REQUESTS) this.requests.shift();
    // Any path under a scheme is recorded, so the distinct keys are capped (a list, like the requests kept).
    let key = `${method} ${path.replace(/\/\d+(?=\/|$)/g, '/:n')}`;
    if (!this.calls.has(key) && this.calls.size >= KEPT_CALL_KEYS - 1) key = 'other';
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
  }

  registerDevice(deviceId: string, tradePointId: number, bin: string): Device | number {
    const existing = [...this.devices.values()].find((d) => d.DeviceId === deviceId && d.OrganizationBin === bin && d.active);
    if (existing) return existing.TradePointId === tradePointId ? existing : -1503;
    const d: Device = { DeviceToken: randomUUID(), DeviceId: deviceId, TradePointId: tradePointId, OrganizationBin: bin, active: true };
    this.devices.set(d.DeviceToken, d);
    return d;
  }

  createPayment(p: Pick<Payment, 'Amount' | 'OrganizationBin' | 'DeviceToken' | 'TradePointId' | 'ExternalId' | 'kind' | 'PhoneNumber'>): Payment {
    const pay: Payment = {
      ...p, QrPaymentId: this.nextId++, Status: p.kind === 'remote' ? 'RemotePaymentCreated' : 'QrTokenCreated', ReturnedAmount: 0,
      createdAt: this.now(), scannedAt: null, TransactionId: null, TransactionDate: null,
    };
    this.payments.set(pay.QrPaymentId, pay);
    return pay;
  }

  /** The payment with its timers run out, evaluated lazily on each read: the scan wait, the confirmation wait, an invoice's 24 hours. */
  current(id: number): Payment | undefined {
    const p = this.payments.get(id);
    if (!p) return undefined;
    const now = this.now();
    const scanWait = p.kind === 'link' ? this.timing.LinkActivationWaitTimeout : this.timing.QrCodeScanWaitTimeout;
    if (p.Status === 'QrTokenCreated' && now - p.createdAt >= scanWait * 1000) p.Status = 'Error';
    if (p.Status === 'Wait' && p.scannedAt !== null && now - p.scannedAt >= this.timing.PaymentConfirmationTimeout * 1000) p.Status = 'Error';
    if (p.Status === 'RemotePaymentCreated' && now - p.createdAt >= INVOICE_LIFETIME_MS) p.Status = 'Error';
    return p;
  }

  returnId(): number {
    return this.nextReturn++;
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
      payments: [...this.payments.keys()].map((id) => this.current(id)!).map((p) => ({
        QrPaymentId: p.QrPaymentId, Amount: p.Amount, Status: p.Status, OrganizationBin: p.OrganizationBin, DeviceToken: p.DeviceToken,
        ExternalId: p.ExternalId, ReturnedAmount: p.ReturnedAmount,
      })),
      devices: [...this.devices.values()].map((d) => ({ DeviceToken: d.DeviceToken, DeviceId: d.DeviceId, TradePointId: d.TradePointId, OrganizationBin: d.OrganizationBin })),
      requests: this.requests,
    };
  }
}
