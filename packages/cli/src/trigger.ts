// `tolem trigger <event>`: makes a test-mode event happen through the API's test helpers, as a customer or
// the provider would: a QR created and then paid, declined, left to expire, or paid and refunded.
import type { Tolem } from '@tolem/sdk';
import type { Out } from './output.js';

export const TRIGGERS = ['payment.completed', 'payment.refunded', 'payment.expired', 'payment.cancelled'] as const;

export async function trigger(
  api: Tolem,
  out: Out,
  event: string,
  amount: number,
): Promise<{ operation_id: string; status: string }> {
  if (!(TRIGGERS as readonly string[]).includes(event))
    throw new Error(`unknown event "${event}": one of ${TRIGGERS.join(', ')}`);
  const test = { query: { mode: 'test' as const } };
  out.progress('Creating a test QR…');
  const { data: qr } = await api.POST('/me/payments/create-qr', {
    params: test,
    body: { amount, description: `tolem trigger ${event}` },
  });
  const op = { path: { op_id: qr!.operation_id }, ...test };
  const action = event === 'payment.expired' ? 'expire' : event === 'payment.cancelled' ? 'decline' : 'pay';
  out.progress(`The customer: ${action}…`);
  const { data: after } = await api.POST(`/v2/test/payments/{op_id}/${action}`, { params: op, body: {} });
  if (event !== 'payment.refunded') return after!;
  out.progress('Refunding…');
  await api.POST('/me/payments/{op_id}/refund', { params: op, body: { amount } });
  const { data: refunded } = await api.GET('/me/payments/status/{op_id}', { params: op });
  return refunded!;
}
