// Compile-time checks of the typed client (npm run typecheck reads this file; vitest does not run it): a
// URL outside the OpenAPI paths, a body of the wrong shape and a misread answer are type errors.
import type { FastifyInstance } from 'fastify';
import { api } from './api.ts';

export async function typedCalls(app: FastifyInstance, opId: string) {
  const c = api(app, { apiKey: 'kp_test_x' });
  const created = await c.post('/v2/qr', { body: { amount: 100 } });
  const id: string = created.body.operation_id;
  // @ts-expect-error operation_id is a string
  const wrong: number = created.body.operation_id;
  const sent = await c.post(`/me/webhooks/${opId}/test?mode=test`, { body: {} });
  // @ts-expect-error the test delivery's answer, not the webhook's (the URL names the longer path)
  const url: string = sent.body.url;
  const page = await c.get('/v2/payments?limit=3');
  const more: boolean = page.body.has_more;
  // @ts-expect-error not a path of the API
  await c.get('/no/such/path');
  // @ts-expect-error amount is a number
  await c.post('/v2/qr', { body: { amount: '100' } });
  // a deliberately bad body goes as `payload`
  await c.post('/v2/qr', { payload: { amount: '100' } });
  return [id, wrong, url, more];
}
