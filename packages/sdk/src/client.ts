// createTolem: the typed client. openapi-fetch over the generated paths, with the caller's credential, an
// Idempotency-Key made for every create that takes one (unless given), retries (retry.ts), errors thrown as
// TolemError, and an async iterator over cursor pages.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';
import { IDEMPOTENT_OPERATIONS } from './idempotent.js';
import { errorFromResponse, TolemError } from './errors.js';
import { retryingFetch } from './retry.js';

export interface TolemOptions {
  /** the server, e.g. https://pay.example.kz (default http://localhost:8080) */
  baseUrl?: string;
  /** a client's API key: kp_live_… or kp_test_… (X-API-Key) */
  apiKey?: string;
  /** a user's access token, or a function giving a fresh one (Authorization: Bearer) */
  accessToken?: string | (() => string | null | Promise<string | null>);
  /** a partner's integration key: pk_live_… or pk_test_… (X-Partner-API-Key) */
  partnerKey?: string;
  /** attempts after the first on 429/502/503 or a failed connection (default 2) */
  maxRetries?: number;
  /** per attempt (default 30 000 ms) */
  timeoutMs?: number;
  /** another fetch (tests, proxies) */
  fetch?: typeof fetch;
}

type Get<P> = P extends { get: infer G } ? G : never;
type Json200<O> = O extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : never;
/** The paths whose GET answers a cursor page. */
export type ListPath = {
  [P in keyof paths]: Json200<Get<paths[P]>> extends { data: unknown[]; next_cursor: unknown } ? P : never;
}[keyof paths];
export type ListItem<P extends ListPath> = Json200<Get<paths[P]>> extends { data: (infer I)[] } ? I : never;
type ListQuery<P extends ListPath> = Get<paths[P]> extends { parameters: { query?: infer Q } } ? Q : never;
type ListPathParams<P extends ListPath> = Get<paths[P]> extends { parameters: { path?: infer X } } ? X : never;

export interface Tolem extends Client<paths> {
  /** Every item of a cursor list, page after page: `for await (const p of tolem.paginate('/v2/payments'))`. */
  paginate<P extends ListPath>(
    path: P,
    params?: { query?: Omit<NonNullable<ListQuery<P>>, 'cursor'>; path?: ListPathParams<P> },
  ): AsyncGenerator<ListItem<P>>;
}

const newKey = () => globalThis.crypto.randomUUID();

export function createTolem(o: TolemOptions = {}): Tolem {
  const credentials: Middleware = {
    async onRequest({ request, schemaPath }) {
      if (o.apiKey) request.headers.set('x-api-key', o.apiKey);
      if (o.partnerKey) request.headers.set('x-partner-api-key', o.partnerKey);
      const token = typeof o.accessToken === 'function' ? await o.accessToken() : o.accessToken;
      if (token) request.headers.set('authorization', `Bearer ${token}`);
      if (!request.headers.has('idempotency-key') && IDEMPOTENT_OPERATIONS.has(`${request.method} ${schemaPath}`)) {
        request.headers.set('idempotency-key', newKey());
      }
      return request;
    },
    async onResponse({ response }) {
      if (!response.ok) throw await errorFromResponse(response);
      return response;
    },
    onError({ error }) {
      if (error instanceof TolemError) return error;
      const message = error instanceof Error ? error.message : String(error);
      return new TolemError(0, {
        type: 'connection_error',
        code: error instanceof DOMException && error.name === 'TimeoutError' ? 'timeout' : 'connection_failed',
        message,
      });
    },
  };
  const client = createClient<paths>({
    baseUrl: (o.baseUrl ?? 'http://localhost:8080').replace(/\/+$/, ''),
    fetch: retryingFetch({
      maxRetries: o.maxRetries ?? 2,
      timeoutMs: o.timeoutMs ?? 30_000,
      fetch: o.fetch ?? globalThis.fetch.bind(globalThis),
    }),
  });
  client.use(credentials);
  const paginate = async function* (
    path: string,
    params: { query?: Record<string, unknown>; path?: Record<string, unknown> } = {},
  ) {
    let cursor: string | undefined;
    do {
      const { data } = await (client as unknown as Client<Record<string, { get: unknown }>>).GET(
        path as never,
        {
          params: { ...params, query: { ...params.query, ...(cursor ? { cursor } : {}) } },
        } as never,
      );
      const page = data as unknown as { data: unknown[]; next_cursor: string | null; has_more: boolean };
      yield* page.data;
      cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
    } while (cursor);
  };
  return Object.assign(client, { paginate }) as unknown as Tolem;
}
