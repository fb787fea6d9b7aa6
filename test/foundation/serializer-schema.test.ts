// The serializer's form of nullable values (src/http/serializer-schema.ts): the same JSON as TypeBox's
// anyOf for every value a route can answer, the same TypeError for a value of neither type, and the
// route's own schema (what /openapi.json shows) left as it was.
import { expect, it } from 'vitest';
import fjs from 'fast-json-stringify';
import { Type } from 'typebox';
import { flattenNullable } from '../../src/http/serializer-schema.ts';
import { Page, Nullable, NullableTimestamp } from '../../src/http/schemas.ts';
import { PaymentItem } from '../../src/http/shapes/payment.ts';

const plain = (x: unknown) => JSON.parse(JSON.stringify(x));

it("writes a nullable primitive as a type list, keeps its keywords and the union's, and leaves the input alone", () => {
  const s = Type.Object({
    a: Nullable(Type.String({ maxLength: 5 })),
    t: NullableTimestamp,
    n: Type.Array(Nullable(Type.Integer()), { description: 'd' }),
  });
  const before = plain(s);
  const flat = flattenNullable(s) as any;
  expect(flat.properties.a).toEqual({ type: ['string', 'null'], maxLength: 5 });
  expect(flat.properties.t).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
  expect(flat.properties.n).toMatchObject({ type: 'array', description: 'd', items: { type: ['integer', 'null'] } });
  expect(plain(s)).toEqual(before);
});

it('leaves unions it cannot write as a type list: two values, a nullable object, a nullable reference', () => {
  for (const s of [
    Type.Union([Type.String(), Type.Integer()]),
    Nullable(Type.Object({ x: Type.String() })),
    { anyOf: [{ $ref: 'Thing' }, { type: 'null' }] },
    { anyOf: [{ type: 'string', const: 'x' }, { type: 'null' }] },
    Type.Union([Type.String(), Type.Null(), Type.Integer()]),
  ])
    expect(plain(flattenNullable(s))).toEqual(plain(s));
  const inObject = Type.Object({ o: Nullable(Type.Object({ x: Nullable(Type.String()) })) });
  // The object's own union stays; what is inside it is still flattened.
  expect((flattenNullable(inObject) as any).properties.o.anyOf[0].properties.x.type).toEqual(['string', 'null']);
});

it('serializes a payments page exactly as the anyOf form does, nulls, strings, dates and escapes alike', () => {
  const schema = Page(PaymentItem);
  const viaAnyOf = fjs(schema as object);
  const viaList = fjs(flattenNullable(schema) as object);
  const at = new Date('2026-11-26T03:17:21.904Z');
  const item = (i: number) => ({
    operation_id: `op_${i}`,
    type: 'qr',
    status: 'paid',
    amount: 1000,
    refunded_amount: 0,
    provider_account_id: 1,
    source: 'api',
    livemode: false,
    comment: i % 2 ? null : 'a "quoted" \\ comment\n',
    phone: i % 3 ? null : '+77001234567',
    sender_name: i % 2 ? 'Aru' : null,
    transaction_id: null,
    link_token: i % 2 ? 'lnk_x' : null,
    created_at: at,
    paid_at: i % 2 ? at : null,
    expires_at: at.toISOString(),
  });
  for (const page of [
    { data: [0, 1, 2, 3, 4, 5].map(item), next_cursor: 'abc.def', has_more: true },
    { data: [], next_cursor: null, has_more: false },
  ]) {
    expect(viaList(page)).toBe(viaAnyOf(page));
    expect(JSON.parse(viaList(page))).toEqual(plain(page));
  }
  // A value of neither type is an error in both forms, not something written silently.
  const bad = { data: [{ ...item(1), comment: 42 }], next_cursor: null, has_more: false };
  expect(() => viaAnyOf(bad)).toThrow(TypeError);
  expect(() => viaList(bad)).toThrow(TypeError);
});
