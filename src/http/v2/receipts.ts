// Fiscal receipts (decisions 27), with an API key or a JWT (?mode=test) like the other v2 lists: the cursor
// list with its filters, one receipt, a failed receipt's retry, and sending one to the payer.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { getReceipt, listReceipts, retryReceipt, sendReceipt } from '../../domain/fiscal/receipts.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { tenant } from '../context.ts';
import { ModeQuery as ModeProps, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Page } from '../schemas.ts';
import { ReceiptRecord, toReceiptRecord } from '../shapes/fiscal.ts';

const ModeQuery = Type.Object(ModeProps);
const Params = Type.Object({ id: Type.String({ description: 'rc_<ULID>' }) });

export function v2ReceiptRoutes(app: App, deps: Deps): void {
  const tags = ['fiscal'];
  const auth: ('api_key' | 'jwt')[] = ['api_key', 'jwt'];

  route(app, {
    method: 'GET',
    url: '/v2/receipts',
    auth,
    permission: 'receipts.read',
    errors: [403],
    schema: {
      tags,
      summary: 'Fiscal receipts, newest first (cursor pages)',
      querystring: Type.Object({
        ...PageQuery,
        ...ModeProps,
        operation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        status: Type.Optional(Type.String({ enum: ['pending', 'issued', 'failed'] })),
        kind: Type.Optional(Type.String({ enum: ['sale', 'return'] })),
      }),
      response: { 200: Page(ReceiptRecord) },
    },
    handler: async (req) => {
      const { operation_id, status, kind } = req.query;
      const r = await listReceipts(
        deps,
        tenant(req),
        {
          operation_id,
          status: status as 'pending' | 'issued' | 'failed' | undefined,
          kind: kind as 'sale' | 'return' | undefined,
        },
        { cursor: req.query.cursor, limit: parseLimit(req.query.limit) },
      );
      return { ...r, data: r.data.map(toReceiptRecord) };
    },
  });

  route(app, {
    method: 'GET',
    url: '/v2/receipts/:id',
    auth,
    permission: 'receipts.read',
    errors: [403, 404],
    schema: {
      tags,
      summary: 'One fiscal receipt',
      params: Params,
      querystring: ModeQuery,
      response: { 200: ReceiptRecord },
    },
    handler: async (req) => toReceiptRecord(await getReceipt(deps, tenant(req), req.params.id)),
  });

  route(app, {
    method: 'POST',
    url: '/v2/receipts/:id/retry',
    auth,
    permission: 'fiscal.operate',
    errors: [403, 404, 409],
    schema: {
      tags,
      summary: 'Try a failed receipt again (for another 24 hours); 409 receipt_not_failed otherwise',
      params: Params,
      querystring: ModeQuery,
      body: Type.Optional(Body({})),
      response: { 202: ReceiptRecord },
    },
    handler: async (req, reply) =>
      reply.status(202).send(toReceiptRecord(await retryReceipt(deps, tenant(req), req.params.id))),
  });

  route(app, {
    method: 'POST',
    url: '/v2/receipts/:id/send',
    auth,
    permission: 'receipts.send',
    errors: [403, 404],
    schema: {
      tags,
      summary: "Send an issued receipt's check link to the payer by e-mail or SMS (one of them)",
      params: Params,
      querystring: ModeQuery,
      body: Body(
        {
          email: Type.Optional(Type.String({ maxLength: 254 })),
          phone: Type.Optional(Type.String({ maxLength: 32 })),
        },
        'ReceiptSend',
      ),
      response: {
        202: Type.Object({
          receipt_id: Type.String(),
          channel: Type.String({ enum: ['email', 'sms'] }),
          recipient: Type.String(),
        }),
      },
    },
    handler: async (req, reply) =>
      reply.status(202).send(await sendReceipt(deps, tenant(req), req.params.id, req.body)),
  });
}
