// One way to declare a route: its audience (auth), rate-limit bucket and idempotency go into the route
// config, where the global hooks read them, and into the OpenAPI schema (security, every error response).
import type { FastifyInstance, FastifySchema, RouteHandlerMethod, HTTPMethods, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteGenericInterface, ContextConfigDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorEnvelope } from './schemas.ts';

export type AuthKind = 'api_key' | 'jwt' | 'partner';
export type App = FastifyInstance<any, any, any, any, TypeBoxTypeProvider>;

export interface RouteConfig {
  /** credentials accepted; empty: public */
  auth: AuthKind[];
  /** named rate-limit bucket instead of the caller's (auth, checkout_*) */
  rateBucket?: string;
  idempotent?: 'required' | 'optional';
}

const SECURITY: Record<AuthKind, Record<string, string[]>> = {
  api_key: { ApiKey: [] },
  jwt: { BearerAuth: [] },
  partner: { PartnerKey: [] },
};

const ERRORS: Record<number, string> = {
  400: 'Invalid input',
  401: 'Not authenticated',
  403: 'Forbidden',
  404: 'Not found',
  409: 'State conflict',
  413: 'Body over 1 MiB',
  415: 'Body is not JSON',
  429: 'Rate or plan limit',
  500: 'Internal error',
};

export function errorResponses(statuses: number[]): Record<number, unknown> {
  return Object.fromEntries(statuses.map((s) => [s, { ...ErrorEnvelope, description: ERRORS[s] ?? 'Error' }]));
}

interface RouteSpec<S extends FastifySchema> {
  method: HTTPMethods;
  url: string;
  auth: AuthKind[];
  rateBucket?: string;
  idempotent?: 'required' | 'optional';
  schema: S & { tags?: string[]; summary?: string; description?: string; response?: Record<number, unknown>; hide?: boolean };
  /** extra error statuses this route can give, besides the common ones */
  errors?: number[];
  handler: RouteHandlerMethod<
    RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteGenericInterface, ContextConfigDefault, S, TypeBoxTypeProvider
  >;
}

export function route<S extends FastifySchema>(app: App, spec: RouteSpec<S>): void {
  const common = [400, 429, 500, ...(spec.auth.length ? [401] : []), ...(spec.errors ?? [])];
  const schema: Record<string, unknown> = <Record<string, unknown>>(<unknown>{
    ...spec.schema,
    response: { ...errorResponses([...new Set(common)].sort()), ...spec.schema.response },
  });
  if (spec.auth.length) schema.security = spec.auth.map((k) => SECURITY[k]);
  else schema.security = [];
  if (spec.idempotent) {
    const key = Type.String({ minLength: 1, maxLength: 255, description: 'UUID recommended; kept 24 h' });
    schema.headers = Type.Object({
      ...((spec.schema.headers as { properties?: object })?.properties ?? {}),
      'idempotency-key': spec.idempotent === 'required' ? key : Type.Optional(key),
    });
  }
  const config: RouteConfig = { auth: spec.auth, rateBucket: spec.rateBucket, idempotent: spec.idempotent };
  app.route({ method: spec.method, url: spec.url, schema, config, handler: spec.handler as never });
}
