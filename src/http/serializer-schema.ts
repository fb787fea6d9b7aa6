// The response schema as the serializer compiles it. TypeBox writes a nullable value as
// `anyOf: [{ type: 'string' }, { type: 'null' }]`, and fast-json-stringify serializes an anyOf by asking
// Ajv which branch each value matches (one or two validator calls per value: 240 on a payments page of
// 20). The same schema written `type: ['string', 'null']` is serialized by a typeof check, and a value
// that is neither still throws. Only the compiled serializer sees this form; the route's schema, and so
// /openapi.json and the validators, keep TypeBox's.
type Schema = Record<string, unknown>;

const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean']);
// Keywords whose value is one schema, a list of schemas, or a map of names to schemas.
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else'];
const MANY = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions'];

const isSchema = (x: unknown): x is Schema => typeof x === 'object' && x !== null && !Array.isArray(x);

/** `{ anyOf: [X, { type: 'null' }] }` with X one primitive type and nothing that needs Ajv: X, nullable. */
function nullableOf(s: Schema): Schema | undefined {
  const branches = s.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  const [value, nul] = branches as unknown[];
  if (!isSchema(value) || !isSchema(nul) || nul.type !== 'null' || Object.keys(nul).length !== 1) return undefined;
  if (typeof value.type !== 'string' || !PRIMITIVES.has(value.type)) return undefined;
  if (['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref', 'const'].some((k) => k in value)) return undefined;
  const { anyOf: _, ...siblings } = s;
  return { ...value, ...siblings, type: [value.type, 'null'] };
}

/** A copy of `schema` with every nullable primitive written as a type list; the input is not changed. */
export function flattenNullable(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const flat = nullableOf(schema);
  if (flat) return flat;
  let out: Schema | undefined;
  const set = (k: string, v: unknown) => {
    if (v === schema[k]) return;
    out ??= { ...schema };
    out[k] = v;
  };
  for (const k of ONE) if (isSchema(schema[k])) set(k, flattenNullable(schema[k]));
  for (const k of MANY) {
    const list = schema[k];
    if (!Array.isArray(list)) continue;
    const mapped = list.map(flattenNullable);
    if (mapped.some((m, i) => m !== list[i])) set(k, mapped);
  }
  for (const k of MAPS) {
    const map = schema[k];
    if (!isSchema(map)) continue;
    const entries = Object.entries(map).map(([n, v]) => [n, flattenNullable(v)] as const);
    if (entries.some(([n, v]) => v !== map[n])) set(k, Object.fromEntries(entries));
  }
  return out ?? schema;
}
