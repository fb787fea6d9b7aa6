// A fuzz of the documented interface: every operation of /openapi.json, called with a valid credential
// and inputs that break its own schema (wrong types, missing and unknown fields, oversized text, odd
// path ids and query values). None may answer 5xx (but the spec's 501 for logo upload), and every
// refusal is the error envelope with a request id. Bounded: a fixed set of variants an operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { newAdmin, newMerchant, type Merchant } from '../helpers/factories.ts';
import { inlineRefs } from '../helpers/openapi.ts';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  enum?: unknown[];
}
interface Operation {
  security?: Record<string, unknown>[];
  parameters?: { in: string; name: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

let t: TestApp;
let owner: Merchant;
let admin: Merchant;
beforeAll(async () => {
  t = await buildTestApp({ webhooksAllowPrivate: true });
  owner = await newMerchant(t.app);
  admin = await newAdmin(t.app, t.runtime.deps.db);
});
afterAll(() => t?.close());

// Operations whose success would take the fuzz's own credential away; they get only the broken variants.
const KEEPS_CREDENTIAL = new Set(['POST /me/api-key/regenerate']);

/** A value of another type than the schema declares. */
function wrongFor(s: Schema | undefined): unknown[] {
  const types = [s?.type, ...(s?.anyOf ?? []).map((x) => x.type)].flat().filter(Boolean);
  const out: unknown[] = [];
  if (!types.includes('string')) out.push('not-a-number');
  if (!types.includes('integer') && !types.includes('number')) out.push(12345);
  if (!types.includes('object')) out.push({ nested: { deeper: true } });
  if (!types.includes('array')) out.push([1, 'two']);
  if (types.includes('string')) out.push('x'.repeat(20_000), '\u0000nul', '');
  if (types.includes('integer')) out.push(1.5, -1, 2 ** 60);
  return out;
}

function bodies(op: Operation): unknown[] {
  const schema = op.requestBody?.content['application/json']?.schema;
  if (!schema) return [];
  const variants: unknown[] = [[], 'text', 7, null, { unknown_field_fuzz: 1 }];
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    for (const bad of wrongFor(prop).slice(0, 3)) variants.push({ [name]: bad });
  }
  return variants;
}

function credential(path: string, op: Operation): { headers: Record<string, string>; query: string } {
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
  if (schemes.includes('ApiKey'))
    return { headers: { 'x-api-key': owner.testKey, 'idempotency-key': crypto.randomUUID() }, query: '' };
  if (schemes.includes('BearerAuth')) {
    return {
      headers: {
        authorization: `Bearer ${path.startsWith('/admin') ? admin.access : owner.access}`,
        'idempotency-key': crypto.randomUUID(),
      },
      query: 'mode=test',
    };
  }
  return { headers: {}, query: '' };
}

const PATH_VALUES = ['x', '0', '-1', '9'.repeat(30), '%C3%A4', 'a'.repeat(600)];

function checkAnswer(res: LightMyRequestResponse, what: string): void {
  if (res.statusCode >= 500) {
    expect(
      res.statusCode === 501 && res.json().error?.code === 'logo_upload_disabled',
      `${what}: ${res.statusCode} ${res.body.slice(0, 300)}`,
    ).toBe(true);
  }
  if (res.statusCode >= 400 && res.statusCode !== 405 && String(res.headers['content-type']).includes('json')) {
    const body = res.json();
    const requestId =
      body.error?.request_id ?? (body.StatusCode !== undefined ? res.headers['x-request-id'] : undefined);
    expect(requestId, `${what}: ${res.body.slice(0, 300)}`).toBeTruthy();
  }
  expect(res.headers['x-request-id'], what).toBeTruthy();
}

describe('fuzzing every documented operation', () => {
  it('answers broken input with a 4xx envelope, never a 5xx', async () => {
    const doc = inlineRefs((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json());
    let calls = 0;
    for (const [path, ops] of Object.entries<Record<string, Operation>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const name = `${method.toUpperCase()} ${path}`;
        const base = credential(path, op);
        const urls = path.includes('{') ? PATH_VALUES.map((v) => path.replace(/\{[^}]+\}/g, v)) : [path];
        const queries = (op.parameters ?? [])
          .filter((p) => p.in === 'query' && p.name !== 'mode')
          .flatMap((p) => ['x', '-1', '', '9'.repeat(40)].map((v) => `${p.name}=${encodeURIComponent(v)}`));
        const send = async (url: string, query: string, payload?: unknown) => {
          const q = [base.query, query].filter(Boolean).join('&');
          const res = await t.app.inject({
            method: method.toUpperCase() as 'GET',
            url: q ? `${url}?${q}` : url,
            headers: { ...base.headers, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
            ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
          });
          calls++;
          checkAnswer(res, `${name} ${url}?${q} ${JSON.stringify(payload)?.slice(0, 80)}`);
        };
        for (const url of urls.slice(0, path.includes('{') ? PATH_VALUES.length : 1))
          await send(url, '', op.requestBody && !KEEPS_CREDENTIAL.has(name) ? {} : undefined);
        for (const query of queries.slice(0, 12)) await send(urls[0], query);
        for (const payload of bodies(op).slice(0, 24)) await send(urls[0], '', payload);
      }
    }
    expect(calls).toBeGreaterThan(800);
  }, 120_000);
});
