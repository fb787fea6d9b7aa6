// Every allowed and every forbidden transition of the operation state machine.
import { describe, expect, it } from 'vitest';
import {
  STATUSES,
  canTransition,
  isFinal,
  isPaid,
  statusAfterRefund,
  type OperationStatus,
} from '../../src/domain/payments/state.ts';

const ALLOWED: Record<string, OperationStatus[]> = {
  'qr:created': ['paid', 'expired', 'declined'],
  'invoice:created': ['paid', 'expired', 'cancelled', 'declined'],
  'qr:paid': ['partially_refunded', 'refunded'],
  'invoice:paid': ['partially_refunded', 'refunded'],
  'qr:partially_refunded': ['partially_refunded', 'refunded'],
  'invoice:partially_refunded': ['partially_refunded', 'refunded'],
};

describe('operation state machine', () => {
  for (const type of ['qr', 'invoice'] as const) {
    for (const from of STATUSES) {
      for (const to of STATUSES) {
        const allowed = (ALLOWED[`${type}:${from}`] ?? []).includes(to);
        it(`${type}: ${from} -> ${to} is ${allowed ? 'allowed' : 'forbidden'}`, () => {
          expect(canTransition(from, to, type)).toBe(allowed);
        });
      }
    }
  }

  it('only created is not final; paid statuses', () => {
    expect(STATUSES.filter((s) => !isFinal(s))).toEqual(['created']);
    expect(STATUSES.filter(isPaid)).toEqual(['paid', 'partially_refunded', 'refunded']);
  });

  it('status after refund', () => {
    expect(statusAfterRefund(1000, 1)).toBe('partially_refunded');
    expect(statusAfterRefund(1000, 999)).toBe('partially_refunded');
    expect(statusAfterRefund(1000, 1000)).toBe('refunded');
  });
});
