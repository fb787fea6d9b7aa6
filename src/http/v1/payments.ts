// v1 payment calls, each a thin translation onto the v2 domain function of the same job: v1 ids (seq)
// in, v1 names and the PascalCase envelope out. Creates are source 'v1', so they show up as such in
// GET /v2/payments, the journal and webhooks.
import type { Deps } from '../../deps.ts';
import { createInvoice, createQr, V1_QR_LIFETIME_S } from '../../domain/payments/create.ts';
import { cancelInvoice } from '../../domain/payments/cancel.ts';
import { refundPayment, type RefundResult as RefundOutcome } from '../../domain/payments/refund.ts';
import { syncOperation } from '../../domain/payments/sync.ts';
import { checkAmount } from '../../domain/payments/input.ts';
import { findBySeq, parseSeq } from '../../domain/v1/operations.ts';
import type { Operation } from '../../domain/payments/operations.ts';
import { tenant } from '../context.ts';
import { route, type App } from '../route.ts';
import { receiptFor } from '../plugins/idempotency.ts';
import { setSuccessor } from './headers.ts';
import { v1Doc } from './route-docs.ts';
import {
  CancelBody,
  CancelData,
  InvoiceCreateBody,
  InvoiceCreatedData,
  ok,
  QrCreateBody,
  QrCreatedData,
  QrStatusData,
  RefundBody,
  RefundData,
  SeqParams,
  toInvoiceCreated,
  toQrCreated,
  toQrStatus,
  toRefund,
} from './schemas.ts';

const v2Path = (op: { type: string; id: string }) => `/v2/${op.type === 'qr' ? 'qr' : 'invoices'}/${op.id}`;

export function v1PaymentRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'POST',
    url: '/qr/create',
    auth: ['api_key'],
    permission: 'payments.create',
    idempotent: 'required',
    schema: {
      ...v1Doc('Create a payment QR (180 s); v2: POST /v2/qr', QrCreatedData, [403, 409, 503]),
      body: QrCreateBody,
    },
    handler: async (req) => {
      const { clientId, mode } = tenant(req);
      const op = await createQr(
        deps,
        {
          clientId,
          mode,
          source: 'v1',
          lifetimeS: V1_QR_LIFETIME_S,
        },
        { amount: req.body.amount },
        // The v1 envelope is what a replay must answer, so that is what is stored with the operation. It
        // carries the seq, which the database makes: saved in the transaction, not in one statement.
        receiptFor(deps, req, 200, (o: Operation) => ok(toQrCreated(o))),
      );
      return ok(toQrCreated(op));
    },
  });

  route(app, {
    method: 'GET',
    url: '/qr/status/:operationId',
    auth: ['api_key'],
    permission: 'payments.read',
    schema: {
      ...v1Doc(
        'Operation status, QR or invoice (asks the provider while waiting); v2: GET /v2/qr/{op_id}',
        QrStatusData,
        [404, 503],
      ),
      params: SeqParams,
    },
    handler: async (req, reply) => {
      const t = tenant(req);
      const op = await findBySeq(deps.db, t, req.params.operationId);
      setSuccessor(reply, v2Path(op));
      return ok(toQrStatus(await syncOperation(deps, op)));
    },
  });

  route(app, {
    method: 'POST',
    url: '/invoice/create',
    auth: ['api_key'],
    permission: 'payments.create',
    idempotent: 'required',
    schema: {
      ...v1Doc('Push an invoice to a customer phone; v2: POST /v2/invoices', InvoiceCreatedData, [403, 404, 409, 503]),
      body: InvoiceCreateBody,
    },
    handler: async (req) => {
      const { clientId, mode } = tenant(req);
      const op = await createInvoice(
        deps,
        {
          clientId,
          mode,
          source: 'v1',
        },
        req.body,
        receiptFor(deps, req, 200, (o: Operation) => ok(toInvoiceCreated(o)), { outcomeUnknown: 'v1' }),
      );
      return ok(toInvoiceCreated(op));
    },
  });

  // The v1 table does not mark cancel IDEM, the spec's idempotency section says "all mutating /v1 calls":
  // the key is honoured when sent and not required, so both readings' clients work.
  route(app, {
    method: 'POST',
    url: '/invoice/cancel',
    auth: ['api_key'],
    permission: 'payments.create',
    idempotent: 'optional',
    schema: {
      ...v1Doc('Cancel an invoice before payment; v2: POST /v2/invoices/{op_id}/cancel', CancelData, [404, 409, 503]),
      body: CancelBody,
    },
    handler: async (req, reply) => {
      const t = tenant(req);
      const found = await findBySeq(deps.db, t, parseSeq(req.body.operation_id));
      setSuccessor(reply, `${v2Path(found)}/cancel`);
      const op = await cancelInvoice(
        deps,
        t,
        found.id,
        receiptFor(deps, req, 200, (o: Operation) => ok({ OperationId: o.seq, Status: 'Cancelled' })),
      );
      return ok({ OperationId: op.seq, Status: 'Cancelled' });
    },
  });

  route(app, {
    method: 'POST',
    url: '/refund',
    auth: ['api_key'],
    permission: 'payments.refund',
    idempotent: 'required',
    schema: {
      ...v1Doc('Refund a paid payment by items (sum of prices); v2: POST /v2/refunds', RefundData, [404, 409, 503]),
      body: RefundBody,
    },
    handler: async (req) => {
      const t = tenant(req);
      const max = deps.config.amountMax;
      // v1 refunds by items; the amount is their sum (decisions 11). Each price is an amount on its own.
      const amount = req.body.items.reduce((sum, it, i) => sum + checkAmount(it.price, max, `items.${i}.price`), 0);
      checkAmount(amount, max, 'items');
      const op = await findBySeq(deps.db, t, parseSeq(req.body.operation_id));
      const r = await refundPayment(
        deps,
        t,
        { operation_id: op.id, amount },
        receiptFor(deps, req, 200, (res: RefundOutcome) => ok(toRefund(res, op.seq))),
      );
      return ok(toRefund(r, op.seq));
    },
  });
}
