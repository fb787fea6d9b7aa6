// What the app does to the OpenAPI document after @fastify/swagger builds it from the route declarations
// (route.ts) and the frame (openapi.ts): @fastify/swagger calls finishDocument (its transformObject) when
// /openapi.json is first asked for. Every step is below, in the order it runs, with why it is there. None
// changes what a route accepts or answers: they make the document say what the app does.
import type { DeclaredRoute } from './route.ts';
import { blockedUnderImpersonation, rolesFor } from '../domain/access/policy.ts';

type Json = unknown;
type JsonObject = Record<string, Json>;

interface DocOperation {
  deprecated?: boolean;
  parameters?: { in?: string; name?: string }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: { required?: string[] } }> };
  responses?: Record<string, unknown>;
  security?: Record<string, unknown>[];
}

/** The document as @fastify/swagger hands it over, as far as the steps read it. */
export interface OpenApiDocument extends JsonObject {
  paths?: Record<string, Record<string, DocOperation>>;
  components?: JsonObject & { securitySchemes?: Record<string, unknown> };
}

/** Runs every step on `doc` (in place) and returns it. */
export function finishDocument(doc: OpenApiDocument, routes: DeclaredRoute[]): OpenApiDocument {
  // 1. Paths in the document's own order (DOCUMENT_SECTIONS), whatever order the surfaces declare them
  //    in. First, because the named components (step 7) are listed in the order the paths are visited.
  orderPaths(doc);
  // 2. x-permission, x-roles, x-impersonation on each permissioned operation: the policy has no place
  //    in OpenAPI, and a client (or the dashboard's author) needs to know who may call what.
  addPermissionExtensions(doc as Parameters<typeof addPermissionExtensions>[0], routes);
  // 3. Security schemes no operation uses are dropped (MetricsToken when METRICS_TOKEN is not set).
  pruneUnusedSchemes(doc);
  // 4. Bodies whose fields are all optional are not required (an empty body is {}); every operation with
  //    a body but v1's documents 415 for another media type.
  documentBodies(doc);
  // 5. Header parameters in the spelling the docs use (Idempotency-Key, not idempotency-key).
  documentHeaderNames(doc);
  // 6. 405 with Allow on every operation: Fastify answers it for a known path's other methods, and
  //    OpenAPI has no place for undeclared methods.
  documentMethodNotAllowed(doc);
  // 7. Last: titled schemas become #/components/schemas/<title> and $refs. The steps before read the
  //    schemas inline (a body's `required`, an error response's content), so they run on them first.
  hoistNamedSchemas(doc);
  return doc;
}

/**
 * The document's sections by path prefix, in the order the document has always listed them (since before
 * each surface was one plugin, when app.ts declared the route files one by one, interleaving surfaces).
 * Keeping it keeps /openapi.json, and the SDK's types generated from it (packages/sdk/src/schema.ts), free
 * of churn. A path belongs to the section of its longest listed prefix; inside a section paths keep the
 * order they are declared in; a path under no listed prefix comes after them all, in declaration order.
 */
const DOCUMENT_SECTIONS: readonly (readonly string[])[] = [
  ['/healthz', '/readyz', '/metrics', '/.well-known', '/llms.txt', '/llms-full.txt'],
  ['/auth'],
  ['/me', '/me/webhooks', '/me/notifications'],
  ['/v2'],
  ['/me/payments', '/me/usage'],
  ['/v2/payment-links'],
  ['/v2/checkout', '/pay'],
  [
    '/me/branding',
    '/me/organization',
    '/me/team',
    '/me/tickets',
    '/me/integrations',
    '/me/allow-partner-impersonation',
    '/me/partner-impersonation',
    '/me/messenger-link',
  ],
  ['/messenger'],
  ['/admin'],
  ['/onboarding'],
  ['/me/provider'],
  ['/v1/subscription'],
  ['/partner', '/r'],
  ['/me/branding/logo'],
  ['/v1'],
];

function sectionOf(path: string): number {
  let section = DOCUMENT_SECTIONS.length;
  let longest = -1;
  DOCUMENT_SECTIONS.forEach((prefixes, i) => {
    for (const p of prefixes) {
      if (p.length > longest && (path === p || path.startsWith(`${p}/`))) {
        section = i;
        longest = p.length;
      }
    }
  });
  return section;
}

/** Reorders `doc.paths` by DOCUMENT_SECTIONS (a stable sort: declaration order within a section). */
export function orderPaths(doc: { paths?: Record<string, unknown> }): void {
  if (!doc.paths) return;
  const ranked = Object.entries(doc.paths).map((entry, i) => ({ entry, i, section: sectionOf(entry[0]) }));
  ranked.sort((a, b) => a.section - b.section || a.i - b.i);
  doc.paths = Object.fromEntries(ranked.map((r) => r.entry));
}

/** Fastify's `/a/:id` as OpenAPI's `/a/{id}`. */
export const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** Adds x-permission, x-roles and x-impersonation to each operation of a permissioned route. */
export function addPermissionExtensions(
  doc: { paths?: Record<string, Record<string, Record<string, unknown>>> },
  routes: DeclaredRoute[],
): void {
  for (const r of routes) {
    const action = r.config.permission;
    const op = doc.paths?.[openapiPath(r.url)]?.[r.method.toLowerCase()];
    if (!action || !op) continue;
    op['x-permission'] = action;
    op['x-roles'] = [...rolesFor(action)];
    op['x-impersonation'] = blockedUnderImpersonation(action) ? 'blocked' : 'allowed';
  }
}

