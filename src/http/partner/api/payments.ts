// The partner integration API /partner/v1 (decisions 22): payment links of a client, and the payments
// of the partner's clients in the key's mode.
import { Type } from 'typebox';
import type { Deps } from '../../../deps.ts';
import { activeClientRef, resolveClientRef } from '../../../domain/partners/managed-clients.ts';
import { getPartnerPayment, listPartnerPayments } from '../../../domain/partners/payments.ts';
import { createLink } from '../../../domain/links/create.ts';
import { receiptFor } from '../../plugins/idempotency.ts';
import { parseLimit } from '../../../domain/pagination.ts';
import { partnerKey } from '../../context.ts';
import { OperationId, PageQuery } from '../../params.ts';
import { route, type App } from '../../route.ts';
import { Body, Page } from '../../schemas.ts';
import { Status } from '../../shapes/payment.ts';
import { LinkCreateBody, PartnerCheckoutLink, toLinkRecord } from '../../shapes/link.ts';
import { PartnerPaymentItem, toPartnerPayment } from '../../shapes/partner-payment.ts';
import { ClientRef, read, tags, write } from './shared.ts';

const CheckoutBody = Body(
  {
    client_ref: Type.Union([ClientRef, Type.Integer({ minimum: 1, description: "the client's numeric id" })]),
    ...LinkCreateBody.properties,
  },
  'PartnerCheckoutRequest',
);

export function partnerApiPaymentRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'POST',
    url: '/partner/v1/checkout',
    ...write,
    idempotent: 'optional',
    errors: [404, 409],
    schema: {
      tags,
      summary: "A payment link of a client in the key's mode",
      body: CheckoutBody,
      response: {
        201: PartnerCheckoutLink,
      },
    },
    handler: async (req, reply) => {
      const k = partnerKey(req);
      const { client_ref: given, ...input } = req.body;
      const ref = String(given);
      const c = await activeClientRef(deps.db, k.partnerId, ref);
      const record = (l: Parameters<typeof toLinkRecord>[0]) =>
        Object.assign(toLinkRecord(l, deps.config.publicBaseUrl), { client_ref: ref, client_id: Number(c.id) });
      const link = await createLink(deps, { clientId: c.id, mode: k.mode }, input, receiptFor(deps, req, 201, record));
      return reply.status(201).send(record(link));
    },
  });

  route(app, {
    method: 'GET',
    url: '/partner/v1/payments',
    ...read,
    errors: [404],
    schema: {
      tags,
      summary: "Payments of your clients in the key's mode, newest first (cursor pages)",
      querystring: Type.Object({
        ...PageQuery,
        client_ref: Type.Optional(ClientRef),
        status: Type.Optional(Status),
        type: Type.Optional(Type.String({ enum: ['qr', 'invoice'] })),
      }),
      response: { 200: Page(PartnerPaymentItem) },
    },
    handler: async (req) => {
      const k = partnerKey(req);
      const q = req.query;
      const clientId =
        q.client_ref === undefined ? undefined : (await resolveClientRef(deps.db, k.partnerId, q.client_ref)).id;
      const r = await listPartnerPayments(
        deps,
        k,
        { clientId, status: q.status, type: q.type },
        { cursor: q.cursor, limit: parseLimit(q.limit) },
      );
      return { ...r, data: r.data.map(toPartnerPayment) };
    },
  });
  route(app, {
    method: 'GET',
    url: '/partner/v1/payments/:operation_id',
    ...read,
    errors: [404],
    schema: {
      tags,
      summary: 'One payment of your clients',
      params: Type.Object({ operation_id: OperationId }),
      response: { 200: PartnerPaymentItem },
    },
    handler: async (req) => toPartnerPayment(await getPartnerPayment(deps, partnerKey(req), req.params.operation_id)),
  });
}
