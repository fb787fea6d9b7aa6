// A merchant's integration written against the generated types alone, with no cast: create a test QR,
// read it, list payments, refund part of it. It only has to type-check (tsc --noEmit); the same calls
// are exercised for real by the README walk-through test.
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/api.ts';

// The named shapes of the document: what a merchant's own code passes around.
type Payment = components['schemas']['Payment'];
type ApiError = components['schemas']['Error'];
type EventType = components['schemas']['EventType'];

const api = createClient<paths>({ baseUrl: 'http://localhost:8080', headers: { 'X-API-Key': 'kp_test_…' } });

export async function firstPayment(): Promise<number> {
  const created = await api.POST('/v2/qr', {
    params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
    body: { amount: 5000, comment: 'Order 42' },
  });
  if (!created.data) throw new Error(created.error?.error.code ?? 'no answer');
  const opId: string = created.data.operation_id;
  const qrToken: string = created.data.qr_token;

  const read = await api.GET('/v2/qr/{op_id}', { params: { path: { op_id: opId } } });
  if (!read.data) throw new Error(read.error?.error.message ?? 'no answer');
  const status: 'created' | 'paid' | 'expired' | 'cancelled' | 'declined' | 'partially_refunded' | 'refunded' =
    read.data.status;

  const list = await api.GET('/v2/payments', { params: { query: { limit: 5, status: 'paid' } } });
  const payments: Payment[] = list.data?.data ?? [];
  const amounts: number[] = payments.map((p) => p.amount);
  const next: string | null = list.data?.next_cursor ?? null;

  const refund = await api.POST('/v2/refunds', {
    params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
    body: { operation_id: opId, amount: 2000 },
  });
  const left: number = refund.data?.remaining_refundable ?? 0;
  const refundStatus: 'completed' | 'pending' | 'failed' | undefined = refund.data?.status;

  // An error answer is typed too: its code is one of the closed list.
  const failure: ApiError | undefined = refund.error;
  const code: string | undefined = failure?.error.code;
  const paidEvent: EventType = 'payment.completed';
  return [
    qrToken.length,
    status.length,
    amounts.length,
    next?.length ?? 0,
    left,
    refundStatus?.length ?? 0,
    code?.length ?? 0,
    paidEvent,
  ].length;
}
