// /v1/subscription/*: buying a plan (decisions 20). Cabinet calls under an old prefix: plain JSON, the v2
// error envelope, a JWT, no Deprecation or Sunset headers, alive after the v1 sunset. They are registered
// here, outside the v1 context, so none of v1's envelope or sunset applies.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import {
  checkPlanPayment,
  payPlan,
  plansOf,
  type PlanQr as PlanQrResult,
} from '../../domain/subscriptions/subscriptions.ts';
import { receiptFor } from '../plugins/idempotency.ts';
import { cabinetUser } from '../context.ts';
import { OpParams } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, NullableTimestamp, Timestamp } from '../schemas.ts';
import { Status } from '../shapes/payment.ts';
import { PLANS } from '../../domain/plans.ts';

const PlanQr = Type.Object(
  {
    operation_id: Type.String(),
    plan: Type.String(),
    amount: Type.Integer({ description: 'tenge' }),
    qr_token: Type.String(),
    deep_link: Type.String(),
    expires_at: Timestamp,
    status: Status,
  },
  { title: 'PlanPayment' },
);

const PlanCheck = Type.Object(
  {
    operation_id: Type.String(),
    status: Status,
    plan: Type.String(),
    activated: Type.Boolean(),
    plan_active: Type.Boolean(),
    plan_expires_at: NullableTimestamp,
  },
  { title: 'PlanPaymentCheck' },
);

export function subscriptionRoutes(app: App, deps: Deps): void {
  const tags = ['subscription'];
  route(app, {
    method: 'GET',
    url: '/v1/subscription/plans',
    auth: [],
    schema: {
      tags,
      summary: 'Plans that can be bought, with their price for 30 days',
      response: {
        200: Type.Object({
          data: Type.Array(
            Type.Object({
              plan: Type.String({ enum: [...PLANS] }),
              amount: Type.Integer(),
              period_days: Type.Integer(),
            }),
          ),
        }),
      },
    },
    handler: async () => ({ data: plansOf(deps) }),
  });
  route(app, {
    method: 'POST',
    url: '/v1/subscription/pay',
    auth: ['jwt'],
    permission: 'subscription.pay',
    idempotent: 'required',
    errors: [409, 502, 503],
    schema: {
      tags,
      summary: 'A QR that buys a plan for 30 days (the operator is the payee)',
      body: Body(
        {
          plan: Type.String({
            minLength: 1,
            maxLength: 32,
            description: 'starter, professional, ... (GET /v1/subscription/plans)',
          }),
        },
        'PlanPaymentRequest',
      ),
      response: { 201: PlanQr },
    },
    handler: async (req, reply) => {
      const p = cabinetUser(req);
      const answer = await payPlan(
        deps,
        p,
        req.body.plan,
        receiptFor(deps, req, 201, (a: PlanQrResult) => a),
      );
      return reply.status(201).send(answer);
    },
  });
  route(app, {
    method: 'GET',
    url: '/v1/subscription/check/:op_id',
    auth: ['jwt'],
    permission: 'payments.read',
    errors: [404, 502, 503],
    schema: {
      tags,
      summary: 'Whether the plan QR is paid and the plan active (asks the provider)',
      params: OpParams,
      response: { 200: PlanCheck },
    },
    handler: async (req) => checkPlanPayment(deps, cabinetUser(req), req.params.op_id),
  });
}
