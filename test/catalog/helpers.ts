// Helpers of the catalog and line-item tests: calls by API key or by a user's JWT, and a catalog item.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { bearer, idem, key } from '../helpers/factories.ts';

export type Who = { testKey: string } | { access: string };

const headersOf = (who: Who) => ('testKey' in who ? key(who.testKey) : bearer(who));

/** A v2 call; JWT callers are sent to test mode (?mode=test), where a merchant's test key acts too. */
export function v2(
  app: FastifyInstance,
  who: Who,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const test = 'access' in who ? `${url.includes('?') ? '&' : '?'}mode=test` : '';
  return app.inject({
    method,
    url: url + test,
    headers: { ...headersOf(who), ...headers },
    ...(payload ? { payload } : {}),
  });
}

export interface CatalogItemBody {
  id: string;
  name: string;
  price: number;
  unit_code: number;
  ntin: string | null;
  gtin: string | null;
  vat_rate_bps: number | null;
  section_code: string | null;
  position_type: string;
  archived: boolean;
  livemode: boolean;
}

export async function newCatalogItem(app: FastifyInstance, who: Who, body: object = {}): Promise<CatalogItemBody> {
  const res = await v2(app, who, 'POST', '/v2/catalog/items', { name: 'Кофе латте', price: 1500, ...body }, idem());
  if (res.statusCode !== 201) throw new Error(`catalog item: ${res.statusCode} ${res.body}`);
  return res.json();
}
