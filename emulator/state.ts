// The emulator's memory: organizations by BIN (every BIN with a valid check digit has trade points 1
// and 2), devices, payments with their timers on a virtual clock, faults, and the requests it saw.
import { randomUUID } from 'node:crypto';

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

export interface Fault {
  path: string;
  kind: 'latency' | 'hang' | 'reset' | 'http5xx' | 'malformed' | 'code' | 'lost' | 'flap' | 'tls_refuse' | 'expired_cert';
  times?: number;
  ms?: number;
  code?: number;
  status?: number;
}

export const TIMING = { StatusPollingInterval: 5, QrCodeScanWaitTimeout: 180, PaymentConfirmationTimeout: 65, LinkActivationWaitTimeout: 180 };
/** r1 and r2 act for this organization's trade points. */
export const DEFAULT_BIN = '000000000000';
export const TRADE_POINTS = [{ TradePointId: 1, TradePointName: 'Test point 1' }, { TradePointId: 2, TradePointName: 'Test point 2' }];

export function validBin(bin: string): boolean {
  if (bin === DEFAULT_BIN) return true;
  if (!/^\d{12}$/.test(bin)) return false;
  const d = [...bin].map(Number);
  let c = d.slice(0, 11).reduce((a, x, i) => a + x * (i + 1), 0) % 11;
  if (c === 10) c = d.slice(0, 11).reduce((a, x, i) => a + x * [3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2][i], 0) % 11;
  return c !== 10 && c === d[11];
}

export class EmulatorState {
  offsetMs = 0;
  /** what qr/create announces and the timers use; POST /__emulator/timing changes it (fast tests) */
  timing = { ...TIMING };
  payments = new Map<number, Payment>();
  devices = new Map<string, Device>();
  faults: Fault[] = [];
  requests: { id: string | null; method: string; path: string }[] = [];
  flapFlip = false;
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
    this.requests = [];
    this.clientInfo.clear();
  }

  record(id: string | null, method: string, path: string): void {
    this.requests.push({ id, method, path });
    if (this.requests.length > 200) this.requests.shift();
  }

  /** The fault for this path, used up by one hit. */
  takeFault(path: string): Fault | undefined {
    const f = this.faults.find((x) => path.endsWith(x.path));
    if (!f) return undefined;
    if (f.times !== undefined && --f.times <= 0) this.faults = this.faults.filter((x) => x !== f);
    return f;
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

  /** Timers, evaluated lazily: the scan wait, the confirmation wait, an invoice's 24 hours. */
  current(id: number): Payment | undefined {
    const p = this.payments.get(id);
    if (!p) return undefined;
    const now = this.now();
    if (p.Status === 'QrTokenCreated' && now - p.createdAt >= this.timing.QrCodeScanWaitTimeout * 1000) p.Status = 'Error';
    if (p.Status === 'Wait' && p.scannedAt !== null && now - p.scannedAt >= this.timing.PaymentConfirmationTimeout * 1000) p.Status = 'Error';
    if (p.Status === 'RemotePaymentCreated' && now - p.createdAt >= 24 * 3600 * 1000) p.Status = 'Error';
    return p;
  }

  returnId(): number {
    return this.nextReturn++;
  }

  /** remote/client-info: 50 a minute per device. */
  clientInfoAllowed(device: string): boolean {
    const now = this.now();
    const hits = (this.clientInfo.get(device) ?? []).filter((t) => now - t < 60_000);
    if (hits.length >= 50) return false;
    hits.push(now);
    this.clientInfo.set(device, hits);
    return true;
  }
}
