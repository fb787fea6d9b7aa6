// POST /v2/test/payments/{op_id}/pay | expire | decline: test keys, or a user's token with ?mode=test (the
// dashboard, the CLI's trigger); 403 test_mode_only in live mode.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { simulate } from '../../domain/payments/test-actions.ts';
import { normalizePhone } from '../../domain/payments/input.ts';
import { tenant } from '../context.ts';
import { ModeQuery, OpParams } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body } from '../schemas.ts';
import { PaymentStatus, paymentDetail } from '../shapes/payment.ts';

export function v2TestHelperRoutes(app: App, deps: Deps): void {
  for (const action of ['pay', 'expire', 'decline'] as const) {
    route(app, {
      method: 'POST',
      url: `/v2/test/payments/:op_id/${action}`,
      auth: ['api_key', 'jwt'],
      permission: 'payments.create',
      errors: [403, 404, 409],
      schema: {
        tags: ['test mode'],
        summary:
          'Sandbox: the customer ' + (action === 'pay' ? 'pays' : action === 'expire' ? 'lets it expire' : 'declines'),
        params: OpParams,
        querystring: Type.Object(ModeQuery),
        body:
          action === 'pay'
            ? Body({
                sender_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
                phone: Type.Optional(Type.String({ maxLength: 32 })),
              })
            : Body({}),
        response: { 200: PaymentStatus },
      },
      handler: async (req) => {
        const body = req.body as { sender_name?: string; phone?: string };
        const payer = { sender_name: body.sender_name, phone: body.phone ? normalizePhone(body.phone) : undefined };
        return paymentDetail(deps, await simulate(deps, tenant(req), req.params.op_id, action, payer));
      },
    });
  }
}
