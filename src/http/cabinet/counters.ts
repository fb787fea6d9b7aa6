// Counters (decisions 28): the managers set up a shop's tills; a cashier makes QRs at one (source counter,
// marked with the counter and the cashier) and reads the till's payments of today. A cashier may do
// nothing else: its role is named by these actions alone (domain/access/policy.ts).
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import {
  archiveCounter,
  createCounter,
  createCounterQr,
  getCounter,
  listCounterPayments,
  listCounters,
  renameCounter,
} from '../../domain/payments/counters.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { cabinetUser, tenant } from '../context.ts';
import { ModeQuery as ModeProps, PageQuery } from '../params.ts';
import { receiptFor } from '../plugins/idempotency.ts';
import { route, type App } from '../route.ts';
import { Amount, Body, Page } from '../schemas.ts';
import { CounterName, CounterRecord, toCounterRecord } from '../shapes/counter.ts';
import { ItemsInput } from '../shapes/line-item.ts';
import { Comment, PaymentItem, QrCreated, toPaymentItem, toQrCreated } from '../shapes/payment.ts';

const ModeQuery = Type.Object(ModeProps);
const Params = Type.Object({ id: Type.String({ description: 'ct_<ULID>' }) });

export function counterRoutes(app: App, deps: Deps): void {
  const tags = ['counters'];
  const auth: 'jwt'[] = ['jwt'];

  route(app, {
    method: 'POST',
    url: '/me/counters',
    auth,
    permission: 'counters.write',
    schema: {
      tags,
      summary: "Set up a counter on one of the client's provider accounts of the mode",
      querystring: ModeQuery,
      body: Body({ name: CounterName, provider_account_id: Type.Integer({ minimum: 1 }) }, 'CounterCreate'),
      response: { 201: CounterRecord },
    },
    handler: async (req, reply) => {
      const c = await createCounter(deps, tenant(req), req.body);
      return reply.status(201).send(toCounterRecord(c));
    },
  });

  route(app, {
    method: 'GET',
    url: '/me/counters',
    auth,
    permission: 'counters.read',
    schema: {
      tags,
      summary: "The client's counters of the mode, newest first (cursor pages); a cashier sees them all",
      querystring: Type.Object({ ...PageQuery, ...ModeProps }),
      response: { 200: Page(CounterRecord) },
    },
    handler: async (req) => {
      const r = await listCounters(deps, tenant(req), { cursor: req.query.cursor, limit: parseLimit(req.query.limit) });
      return { ...r, data: r.data.map(toCounterRecord) };
    },
  });

  route(app, {
    method: 'GET',
    url: '/me/counters/:id',
    auth,
    permission: 'counters.read',
    errors: [404],
    schema: { tags, summary: 'One counter', params: Params, querystring: ModeQuery, response: { 200: CounterRecord } },
    handler: async (req) => toCounterRecord(await getCounter(deps, tenant(req), req.params.id)),
  });

  route(app, {
    method: 'PATCH',
    url: '/me/counters/:id',
    auth,
    permission: 'counters.write',
    errors: [404],
    schema: {
      tags,
      summary: 'Rename a counter',
      params: Params,
      querystring: ModeQuery,
      body: Body({ name: CounterName }, 'CounterPatch'),
      response: { 200: CounterRecord },
    },
    handler: async (req) => toCounterRecord(await renameCounter(deps, tenant(req), req.params.id, req.body.name)),
  });

  route(app, {
    method: 'DELETE',
    url: '/me/counters/:id',
    auth,
    permission: 'counters.write',
    errors: [404],
    schema: {
      tags,
      summary: 'Archive a counter: gone from the list and closed to QRs; its payments keep its id',
      params: Params,
      querystring: ModeQuery,
      response: { 204: Type.Null() },
    },
    handler: async (req, reply) => {
      await archiveCounter(deps, tenant(req), req.params.id);
      return reply.status(204).send(null);
    },
  });

  route(app, {
    method: 'POST',
    url: '/me/counters/:id/qr',
    auth,
    permission: 'counters.use',
    idempotent: 'required',
    errors: [403, 404, 409, 502, 503],
    schema: {
      tags,
      summary: 'A QR at the counter, through its provider account (source counter, the caller as cashier_id)',
      params: Params,
      querystring: ModeQuery,
      body: Body(
        { amount: Amount, comment: Type.Optional(Comment), items: Type.Optional(ItemsInput) },
        'CounterQrCreate',
      ),
      response: { 201: QrCreated },
    },
    handler: async (req, reply) => {
      const op = await createCounterQr(
        deps,
        tenant(req),
        req.params.id,
        cabinetUser(req).userId,
        { amount: req.body.amount, comment: req.body.comment, items: req.body.items },
        receiptFor(deps, req, 201, toQrCreated, { oneStatement: true }),
      );
      return reply.status(201).send(toQrCreated(op));
    },
  });

  route(app, {
    method: 'GET',
    url: '/me/counters/:id/payments',
    auth,
    permission: 'counters.read',
    errors: [404],
    schema: {
      tags,
      summary: "The counter's payments of today (Almaty, UTC+5), newest first (cursor pages, at most 100 a page)",
      params: Params,
      querystring: Type.Object({ ...PageQuery, ...ModeProps }),
      response: { 200: Page(PaymentItem) },
    },
    handler: async (req) => {
      const r = await listCounterPayments(deps, tenant(req), req.params.id, {
        cursor: req.query.cursor,
        limit: parseLimit(req.query.limit),
      });
      return { ...r, data: r.data.map(toPaymentItem) };
    },
  });
}
