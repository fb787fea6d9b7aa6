// The public checkout API (no authentication): what the hosted page uses, and what an integrator may use
// for a page of their own. Rate-limited per token and client IP (buckets checkout_*). Answers are
// per visitor (cookie) and never cached.
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import {
  checkoutStatus,
  openCheckout,
  setVisitorEmail,
  simulateCheckoutPayment,
  type CheckoutState,
} from '../../domain/links/checkout.ts';
import { route, type App } from '../route.ts';
import { Body } from '../schemas.ts';
import { TokenParams } from '../params.ts';
import { Checkout, CheckoutStatus, EmailBody, SimulateBody, toCheckout } from './schemas.ts';
import { visitorOf } from './visitor.ts';

export function checkoutApiRoutes(app: App, deps: Deps): void {
  const tags = ['checkout (public)'];
  const visitor = (req: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store');
    return visitorOf(req, reply, deps.config.publicBaseUrl);
  };
  const shape = (s: CheckoutState) => toCheckout(s);

  route(app, {
    method: 'GET',
    url: '/v2/checkout/:token',
    auth: [],
    rateBucket: 'checkout_get',
    errors: [404, 409, 503],
    schema: {
      tags,
      summary: 'Link data, a QR for this visitor (null until the e-mail is given when required) and branding',
      params: TokenParams,
      response: { 200: Checkout },
    },
    handler: async (req, reply) => shape(await openCheckout(deps, req.params.token, visitor(req, reply))),
  });

  route(app, {
    method: 'GET',
    url: '/v2/checkout/:token/status',
    auth: [],
    rateBucket: 'checkout_status',
    errors: [404, 503],
    schema: {
      tags,
      summary:
        'Payment status for polling (every 3 s); `op` is mandatory for allow_repeat links; ' +
        "without it, a one-time link's current payment (`waiting` with nulls before any QR)",
      params: TokenParams,
      querystring: Type.Object({
        op: Type.Optional(Type.String({ maxLength: 64, description: 'operation_id of the QR shown' })),
      }),
      response: { 200: CheckoutStatus },
    },
    handler: async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return checkoutStatus(deps, req.params.token, req.query.op || undefined);
    },
  });

  route(app, {
    method: 'POST',
    url: '/v2/checkout/:token/refresh-qr',
    auth: [],
    rateBucket: 'checkout_refresh',
    errors: [404, 409, 503],
    schema: {
      tags,
      summary: 'A fresh QR for this visitor (after the previous one expired)',
      params: TokenParams,
      body: Body({}),
      response: { 200: Checkout },
    },
    handler: async (req, reply) =>
      shape(await openCheckout(deps, req.params.token, visitor(req, reply), { fresh: true })),
  });

  route(app, {
    method: 'POST',
    url: '/v2/checkout/:token/email',
    auth: [],
    rateBucket: 'checkout_email',
    errors: [404, 409, 503],
    schema: {
      tags,
      summary: 'Stores the payer e-mail; answers the checkout with its QR',
      params: TokenParams,
      body: EmailBody,
      response: { 200: Checkout },
    },
    handler: async (req, reply) =>
      shape(await setVisitorEmail(deps, req.params.token, visitor(req, reply), req.body.email)),
  });

  route(app, {
    method: 'POST',
    url: '/v2/checkout/:token/simulate-payment',
    auth: [],
    rateBucket: 'checkout_refresh',
    errors: [403, 404, 409],
    schema: {
      tags,
      summary: "Test-mode links only: the payer pays this visitor's QR (or operation_id) in the sandbox",
      params: TokenParams,
      body: SimulateBody,
      response: { 200: CheckoutStatus },
    },
    handler: async (req, reply) =>
      simulateCheckoutPayment(deps, req.params.token, visitor(req, reply), req.body.operation_id),
  });
}
