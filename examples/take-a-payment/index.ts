// Take a test payment in 20 lines: a QR, paid by the sandbox customer, read back, refunded in part.
// TOLEM_API_KEY=kp_test_… npx tsx examples/take-a-payment/index.ts
import { createTolem, TolemError } from '@tolem/sdk';

const tolem = createTolem({
  baseUrl: process.env.TOLEM_API_URL ?? 'http://localhost:8080',
  apiKey: process.env.TOLEM_API_KEY,
});

try {
  // An Idempotency-Key is made for the create, so a retry after a lost answer cannot make a second QR.
  const { data: qr } = await tolem.POST('/v2/qr', { body: { amount: 5000, comment: 'Order 42' } });
  console.log('show this QR to the customer:', qr!.qr_token);
  await tolem.POST('/v2/test/payments/{op_id}/pay', { params: { path: { op_id: qr!.operation_id } }, body: {} });
  const { data: paid } = await tolem.GET('/v2/qr/{op_id}', { params: { path: { op_id: qr!.operation_id } } });
  console.log(paid!.operation_id, paid!.status, paid!.amount);
  const { data: refund } = await tolem.POST('/v2/refunds', { body: { operation_id: qr!.operation_id, amount: 2000 } });
  console.log('refunded', refund!.amount, 'left', refund!.remaining_refundable);
  for await (const p of tolem.paginate('/v2/payments', { query: { limit: 50 } })) console.log(p.operation_id, p.status);
} catch (e) {
  if (e instanceof TolemError) console.error(`${e.code}: ${e.message} (request ${e.requestId})`);
  process.exitCode = 1;
}
