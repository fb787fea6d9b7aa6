// Route schemas are compiled when a route first needs them, not at start-up. Compiling every route's
// validators (Ajv) and serializers (fast-json-stringify) was ~0.5 s of a ~2.5 s start and kept code for
// routes an installation may never call (the bench's start-up profile, docs/performance.md). The first
// request of a route pays its compilation once (a few milliseconds); later ones run the compiled function.
//
// A schema that cannot compile would now fail at its first request instead of at start-up, so every
// deferred compilation is also kept here and test/foundation/schemas-compile.test.ts compiles them all.
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { flattenNullable } from './serializer-schema.ts';

// `any`: Ajv types its second argument (the parent data), which Fastify passes through.
type Validator = ((data: unknown, ctx?: any) => unknown) & { errors?: unknown; schemaEnv?: unknown };

const pending = new Set<() => unknown>();

/** Compiles every schema not compiled yet; throws the first compilation error. */
export function compileAllPending(): number {
  const all = [...pending];
  for (const compile of all) compile();
  return all.length;
}

function once<T>(build: () => T): () => T {
  let built: T | undefined;
  const get = () => {
    if (built === undefined) {
      built = build();
      pending.delete(get);
    }
    return built;
  };
  pending.add(get);
  return get;
}

/**
 * A validator compiler that compiles on first use. Fastify reads `errors` after a failed call and passes
 * Ajv's parent data (so a root value can be coerced) when the function has `schemaEnv`: both are kept.
 */
export function lazyValidatorCompiler<O>(compile: (opts: O) => Validator): (opts: O) => Validator {
  return (opts) => {
    const get = once(() => compile(opts));
    const validate: Validator = (data, ctx) => {
      const fn = get();
      const ok = fn(data, ctx);
      validate.errors = fn.errors;
      return ok;
    };
    validate.schemaEnv = true;
    return validate;
  };
}

/**
 * Fastify's own serializer factory (fast-json-stringify, shared schemas included), compiling on first use,
 * with nullable values in the form it serializes without Ajv (serializer-schema.ts).
 */
export function lazySerializerFactory(
  externalSchemas?: unknown,
  options?: SerializerSelector.Options,
): SerializerSelector.SerializerCompiler {
  const compile = SerializerSelector()(externalSchemas, options);
  return (opts) => {
    const get = once(() => compile({ ...opts, schema: flattenNullable(opts.schema) }));
    return (data) => get()(data);
  };
}
