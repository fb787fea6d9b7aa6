// One way to declare a route: its audience (auth), permission (an action of domain/access/policy.ts),
// rate-limit bucket and idempotency go into the route config, where the global hooks read and enforce
// them, and into the OpenAPI document (security, x-permission, every error response).
import type {
  FastifyInstance,
  FastifySchema,
  RouteHandlerMethod,
  HTTPMethods,
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorEnvelope } from './schemas.ts';
import { ACTIONS, blockedUnderImpersonation, rolesFor, type Action } from '../domain/access/policy.ts';
import { ROLES } from '../domain/access/principal.ts';

/** `admin_jwt`: a user's access token on the admin API (a user without is_admin is refused by the policy) */
export type AuthKind = 'api_key' | 'jwt' | 'admin_jwt' | 'partner' | 'metrics_token';
export type App = FastifyInstance<any, any, any, any, TypeBoxTypeProvider>;

export interface RouteConfig {
  /** credentials accepted; empty: public */
  auth: readonly AuthKind[];
  /** what the caller does, checked against the policy table; every authenticated route names one */
  permission?: Action;
  /** named rate-limit bucket instead of the caller's (auth, checkout_*) */
  rateBucket?: string;
  idempotent?: 'required' | 'optional';
}

const SECURITY: Record<AuthKind, Record<string, string[]>> = {
  api_key: { ApiKey: [] },
  jwt: { BearerAuth: [] },
  admin_jwt: { BearerAuth: [] },
  partner: { PartnerKey: [] },
  metrics_token: { MetricsToken: [] },
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
  auth: readonly AuthKind[];
  /** required when `auth` is not empty: the action of the policy table this route performs */
  permission?: Action;
  rateBucket?: string;
  idempotent?: 'required' | 'optional';
  schema: S & {
    tags?: string[];
    summary?: string;
    description?: string;
    response?: Record<number, unknown>;
    hide?: boolean;
  };
  /** extra error statuses this route can give, besides the common ones */
  errors?: number[];
  handler: RouteHandlerMethod<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    ContextConfigDefault,
    S,
    TypeBoxTypeProvider
  >;
}

/** What a 403 of this route's permission can say, for the OpenAPI document. */
function forbiddenDoc(action: Action): string {
  const roles = rolesFor(action);
  const codes = [
    roles.length === 0
      ? 'forbidden_role (a user with is_admin only)'
      : roles.length === 1
        ? `not_owner (owner only)`
        : `forbidden_role (roles: ${roles.join(', ')})`,
    ...(blockedUnderImpersonation(action)
      ? ['impersonation_blocked_action (refused to a partner acting in the account)']
      : []),
  ];
  return `Forbidden: ${codes.join('; ')}`;
}

/**
 * Whether the permission can refuse a credential this route accepts: a role outside the grant, a partner
 * acting in the account, or (owner-only actions) an API key, which acts for the whole client otherwise.
 */
function deniable(spec: { auth: readonly AuthKind[]; permission?: Action }): boolean {
  if (!spec.permission) return false;
  if (ACTIONS[spec.permission].grant === 'owner' || spec.auth.includes('admin_jwt')) return true;
  return (
    spec.auth.includes('jwt') &&
    (rolesFor(spec.permission).length < ROLES.length || blockedUnderImpersonation(spec.permission))
  );
}

export function route<S extends FastifySchema>(app: App, spec: RouteSpec<S>): void {
  if (spec.auth.length && !spec.permission)
    throw new Error(`${spec.method} ${spec.url}: an authenticated route must declare its permission`);
  if (!spec.auth.length && spec.permission)
    throw new Error(`${spec.method} ${spec.url}: a public route has no permission`);
  const common = [400, 429, 500, ...(spec.auth.length ? [401] : []), ...(spec.errors ?? [])];
  const responses = errorResponses([...new Set(common)].sort());
  if (deniable(spec)) responses[403] = { ...ErrorEnvelope, description: forbiddenDoc(spec.permission!) };
  const schema: Record<string, unknown> = <Record<string, unknown>>(<unknown>{
    ...spec.schema,
    response: { ...responses, ...spec.schema.response },
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
  const config: RouteConfig = {
    auth: spec.auth,
    permission: spec.permission,
    rateBucket: spec.rateBucket,
    idempotent: spec.idempotent,
  };
  app.route({ method: spec.method, url: spec.url, schema, config, handler: spec.handler as never });
}

/** A route as the app declared it, for the OpenAPI extensions and the route sweep. */
export interface DeclaredRoute {
  method: string;
  url: string;
  config: RouteConfig;
}

/**
 * A stable operationId from the method and the full path, for generated clients: `GET /v2/qr/:op_id` is
 * `getV2QrByOpId`, `POST /me/webhooks/:id/rotate-secret` is `postMeWebhooksByIdRotateSecret`.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter(Boolean)
    .flatMap((seg) => {
      const param = seg.startsWith(':');
      const parts = seg
        .replace(/^:/, '')
        .split(/[^A-Za-z0-9]+/)
        .filter(Boolean);
      return param ? ['by', ...parts] : parts;
    });
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  return method.toLowerCase() + words.map(cap).join('');
}
