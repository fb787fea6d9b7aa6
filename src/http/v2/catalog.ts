// v2 catalog (decisions 27; API key, or JWT with ?mode=test for test mode): the merchant's goods and
// services, whose fields a payment's, a link's or a refund's items copy by catalog_item_id. DELETE
// archives. Team roles apply to JWT callers (catalog.read vs catalog.write).
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { findCatalogItem, type CatalogItem } from '../../domain/catalog/items.ts';
import {
  archiveCatalogItem,
  createCatalogItem,
  listCatalogItems,
  updateCatalogItem,
} from '../../domain/catalog/manage.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { receiptFor } from '../plugins/idempotency.ts';
import { tenant } from '../context.ts';
import { ModeQuery as ModeProps, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Page } from '../schemas.ts';
import {
  CatalogItemCreateBody,
  CatalogItemPatchBody,
  CatalogItemRecord,
  toCatalogItemRecord,
} from '../shapes/catalog-item.ts';

const ModeQuery = Type.Object(ModeProps);
const ItemParams = Type.Object({ item_id: Type.String({ description: 'ci_<ULID>' }) });

export function v2CatalogRoutes(app: App, deps: Deps): void {
  const tags = ['catalog'];
  const auth: ('api_key' | 'jwt')[] = ['api_key', 'jwt'];
  const read = { auth, permission: 'catalog.read' } as const;
  const write = { auth, permission: 'catalog.write' } as const;

  route(app, {
    method: 'POST',
    url: '/v2/catalog/items',
    ...write,
    idempotent: 'optional',
    errors: [403],
    schema: {
      tags,
      summary: 'Add an item to the catalog',
      querystring: ModeQuery,
      body: CatalogItemCreateBody,
      response: { 201: CatalogItemRecord },
    },
    handler: async (req, reply) => {
      const item = await createCatalogItem(
        deps,
        tenant(req),
        req.body,
        receiptFor(deps, req, 201, (i: CatalogItem) => toCatalogItemRecord(i)),
      );
      return reply.status(201).send(toCatalogItemRecord(item));
    },
  });

  route(app, {
    method: 'GET',
    url: '/v2/catalog/items',
    ...read,
    errors: [403],
    schema: {
      tags,
      summary: 'Catalog items, newest first (cursor pages), by name (q: any part, any case) and archived',
      querystring: Type.Object({
        ...PageQuery,
        ...ModeProps,
        q: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
        archived: Type.Optional(Type.Boolean({ description: 'absent: archived and active items both' })),
      }),
      response: { 200: Page(CatalogItemRecord) },
    },
    handler: async (req) => {
      const q = req.query;
      const r = await listCatalogItems(
        deps,
        tenant(req),
        { q: q.q, archived: q.archived },
        { cursor: q.cursor, limit: parseLimit(q.limit) },
      );
      return { ...r, data: r.data.map(toCatalogItemRecord) };
    },
  });

  route(app, {
    method: 'GET',
    url: '/v2/catalog/items/:item_id',
    ...read,
    errors: [403, 404],
    schema: {
      tags,
      summary: 'One catalog item',
      params: ItemParams,
      querystring: ModeQuery,
      response: { 200: CatalogItemRecord },
    },
    handler: async (req) => toCatalogItemRecord(await findCatalogItem(deps.db, tenant(req), req.params.item_id)),
  });

  route(app, {
    method: 'PATCH',
    url: '/v2/catalog/items/:item_id',
    ...write,
    errors: [403, 404],
    schema: {
      tags,
      summary: 'Edit an item (null clears an optional code); payments made before keep their copy',
      params: ItemParams,
      querystring: ModeQuery,
      body: CatalogItemPatchBody,
      response: { 200: CatalogItemRecord },
    },
    handler: async (req) =>
      toCatalogItemRecord(await updateCatalogItem(deps, tenant(req), req.params.item_id, req.body)),
  });

  route(app, {
    method: 'DELETE',
    url: '/v2/catalog/items/:item_id',
    ...write,
    errors: [403, 404],
    schema: {
      tags,
      summary: 'Archive an item (again: answered as it is); new payments may no longer name it',
      params: ItemParams,
      querystring: ModeQuery,
      response: { 200: CatalogItemRecord },
    },
    handler: async (req) => toCatalogItemRecord(await archiveCatalogItem(deps, tenant(req), req.params.item_id)),
  });
}
