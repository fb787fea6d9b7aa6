// Two validators: request bodies are never coerced (a string "5000" is not an amount), while query
// strings, path parameters and headers arrive as text and are coerced to their declared types.
// Unknown fields are rejected, never silently removed.
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const base: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };
const bodyAjv = addFormats(new Ajv({ ...base, coerceTypes: false }));
const textAjv = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object) as never;
};

/**
 * Where a parsed request part holds a string with a NUL character: PostgreSQL text cannot store one, so
 * it would otherwise surface as a 500 at the first write. Iterative, so deep nesting cannot overflow the
 * stack. Returns the dotted path of the first one, or undefined.
 */
export function nulCharAt(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path;
    } else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (k.includes('\u0000')) return path ? `${path}.${k}` : k;
        stack.push([child, path ? `${path}.${k}` : k]);
      }
    }
  }
  return undefined;
}
