// Route schemas compile at a route's first request (src/http/lazy-schemas.ts), so a schema that cannot
// compile would no longer stop the start-up: this compiles every one of them, shows the deferral is real,
// and that validation and serialization through the deferred functions are what they were.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { idem, key, newMerchant } from '../helpers/factories.ts';
import { compileAllPending, lazySerializerFactory, lazyValidatorCompiler } from '../../src/http/lazy-schemas.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
}, 120_000);
afterAll(() => t?.close());

it('compiles every route schema (validators and serializers) when asked, once', async () => {
  const compiled = compileAllPending();
  // Every declared route has at least a response serializer; most have validators too.
  expect(compiled).toBeGreaterThan(t.routes.length);
  expect(compileAllPending()).toBe(0);
}, 120_000); // ~3 s alone, far longer beside a loaded test run

it('serves through the deferred functions: a bad query is a 400 in the envelope, a good one a 200', async () => {
  const m = await newMerchant(t.app);
  const bad = await t.app.inject({ method: 'GET', url: '/v2/payments?limit=abc', headers: key(m.testKey) });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().error.code, bad.body).toBe('invalid_limit');
  const body = await t.app.inject({
    method: 'POST',
    url: '/v2/qr',
    headers: { ...key(m.testKey), ...idem() },
    payload: { amount: '5000' },
  });
  expect(body.statusCode).toBe(400);
  expect(body.json().error.param).toBe('amount');
  const ok = await t.app.inject({ method: 'GET', url: '/v2/payments?limit=5', headers: key(m.testKey) });
  expect(ok.statusCode).toBe(200);
  expect(ok.json().data).toEqual([]);
});

it('a deferred serializer compiles at its first call and drops undeclared fields', () => {
  compileAllPending();
  const serialize = lazySerializerFactory()({
    schema: { type: 'object', properties: { a: { type: 'integer' } } },
    method: 'GET',
    url: '/x',
    httpStatus: '200',
  });
  expect(compileAllPending()).toBe(1); // it was pending
  expect(serialize({ a: 1, secret: 'x' })).toBe('{"a":1}');
});

it('a deferred validator reports its errors and keeps coercion of the parent data', () => {
  const ajv = new Ajv({ coerceTypes: 'array' });
  const compile = lazyValidatorCompiler((o: { schema: object }) => ajv.compile(o.schema));
  const validate = compile({ schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } });
  expect(validate.schemaEnv).toBeTruthy(); // Fastify passes Ajv the parent data because of it
  const data = { n: '5' };
  expect(validate(data)).toBe(true);
  expect(data.n).toBe(5);
  expect(validate({})).toBe(false);
  expect(validate.errors).toMatchObject([{ keyword: 'required' }]);
  expect(validate({ n: 1 })).toBe(true);
  expect(validate.errors).toBeNull();
});
