// The partner integration API /partner/v1 (decisions 22): the fiscal receipts of one of the partner's
// clients in the key's mode (decisions 27), listed with the filters of /v2/receipts, and one receipt.
import { Type } from 'typebox';
import type { Deps } from '../../../deps.ts';
import { getClientReceipt, listClientReceipts } from '../../../domain/partners/receipts.ts';
import { parseLimit } from '../../../domain/pagination.ts';
import { partnerKey } from '../../context.ts';
import { PageQuery } from '../../params.ts';
import { route, type App } from '../../route.ts';
import { Page } from '../../schemas.ts';
import { ReceiptRecord, toReceiptRecord } from '../../shapes/fiscal.ts';
import { ClientRef, read, RefParams, tags } from './shared.ts';

export function partnerApiReceiptRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'GET',
    url: '/partner/v1/clients/:client_ref/receipts',
    ...read,
    errors: [404],
    schema: {
      tags,
      summary: "A client's fiscal receipts in the key's mode, newest first (cursor pages)",
      params: RefParams,
      querystring: Type.Object({
        ...PageQuery,
        operation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        status: Type.Optional(Type.String({ enum: ['pending', 'issued', 'failed'] })),
        kind: Type.Optional(Type.String({ enum: ['sale', 'return'] })),
      }),
      response: { 200: Page(ReceiptRecord) },
    },
    handler: async (req) => {
      const { operation_id, status, kind, cursor, limit } = req.query;
      const r = await listClientReceipts(
        deps,
        partnerKey(req),
        req.params.client_ref,
        {
          operation_id,
          status: status as 'pending' | 'issued' | 'failed' | undefined,
          kind: kind as 'sale' | 'return' | undefined,
        },
        { cursor, limit: parseLimit(limit) },
      );
      return { ...r, data: r.data.map(toReceiptRecord) };
    },
  });

  route(app, {
    method: 'GET',
    url: '/partner/v1/clients/:client_ref/receipts/:id',
    ...read,
    errors: [404],
    schema: {
      tags,
      summary: "One fiscal receipt of a client, in the key's mode",
      params: Type.Object({ client_ref: ClientRef, id: Type.String({ description: 'rc_<ULID>' }) }),
      response: { 200: ReceiptRecord },
    },
    handler: async (req) =>
      toReceiptRecord(await getClientReceipt(deps, partnerKey(req), req.params.client_ref, req.params.id)),
  });
}
