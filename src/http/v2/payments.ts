// v2 payments (API key): QR, invoices, refunds, the payments list, customer lookup.
import { lookupCustomer } from '../../domain/payments/customers.ts';
import { receiptFor } from '../plugins/idempotency.ts';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { createInvoice, createQr } from '../../domain/payments/create.ts';
import { cancelInvoice } from '../../domain/payments/cancel.ts';
import { refundPayment, type RefundResult as RefundOutcome } from '../../domain/payments/refund.ts';
import { findOperation, type Operation } from '../../domain/payments/operations.ts';
import { syncOperation } from '../../domain/payments/sync.ts';
import { listOperations } from '../../domain/payments/list.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { accountOf, tenant, tenantWith } from '../context.ts';
import { AccountHeader, ModeQuery, OpParams, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { PaymentSearchQuery, searchOf } from '../shapes/payment-search.ts';
import { Body, Page } from '../schemas.ts';
import {
  CancelResult,
  InvoiceCreateBody,
  InvoiceCreated,
  PaymentItem,
  PaymentStatus,
  QrCreateBody,
  QrCreated,
  RefundBody,
  RefundResult,
  Status,
  toInvoiceCreated,
  toPaymentItem,
  paymentDetail,
  toQrCreated,
} from '../shapes/payment.ts';

export function v2PaymentRoutes(app: App, deps: Deps): void {
  const tags = ['payments'];

  route(app, {
    method: 'POST',
    url: '/v2/qr',
    auth: ['api_key'],
    permission: 'payments.create',
    idempotent: 'required',
    errors: [403, 409, 502, 503],
    schema: {
      tags,
      summary: 'Create a payment QR code',
      headers: AccountHeader,
      body: QrCreateBody,
      response: { 201: QrCreated },
    },
    handler: async (req, reply) => {
      const op = await createQr(
        deps,
        tenantWith(req, {
          account: accountOf(req),
          source: 'api',
        }),
        req.body,
        receiptFor(deps, req, 201, toQrCreated, { oneStatement: true }),
      );
      return reply.status(201).send(toQrCreated(op));
    },
  });

  route(app, {
    method: 'GET',
    url: '/v2/qr/:op_id',
    auth: ['api_key'],
    permission: 'payments.read',
    errors: [404, 502, 503],
    schema: {
      tags,
      summary: 'QR status (asks the provider while not final)',
      params: OpParams,
      response: { 200: PaymentStatus },
    },
    handler: async (req) => {
      const t = tenant(req);
      const op = await findOperation(deps.db, t, req.params.op_id);
      if (op.type !== 'qr')
        throw new AppError('payment_not_found', `${op.id} is an invoice; use /v2/invoices/${op.id}`);
      return paymentDetail(deps, await syncOperation(deps, op));
    },
  });

  route(app, {
    method: 'POST',
    url: '/v2/invoices',
    auth: ['api_key'],
    permission: 'payments.create',
    idempotent: 'required',
    errors: [403, 404, 409, 502, 503],
    schema: {
      tags,
      summary: 'Push an invoice to a customer phone',
      headers: AccountHeader,
      body: InvoiceCreateBody,
      response: { 201: InvoiceCreated },
    },
    handler: async (req, reply) => {
      const op = await createInvoice(
        deps,
        tenantWith(req, {
          account: accountOf(req),
          source: 'api',
        }),
        req.body,
        receiptFor(deps, req, 201, toInvoiceCreated, { oneStatement: true, outcomeUnknown: 'v2' }),
      );
      return reply.status(201).send(toInvoiceCreated(op));
    },
  });

  route(app, {
    method: 'GET',
    url: '/v2/invoices/:op_id',
    auth: ['api_key'],
    permission: 'payments.read',
    errors: [404, 502, 503],
    schema: { tags, summary: 'Invoice status', params: OpParams, response: { 200: PaymentStatus } },
    handler: async (req) => {
      const t = tenant(req);
      const op = await findOperation(deps.db, t, req.params.op_id);
      if (op.type !== 'invoice') throw new AppError('payment_not_found', `${op.id} is a QR; use /v2/qr/${op.id}`);
      return paymentDetail(deps, await syncOperation(deps, op));
    },
  });

  route(app, {
    method: 'POST',
    url: '/v2/invoices/:op_id/cancel',
    auth: ['api_key'],
    permission: 'payments.create',
    idempotent: 'required',
    errors: [404, 409, 502, 503],
    schema: {
      tags,
      summary: 'Cancel an invoice before payment',
      params: OpParams,
      body: Body({}),
      response: { 200: CancelResult },
    },
    handler: async (req) => {
      const op = await cancelInvoice(
        deps,
        tenant(req),
        req.params.op_id,
        receiptFor(deps, req, 200, (o: Operation) => ({ operation_id: o.id, status: o.status })),
      );
      return { operation_id: op.id, status: op.status };
    },
  });

  route(app, {
    method: 'POST',
    url: '/v2/refunds',
    auth: ['api_key'],
    permission: 'payments.refund',
    idempotent: 'required',
    errors: [404, 409, 502, 503],
    schema: {
      tags,
      summary: 'Refund a paid payment, fully or in part, by amount or by its items',
      body: RefundBody,
      response: { 201: RefundResult },
    },
    handler: async (req, reply) => {
      // v2 names the amount (decisions 11); a refund by items may leave it to their sum (decisions 27).
      if (req.body.amount === undefined && !req.body.items) throw invalidParam('amount', 'amount is required');
      const r = await refundPayment(
        deps,
        tenant(req),
        req.body,
        receiptFor(deps, req, 201, (res: RefundOutcome) => res),
      );
      return reply.status(201).send(r);
    },
  });

  route(app, {
    // Every v2 list takes an API key (its mode) or the cabinet's JWT (?mode, live when absent), as
    // /v2/events and /v2/payment-links do: one rule for all of them.
    method: 'GET',
    url: '/v2/payments',
    auth: ['api_key', 'jwt'],
    permission: 'payments.read',
    schema: {
      tags,
      summary: 'Payments, newest first (cursor pages), by status, type, time, amount, phone and text',
      querystring: Type.Object({
        ...PageQuery,
        status: Type.Optional(Status),
        type: Type.Optional(Type.String({ enum: ['qr', 'invoice'] })),
        ...PaymentSearchQuery,
        ...ModeQuery,
      }),
      response: { 200: Page(PaymentItem) },
    },
    handler: async (req) => {
      const q = req.query;
      const r = await listOperations(deps, tenantWith(req, { endpoint: 'v2.payments' }), searchOf(q), {
        cursor: q.cursor,
        limit: parseLimit(q.limit),
      });
      return { ...r, data: r.data.map(toPaymentItem) };
    },
  });

  route(app, {
    method: 'GET',
    url: '/v2/client',
    auth: ['api_key'],
    permission: 'payments.read',
    errors: [404, 409, 502, 503],
    schema: {
      tags,
      summary: 'Is this phone a customer of the provider?',
      querystring: Type.Object({ phone: Type.String({ minLength: 1, maxLength: 32, examples: ['+77012345678'] }) }),
      headers: AccountHeader,
      response: {
        200: Type.Object({
          phone: Type.String(),
          exists: Type.Boolean(),
          name: Type.Union([Type.String(), Type.Null()]),
        }),
      },
    },
    handler: async (req) => {
      const t = tenant(req);
      const c = await lookupCustomer(deps, t, accountOf(req), req.query.phone);
      return { phone: c.phone, exists: true, name: c.name };
    },
  });
}
