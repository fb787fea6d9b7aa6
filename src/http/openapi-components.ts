// Named component schemas for /openapi.json. A shape is named where it is declared, by a `title`
// (Type.Object(props, { title: 'Payment' })), so routes keep their inline TypeBox schemas (static types,
// validation, serialization unchanged) and only the document changes: every titled schema is moved to
// #/components/schemas/<title> and replaced by a $ref, so a generated client sees `Payment` once, not
// forty anonymous copies of it.

type Json = unknown;
type JsonObject = Record<string, Json>;

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
 * uses of one shape describe it differently (each error response says its reason). Two different schemas under one title throw:
 * that is a declaration bug, found when the document is first built (a test builds it).
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
