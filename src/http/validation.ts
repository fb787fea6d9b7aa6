// Two validators: request bodies are never coerced (a string "5000" is not an amount), while query
// strings, path parameters and headers arrive as text and are coerced to their declared types.
// Unknown fields are rejected, never silently removed.
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { lazyValidatorCompiler } from './lazy-schemas.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const base: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };
const bodyAjv = addFormats(new Ajv({ ...base, coerceTypes: false }));
const textAjv = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));

// Compiled at a route's first request (lazy-schemas.ts).
export const validatorCompiler = lazyValidatorCompiler<Parameters<FastifySchemaCompiler<unknown>>[0]>(
  ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : textAjv;
    return ajv.compile(schema as object) as never;
  },
);

/** Deeper than any request of the API needs; deep enough nesting would overflow recursive JSON code. */
export const MAX_DEPTH = 32;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first text in a parsed request part that Tolem could not store or handle, with where it is (dotted
 * path) and why: a NUL character or a lone surrogate (PostgreSQL text and jsonb refuse both, and only at
 * the first write, as a 500), or nesting deeper than MAX_DEPTH. Iterative, so no input overflows the stack.
 */
export function badTextAt(value: unknown): { path: string; why: string } | undefined {
  const stack: [unknown, string, number][] = [[value, '', 0]];
  const check = (s: string, path: string) =>
    s.includes('\u0000')
      ? { path, why: 'must not contain the NUL character (\\u0000)' }
      : LONE_SURROGATE.test(s)
        ? { path, why: 'must be well-formed Unicode (a lone surrogate)' }
        : undefined;
  while (stack.length) {
    const [v, path, depth] = stack.pop()!;
    if (typeof v === 'string') {
      const bad = check(v, path);
      if (bad) return bad;
    } else if (v && typeof v === 'object') {
      if (depth >= MAX_DEPTH) return { path, why: `nests deeper than ${MAX_DEPTH} levels` };
      for (const [k, child] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        const bad = check(k, at);
        if (bad) return bad;
        stack.push([child, at, depth + 1]);
      }
    }
  }
  return undefined;
}