/** Security schemes no operation uses are left out of the document (MetricsToken without METRICS_TOKEN). */
export function pruneUnusedSchemes(doc: {
  paths?: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
  components?: { securitySchemes?: Record<string, unknown> };
}): void {
  const used = new Set(
    Object.values(doc.paths ?? {}).flatMap((ops) =>
      Object.values(ops).flatMap((op) => (op.security ?? []).flatMap((s) => Object.keys(s))),
    ),
  );
  for (const name of Object.keys(doc.components?.securitySchemes ?? {}))
    if (!used.has(name)) delete doc.components!.securitySchemes![name];
}

/**
 * Bodies as the app takes them: a body whose fields are all optional may be left out (an empty body is
 * {}), so it is not required; and a JSON body of another media type is 415 (v1 answers that as its 400).
 */
export function documentBodies(doc: { paths?: Record<string, Record<string, DocOperation>> }): void {
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(ops)) {
      const body = op.requestBody;
      if (!body) continue;
      if (!body.content?.['application/json']?.schema?.required?.length) body.required = false;
      if (!op.deprecated && op.responses?.['400'] && !op.responses['415']) {
        op.responses['415'] = { ...(op.responses['400'] as object), description: 'Body is not JSON' };
      }
    }
  }
}

/**
 * Header parameters as every document and the README write them (`Idempotency-Key`, `X-Provider-Account`):
 * route schemas name headers in lower case, as Fastify reads them, but a client generated from the
 * document sends a header by its declared name, and a strict one refuses the spelling the docs use.
 * HTTP itself does not care.
 */
export function documentHeaderNames(doc: { paths?: Record<string, Record<string, DocOperation>> }): void {
  const canonical = (name: string) =>
    name
      .split('-')
      .map((w) => (w === 'api' ? 'API' : w.charAt(0).toUpperCase() + w.slice(1)))
      .join('-');
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(ops)) {
      for (const p of op.parameters ?? []) if (p.in === 'header' && p.name) p.name = canonical(p.name);
    }
  }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * 405: any documented path answers another method with 405 and an Allow header listing its methods (the
 * errors plugin; v1 in its own envelope). OpenAPI has no place for a path's undeclared methods, so each
 * operation lists it, in the envelope its other errors use.
 */
export function documentMethodNotAllowed(doc: { paths?: Record<string, Record<string, DocOperation>> }): void {
  for (const ops of Object.values(doc.paths ?? {})) {
    const allowed = METHODS.filter((m) => ops[m]).map((m) => m.toUpperCase());
    for (const [method, op] of Object.entries(ops)) {
      if (!METHODS.includes(method) || !op.responses || op.responses['405']) continue;
      const other = Object.entries(op.responses).find(([code]) => /^[45]\d\d$/.test(code))?.[1] as
        | { content?: unknown }
        | undefined;
      op.responses['405'] = {
        description:
          `Method not allowed: this path takes ${allowed.join(', ')}` + (op.deprecated ? ' (v1: StatusCode -405)' : ''),
        headers: { Allow: { description: 'the methods of this path', schema: { type: 'string' } } },
        content: other?.content ?? { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
  }
}

// Named component schemas. A shape is named where it is declared, by a `title`
// (Type.Object(props, { title: 'Payment' })), so routes keep their inline TypeBox schemas (static types,
// validation, serialization unchanged) and only the document changes: every titled schema is moved to
// #/components/schemas/<title> and replaced by a $ref, so a generated client sees `Payment` once, not
// forty anonymous copies of it.

const isObject = (v: Json): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON of a schema with its keys sorted: two declarations of one name must say the same thing. */
function canonical(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/**
 * Moves every titled schema under `roots` (paths, webhooks) into `components.schemas` and refers to it.
 * Children first, so a named schema inside another (PaymentStatus inside Payment) becomes a reference in
 * the component too. A `description` stays with the use, next to the $ref (OpenAPI 3.1 allows siblings):
 * uses of one shape describe it differently (each error response says its reason). Two different schemas
 * under one title throw: that is a declaration bug, found when the document is first built (a test builds it).
 */
export function hoistNamedSchemas(
  doc: { components?: JsonObject } & JsonObject,
  roots: string[] = ['paths', 'webhooks'],
): void {
  const components = (doc.components ??= {}) as JsonObject;
  const schemas = (components.schemas ??= {}) as Record<string, JsonObject>;
  const seen = new Map<string, string>();

  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(node)) {
      // An example or a default is data, not a schema: a "title" in it names nothing.
      out[k] = k === 'example' || k === 'examples' || k === 'default' || k === 'const' || k === 'enum' ? v : visit(v);
    }
    const title = out.title;
    if (typeof title !== 'string' || !/^[A-Z][A-Za-z0-9]*$/.test(title)) return out;
    const { description, ...schema } = out;
    const body = canonical(schema);
    const before = seen.get(title);
    if (before === undefined) {
      seen.set(title, body);
      schemas[title] = schema;
    } else if (before !== body) {
      throw new Error(`OpenAPI: two different schemas are titled ${title}; give one another name`);
    }
    return description === undefined
      ? { $ref: `#/components/schemas/${title}` }
      : { $ref: `#/components/schemas/${title}`, description };
  };

  for (const root of roots) if (doc[root] !== undefined) doc[root] = visit(doc[root]);
  // A response's schema repeats the response's own description (the route layer writes both): the
  // response keeps it, the $ref goes bare.
  for (const ops of Object.values(
    (doc.paths ?? {}) as Record<
      string,
      Record<string, { responses?: Record<string, { content?: Record<string, { schema?: JsonObject }> }> }>
    >,
  )) {
    for (const op of Object.values(ops)) {
      for (const response of Object.values(op.responses ?? {})) {
        for (const media of Object.values(response.content ?? {}))
          if (media.schema?.$ref) delete media.schema.description;
      }
    }
  }
}
