// /docs that work anywhere (#16 item 11): a relative server, so "Try it out" calls the host the page came
// from (127.0.0.1, a proxy's name); a getting-started text; the product's name and logo on the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { inlineRefs } from '../helpers/openapi.ts';

let t: TestApp;
let behindPrefix: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ publicBaseUrl: 'https://pay.example.kz' });
  behindPrefix = await buildTestApp({ publicBaseUrl: 'https://example.kz/payments/' });
});
afterAll(async () => {
  await t.close();
  await behindPrefix.close();
});

const docOf = async (app: TestApp) => (await app.app.inject({ method: 'GET', url: '/openapi.json' })).json();

describe('the API documentation', () => {
  it('names a relative server: no host is written into the document', async () => {
    expect((await docOf(t)).servers).toEqual([{ url: '/', description: 'this server' }]);
    expect((await docOf(behindPrefix)).servers).toEqual([{ url: '/payments', description: 'this server' }]);
    expect(JSON.stringify(await docOf(t))).not.toContain('pay.example.kz');
  });

  it('starts with a getting-started text', async () => {
    const { info } = await docOf(t);
    expect(info.title).toBe('Tolem API');
    expect(info.description).toContain('Getting started');
    expect(info.description).toContain('Idempotency-Key');
    expect(info.description).toContain('/v2/test/payments/{op_id}/pay');
  });

  it('the page carries the product name and its own logo', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Tolem API</title>');
    const init = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    const logo = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(init.body);
    expect(logo, 'the logo is inlined').not.toBeNull();
    expect(Buffer.from(logo![1], 'base64').toString()).toContain('aria-label="Tolem"');
  });
});

describe('a typed document (#16 item 12, in part)', () => {
  it('every operation has a unique operationId', async () => {
    const doc = await docOf(t);
    const ids = Object.values<Record<string, { operationId?: string }>>(doc.paths).flatMap((ops) =>
      Object.values(ops).map((op) => op.operationId),
    );
    expect(ids.length).toBeGreaterThan(60);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z]+[A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/v2/qr/{op_id}'].get.operationId).toBe('getV2QrByOpId');
    expect(doc.paths['/v1/qr/create'].post.operationId).toBe('postV1QrCreate');
  });

  it('error codes, journal event types and delivery event types are enums', async () => {
    const doc = inlineRefs(await docOf(t));
    const code =
      doc.paths['/me'].get.responses['401'].content['application/json'].schema.properties.error.properties.code;
    expect(code.enum).toEqual(
      expect.arrayContaining(['invalid_token', 'forbidden_role', 'payment_not_found', 'headers_too_large']),
    );
    const event =
      doc.paths['/v2/events'].get.responses['200'].content['application/json'].schema.properties.data.items.properties
        .type;
    expect(event.enum).toEqual(
      expect.arrayContaining(['payment.completed', 'payment_link.paid', 'webhook.delivery_failed']),
    );
    const delivery =
      doc.paths['/me/webhooks/{id}/deliveries'].get.responses['200'].content['application/json'].schema.properties.data
        .items.properties.event_type;
    expect(delivery.enum).toEqual([
      'payment.completed',
      'payment.cancelled',
      'payment.expired',
      'payment.refunded',
      'receipt.issued',
      'receipt.failed',
      'webhook.test',
    ]);
  });

  it('the CSV export, the reports, the poster and the metrics declare their real content types', async () => {
    const doc = await docOf(t);
    const types = (path: string) => Object.keys(doc.paths[path].get.responses['200'].content);
    expect(Object.keys(doc.paths['/me/payments/export'].get.responses['200'].content)).toEqual(['text/csv']);
    expect(types('/me/reports/payments.csv')).toEqual(['text/csv']);
    expect(types('/me/reports/payments.xlsx')).toEqual([
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);
    expect(types('/v2/payment-links/{token}/poster.pdf')).toEqual(['application/pdf']);
    expect(doc.paths['/me/reports/payments.xlsx'].get.responses['200'].content).toMatchObject({
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
        schema: { type: 'string', format: 'binary' },
      },
    });
    expect(Object.keys(doc.paths['/metrics'].get.responses['200'].content)).toEqual(['text/plain']);
  });
});

describe('named shapes (#16 item 12)', () => {
  it('the resources are components, referred to by name, and every reference resolves', async () => {
    const doc = await docOf(t);
    const schemas = doc.components.schemas;
    for (const name of [
      'Payment',
      'PaymentDetail',
      'PaymentStatus',
      'PaymentLink',
      'Webhook',
      'Delivery',
      'Event',
      'EventType',
      'Error',
      'ErrorCode',
      'Refund',
      'V1Error',
    ]) {
      expect(schemas[name], name).toBeDefined();
    }
    expect(doc.paths['/v2/payments'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PaymentList',
    });
    expect(schemas.PaymentList.properties.data.items).toEqual({ $ref: '#/components/schemas/Payment' });
    expect(schemas.Payment.properties.status).toEqual({ $ref: '#/components/schemas/PaymentStatus' });
    expect(doc.paths['/v2/qr'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/QrCreateRequest',
    });
    expect(doc.paths['/me'].get.responses['401'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    expect(doc.webhooks['payment.completed'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PaymentCompletedEvent',
    });
    expect(() => inlineRefs(doc)).not.toThrow();
    // One copy of each shape, not one an operation: about 2.4 kB an operation (its parameters, and its
    // responses by reference), so the bound grows with the API; a shape copied into every operation that
    // shows it would add kilobytes to each.
    const operations = Object.values(doc.paths as Record<string, object>).flatMap((p) =>
      Object.keys(p).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)),
    ).length;
    expect(JSON.stringify(doc).length).toBeLessThan(2_600 * operations);
  });
});

