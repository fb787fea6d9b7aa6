// The document's named shapes: titled schemas become components, once, referred to from every use.
import { describe, expect, it } from 'vitest';
import { hoistNamedSchemas } from '../../src/http/openapi-document.ts';

const status = { title: 'State', type: 'string', enum: ['a', 'b'] };
const item = (description?: string) => ({
  title: 'Item',
  type: 'object',
  properties: { s: status },
  ...(description ? { description } : {}),
});

describe('hoistNamedSchemas', () => {
  it('moves titled schemas to components, nested ones too, and leaves the rest inline', () => {
    const doc: Record<string, any> = {
      paths: {
        '/x': {
          get: {
            responses: {
              200: { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: item() } } } },
            },
          },
        },
      },
    };
    hoistNamedSchemas(doc);
    expect(doc.paths['/x'].get.responses[200].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Item' },
    });
    expect(doc.components.schemas.Item).toEqual({
      title: 'Item',
      type: 'object',
      properties: { s: { $ref: '#/components/schemas/State' } },
    });
    expect(doc.components.schemas.State).toEqual(status);
  });

  it("keeps a use's description beside the reference, and drops it where the response says it already", () => {
    const doc: Record<string, any> = {
      paths: {
        '/x': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { a: item('the first'), b: item('the second') } },
                },
              },
            },
            responses: { 400: { description: 'bad', content: { 'application/json': { schema: item('bad') } } } },
          },
        },
      },
    };
    hoistNamedSchemas(doc);
    const props = doc.paths['/x'].post.requestBody.content['application/json'].schema.properties;
    expect(props.a).toEqual({ $ref: '#/components/schemas/Item', description: 'the first' });
    expect(props.b).toEqual({ $ref: '#/components/schemas/Item', description: 'the second' });
    expect(doc.paths['/x'].post.responses[400].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Item',
    });
    expect(doc.components.schemas.Item.description).toBeUndefined();
  });

  it('refuses two different shapes under one name', () => {
    const other = { title: 'Item', type: 'object', properties: { t: { type: 'string' } } };
    const doc = {
      paths: {
        '/x': {
          get: {
            responses: {
              200: { content: { 'application/json': { schema: { type: 'array', prefixItems: [item(), other] } } } },
            },
          },
        },
      },
    };
    expect(() => hoistNamedSchemas(doc)).toThrow(/two different schemas are titled Item/);
  });

  it('leaves examples, enums and a property called "title" alone', () => {
    const schema = { type: 'object', properties: { title: { type: 'string' } }, example: { title: 'Name' } };
    const doc: Record<string, any> = {
      paths: { '/x': { get: { responses: { 200: { content: { 'application/json': { schema } } } } } } },
    };
    hoistNamedSchemas(doc);
    expect(doc.paths['/x'].get.responses[200].content['application/json'].schema).toEqual(schema);
    expect(doc.components.schemas).toEqual({});
  });
});
