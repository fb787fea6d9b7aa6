// Payments from the merchant cabinet (JWT): the same domain as v2, with team roles. Mode is live unless
// the query says ?mode=test.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { createInvoice, createQr } from '../../domain/payments/create.ts';
import { refundPayment, type RefundResult as RefundOutcome } from '../../domain/payments/refund.ts';
import { findOperation } from '../../domain/payments/operations.ts';
import { syncOperation } from '../../domain/payments/sync.ts';
import { listOperations } from '../../domain/payments/list.ts';
import { listRefunds } from '../../domain/payments/refund-list.ts';
import { stats, usage } from '../../domain/payments/stats.ts';
import { EXPORT_FORMATS, exportCsv, type ExportFormat } from '../../domain/payments/export.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { accountOf, tenant, tenantWith } from '../context.ts';
import { AccountHeader, ModeQuery, OpParams, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { receiptFor } from '../plugins/idempotency.ts';
import { Amount, Body, Page } from '../schemas.ts';
import { PaymentSearchQuery, searchOf } from '../shapes/payment-search.ts';
import { RefundItem, toRefundItem } from '../shapes/refund.ts';
import {
  Comment,
  InvoiceCreated,
  PaymentItem,
  PaymentStatus,
  QrCreated,
  RefundResult,
  Status,
  toInvoiceCreated,
  toPaymentItem,
  paymentDetail,
  toQrCreated,
  RefundItemsInput,
} from '../shapes/payment.ts';
import { ItemsInput } from '../shapes/line-item.ts';
const Counter = Type.Object({ count: Type.Integer(), amount: Amount });

export function cabinetPaymentRoutes(app: App, deps: Deps): void {
  const tags = ['cabinet payments'];

  route(app, {
    method: 'GET',
    url: '/me/payments',
    auth: ['jwt'],
    permission: 'payments.read',
    schema: {
      tags,
      summary: 'Payments, newest first, by status, time, amount, phone and text (cursor pages)',
      querystring: Type.Object({
        ...ModeQuery,
        status: Type.Optional(Status),
        ...PaymentSearchQuery,
        ...PageQuery,
      }),
      response: { 200: Page(PaymentItem) },
    },
    handler: async (req) => {
      const q = req.query;
      const r = await listOperations(deps, tenantWith(req, { endpoint: 'me.payments' }), searchOf(q), {
        cursor: q.cursor,
        limit: parseLimit(q.limit),
      });
      return { ...r, data: r.data.map(toPaymentItem) };
    },
  });

  route(app, {
    method: 'POST',
    url: '/me/payments/create-qr',
    auth: ['jwt'],
    permission: 'payments.create',
    idempotent: 'required',
    errors: [403, 409, 502, 503],
    schema: {
      tags,
      summary: 'Create a QR (same operation as POST /v2/qr)',
      querystring: Type.Object(ModeQuery),
      headers: AccountHeader,
      body: Body({ amount: Amount, description: Type.Optional(Comment), items: Type.Optional(ItemsInput) }),
      response: { 201: QrCreated },
    },
    handler: async (req, reply) => {
      const op = await createQr(
        deps,
        tenantWith(req, {
          account: accountOf(req),
          source: 'cabinet',
        }),
        { amount: req.body.amount, comment: req.body.description, items: req.body.items },
        receiptFor(deps, req, 201, toQrCreated, { oneStatement: true }),
      );
      return reply.status(201).send(toQrCreated(op));
    },
  });

  route(app, {
    method: 'POST',
    url: '/me/payments/create-invoice',
    auth: ['jwt'],
    permission: 'payments.create',
    idempotent: 'required',
    errors: [403, 404, 409, 502, 503],
    schema: {
      tags,
      summary: 'Push an invoice (same operation as POST /v2/invoices)',
      querystring: Type.Object(ModeQuery),
      headers: AccountHeader,
      body: Body({
        phone: Type.String({ minLength: 1, maxLength: 32 }),
        amount: Amount,
        description: Type.Optional(Comment),
        items: Type.Optional(ItemsInput),
      }),
      response: { 201: InvoiceCreated },
    },
    handler: async (req, reply) => {
      const op = await createInvoice(
        deps,
        tenantWith(req, {
          account: accountOf(req),
          source: 'cabinet',
        }),
        { phone: req.body.phone, amount: req.body.amount, comment: req.body.description, items: req.body.items },
        receiptFor(deps, req, 201, toInvoiceCreated, { oneStatement: true, outcomeUnknown: 'v2' }),
      );
      return reply.status(201).send(toInvoiceCreated(op));
    },
  });

  route(app, {
    method: 'GET',
    url: '/me/payments/status/:op_id',
    auth: ['jwt'],
    permission: 'payments.read',
    errors: [403, 404, 502, 503],
    schema: {
      tags,
      summary: 'Payment status',
      params: OpParams,
      querystring: Type.Object(ModeQuery),
      response: { 200: PaymentStatus },
    },
    handler: async (req) => {
      const t = tenant(req);
      const op = await findOperation(deps.db, t, req.params.op_id);
      return paymentDetail(deps, await syncOperation(deps, op));
    },
  });

  route(app, {
    method: 'GET',
    url: '/me/payments/:op_id/refunds',
    auth: ['jwt'],
    permission: 'payments.read',
    errors: [403, 404],
    schema: {
      tags,
      summary: "The payment's refunds, newest first (cursor pages)",
      params: OpParams,
      querystring: Type.Object({ ...ModeQuery, ...PageQuery }),
      response: { 200: Page(RefundItem) },
    },
    handler: async (req) => {
      const r = await listRefunds(deps, tenantWith(req, { endpoint: 'me.payments.refunds' }), req.params.op_id, {
        cursor: req.query.cursor,
        limit: parseLimit(req.query.limit),
      });
      return { ...r, data: r.data.map(toRefundItem) };
    },
  });

  route(app, {
    method: 'POST',
    url: '/me/payments/:op_id/refund',
    auth: ['jwt'],
    permission: 'payments.refund',
    idempotent: 'optional',
    errors: [403, 404, 409, 502, 503],
    schema: {
      tags,
      summary: 'Refund (the rest of the paid amount when amount and items are absent; their sum with items)',
      params: OpParams,
      querystring: Type.Object(ModeQuery),
      body: Body({
        amount: Type.Optional(Amount),
        reason: Type.Optional(Type.String({ maxLength: 255 })),
        items: Type.Optional(RefundItemsInput),
      }),
      response: { 201: RefundResult },
    },
    handler: async (req, reply) => {
      const r = await refundPayment(
        deps,
        tenant(req),
        { operation_id: req.params.op_id, amount: req.body.amount, reason: req.body.reason, items: req.body.items },
        receiptFor(deps, req, 201, (res: RefundOutcome) => res),
      );
      return reply.status(201).send(r);
    },
  });

  route(app, {
    method: 'GET',
    url: '/me/payments/stats',
    auth: ['jwt'],
    permission: 'payments.read',
    errors: [403],
    schema: {
      tags,
      summary: 'Paid payments: today, last 7 days, this month, all time; conversion over 30 days',
      querystring: Type.Object(ModeQuery),
      response: {
        200: Type.Object({
          today: Counter,
          week: Type.Array(Type.Object({ date: Type.String(), count: Type.Integer(), amount: Amount })),
          days_14: Type.Array(Type.Object({ date: Type.String(), count: Type.Integer(), amount: Amount }), {
            description: 'the last 14 UTC days, oldest first (added)',
          }),
          month: Counter,
          all_time: Counter,
          conversion: Type.Number({ description: 'paid / created, 0..1, last 30 days' }),
        }),
      },
    },
    handler: async (req) => {
      const t = tenant(req);
      return stats(deps, t);
    },
  });

  route(app, {
    method: 'GET',
    url: '/me/payments/export',
    auth: ['jwt'],
    permission: 'payments.export',
    errors: [403],
    schema: {
      tags,
      summary: 'CSV of the newest payments of a search (at most 1000 rows)',
      querystring: Type.Object({
        ...ModeQuery,
        status: Type.Optional(Status),
        ...PaymentSearchQuery,
        format: Type.Optional(
          Type.String({
            enum: [...EXPORT_FORMATS],
            description:
              'csv (default): comma-separated, times in UTC (ISO 8601); excel-ru: for a spreadsheet in a ' +
              'Russian or Kazakh locale, with a UTF-8 BOM, `;` between cells, CRLF and Almaty times ' +
              '(DD.MM.YYYY HH:MM:SS, UTC+5)',
          }),
        ),
      }),
      response: { 200: { description: 'CSV, one payment a row', content: { 'text/csv': { schema: Type.String() } } } },
    },
    handler: async (req, reply) => {
      const t = tenant(req);
      const { mode } = t;
      // The schema's enum has checked the format.
      const csv = await exportCsv(deps, t, searchOf(req.query), req.query.format as ExportFormat);
      reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="payments-${mode}.csv"`);
      return csv;
    },
  });

  route(app, {
    method: 'GET',
    url: '/me/usage',
    auth: ['jwt'],
    permission: 'account.read',
    schema: {
      tags: ['account'],
      summary: 'Live paid payments: today, this month, last 14 days',
      response: {
        200: Type.Object({
          today: Type.Integer(),
          month: Type.Integer(),
          daily: Type.Array(Type.Object({ date: Type.String(), count: Type.Integer() })),
        }),
      },
    },
    handler: async (req) => usage(deps, tenant(req)),
  });
}