describe('405 declared where it happens (#16 item 12)', () => {
  it('every documented path answers an undeclared method with 405 and an Allow of its operations', async () => {
    const doc = await docOf(t);
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    let checked = 0;
    for (const [path, ops] of Object.entries<Record<string, { responses: Record<string, { description: string }> }>>(
      doc.paths,
    )) {
      const declared = methods.filter((m) => ops[m.toLowerCase()]);
      for (const m of declared)
        expect(ops[m.toLowerCase()].responses['405']?.description, `${m} ${path}`).toContain(declared.join(', '));
      const url = path.replace(/\{[^}]+\}/g, 'x1');
      // A method that no documented path matching this URL takes (/partner/clients/invite is also
      // /partner/clients/{id}, whose GET answers it).
      const served = (m: string) =>
        Object.entries<Record<string, unknown>>(doc.paths).some(
          ([p, o]) => o[m.toLowerCase()] && new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(url),
        );
      const other = methods.find((m) => !served(m));
      if (!other) continue;
      const res = await t.app.inject({ method: other as 'PUT', url });
      expect(res.statusCode, `${other} ${url}`).toBe(405);
      // A static path that a parameter path also matches (/me/team/invite and /me/team/{member_id}) allows
      // the methods of both: the router cannot tell "invite" from a member id.
      expect(String(res.headers.allow).split(', '), `${other} ${url}`).toEqual(expect.arrayContaining(declared));
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });
});

describe('request bodies as the app takes them', () => {
  it('a body of optional fields only may be left out; a body with required fields may not', async () => {
    const doc = await docOf(t);
    expect(doc.paths['/v2/invoices/{op_id}/cancel'].post.requestBody.required).toBe(false);
    expect(doc.paths['/me/notifications/read-all'].post.requestBody.required).toBe(false);
    expect(doc.paths['/me/api-key/regenerate'].post.requestBody.required).toBe(false);
    expect(doc.paths['/v2/qr'].post.requestBody.required).toBe(true);
  });

  it('415 is declared wherever a body is taken, but on v1 (which answers it as its 400)', async () => {
    const doc = await docOf(t);
    expect(doc.paths['/v2/qr'].post.responses['415'].content['application/json']).toBeDefined();
    expect(doc.paths['/me/webhooks'].post.responses['415']).toBeDefined();
    expect(doc.paths['/v1/qr/create'].post.responses['415']).toBeUndefined();
  });

  it('headers are named as the docs write them, and a client sending them so is served', async () => {
    const doc = await docOf(t);
    const names = (p: string) =>
      doc.paths[p].post.parameters
        .filter((x: { in: string }) => x.in === 'header')
        .map((x: { name: string }) => x.name);
    expect(names('/v2/qr')).toEqual(['X-Provider-Account', 'Idempotency-Key']);
    expect(JSON.stringify(doc)).not.toMatch(/"name":"idempotency-key"/);
  });

  it('"Try it out" sends valid requests: the body a sampler makes from each create\'s schema is accepted', async () => {
    const doc = inlineRefs(await docOf(t));
    // What Swagger UI fills in: a schema's first example, else its minimum, else a type's plain value.
    const sample = (s: Record<string, any>): unknown => {
      if (s.examples?.length) return s.examples[0];
      if (s.type === 'object')
        return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sample(v as object)]));
      if (s.type === 'array') return [sample(s.items)];
      if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 0;
      if (s.type === 'boolean') return true;
      return 'string';
    };
    const m = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Shop', email: `try-${Date.now()}@example.kz`, password: 'a long password' },
    });
    const key = m.json().api_keys.test;
    for (const url of ['/v2/qr', '/v2/invoices']) {
      const body = sample(doc.paths[url].post.requestBody.content['application/json'].schema) as Record<
        string,
        unknown
      >;
      delete body.comment; // free text: 'string' is a valid comment, and not the point here
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'x-api-key': key, 'idempotency-key': `try-${url}` },
        payload: body,
      });
      expect(res.statusCode, `${url} ${JSON.stringify(body)}: ${res.body}`).toBe(201);
    }
  });

  it('a bodiless action really takes no body, and a non-JSON one is 415', async () => {
    const m = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Shop', email: `docs-${Date.now()}@example.kz`, password: 'a long password' },
    });
    const access = m.json().access_token;
    const none = await t.app.inject({
      method: 'POST',
      url: '/me/notifications/read-all',
      headers: { authorization: `Bearer ${access}` },
    });
    expect(none.statusCode).toBe(200);
    const text = await t.app.inject({
      method: 'POST',
      url: '/me/notifications/read-all',
      headers: { authorization: `Bearer ${access}`, 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(text.statusCode).toBe(415);
  });
});
