// The one state machine of v2 operations (decisions 5). Every status change goes through here.
export const STATUSES = [
  'created',
  'paid',
  'expired',
  'cancelled',
  'declined',
  'partially_refunded',
  'refunded',
] as const;
export type OperationStatus = (typeof STATUSES)[number];
export type OperationType = 'qr' | 'invoice';

const NEXT: Record<OperationStatus, OperationStatus[]> = {
  created: ['paid', 'expired', 'cancelled', 'declined'],
  paid: ['partially_refunded', 'refunded'],
  partially_refunded: ['partially_refunded', 'refunded'],
  expired: [],
  cancelled: [],
  declined: [],
  refunded: [],
};

export function canTransition(from: OperationStatus, to: OperationStatus, type: OperationType): boolean {
  // Only invoices can be cancelled: a QR that nobody scans expires.
  if (to === 'cancelled' && type !== 'invoice') return false;
  return NEXT[from].includes(to);
}

/** No provider answer can change these any more. */
export function isFinal(status: OperationStatus): boolean {
  return status !== 'created';
}

export function isPaid(status: OperationStatus): boolean {
  return status === 'paid' || status === 'partially_refunded' || status === 'refunded';
}

/** Status after refunding `refundedTotal` of `amount`. */
export function statusAfterRefund(amount: number, refundedTotal: number): OperationStatus {
  return refundedTotal >= amount ? 'refunded' : 'partially_refunded';
}
