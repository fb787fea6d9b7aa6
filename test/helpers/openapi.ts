// /openapi.json names its shapes (#/components/schemas/...); tests that look inside an operation's schema
// read it with the references put back in place.
type Json = unknown;

/** A copy of the document in which every local $ref is replaced by what it names (its siblings kept). */
export function inlineRefs<T>(doc: T): T {
  const root = doc as Record<string, unknown>;
  const resolve = (ref: string): Json =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json>((at, key) => (at as Record<string, Json>)[key.replace(/~1/g, '/').replace(/~0/g, '~')], root);
  const walk = (node: Json, depth: number): Json => {
    if (depth > 64) throw new Error('a $ref cycle in /openapi.json');
    if (Array.isArray(node)) return node.map((n) => walk(n, depth + 1));
    if (typeof node !== 'object' || node === null) return node;
    const { $ref, ...rest } = node as Record<string, Json>;
    const own = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, walk(v, depth + 1)]));
    if (typeof $ref !== 'string') return own;
    const target = resolve($ref);
    if (target === undefined) throw new Error(`unresolved $ref ${$ref}`);
    return { ...(walk(target, depth + 1) as object), ...own };
  };
  return walk(doc, 0) as T;
}

export async function inlinedDoc(app: {
  inject: (o: { method: 'GET'; url: string }) => Promise<{ json: () => unknown }>;
}): Promise<any> {
  return inlineRefs((await app.inject({ method: 'GET', url: '/openapi.json' })).json());
}
