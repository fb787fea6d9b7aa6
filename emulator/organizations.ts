// The organizations the emulator knows: every BIN with a valid check digit, each with trade points 1 and
// 2, and the state a test can put a trade point in (POST /__emulator/trade-point) to reach the document's
// trade-point codes.
import { fail, type Envelope } from './envelope.ts';

/** r1 and r2 act for this organization's trade points. */
export const DEFAULT_BIN = '000000000000';
export const TRADE_POINTS = [
  { TradePointId: 1, TradePointName: 'Test point 1' },
  { TradePointId: 2, TradePointName: 'Test point 2' },
];

/** The check digit of a Kazakh BIN/IIN: weights 1..11, and 3..11,1,2 when the first sum gives 10. */
export function validBin(bin: string): boolean {
  if (!/^\d{12}$/.test(bin)) return false;
  const d = [...bin].map(Number);
  const sum = (weights: number[]) => d.slice(0, 11).reduce((a, x, i) => a + x * weights[i], 0) % 11;
  let c = sum([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  if (c === 10) c = sum([3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2]);
  return c !== 10 && c === d[11];
}

/** What v02's status tells of the store a payment was made at. */
export const storeOf = (tradePointId: number) => ({
  StoreName: `Test point ${tradePointId}`,
  Address: `Test street ${tradePointId}`,
  City: 'Almaty',
});

/** `disabled`: 990000018; `no_qr`: 990000026 (the point takes no QR); `no_methods`: 990000033. */
export const TRADE_POINT_STATES = ['ok', 'disabled', 'no_qr', 'no_methods'] as const;
export type TradePointState = (typeof TRADE_POINT_STATES)[number];

/**
 * Which calls a trade point's state refuses, after the document's code lists: qr/create and
 * qr/create-link list all three codes; device/register lists 990000026 only; the remote calls and
 * payment/return list 990000018 only.
 */
export type TradePointCall = 'qr' | 'register' | 'money';

export function tradePointRefusal(state: TradePointState, call: TradePointCall): Envelope | undefined {
  if (state === 'disabled' && call !== 'register') return fail(990000018, 'trade point disabled');
  if (state === 'no_qr' && call !== 'money') return fail(990000026, 'trade point does not accept QR payments');
  if (state === 'no_methods' && call === 'qr')
    return fail(990000033, 'no payment methods available at the trade point');
  return undefined;
}
