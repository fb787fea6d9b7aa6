// Issue 38 item 5 on the partner side: the profile's `website` is an http(s) URL (400 invalid_parameter
// naming it otherwise), and a cursor of the partner cabinet's client list is refused by the integration
// API's client list (and the reverse): every cursor is bound to its own endpoint.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { callAs, errorOf, newAdmin, newMerchant, type Merchant } from '../helpers/factories.ts';

let t: TestApp;
let admin: Merchant;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await newAdmin(t.app, t.runtime.deps.db);
});
afterAll(() => t?.close());
const as = callAs(() => t.app);

describe('partner profile: website', () => {
  it('takes an http(s) URL', async () => {
    for (const website of ['https://agency.kz', 'http://agency.kz/about?x=1', 'https://xn--80aswg.xn--p1ai/']) {
      const m = await newMerchant(t.app);
      const reg = await as(m, 'POST', '/partner/auth/register', { company_name: 'Agency', website });
      expect(reg.statusCode, `${website}: ${reg.body}`).toBe(201);
      expect(reg.json().website).toBe(website);
    }
    // Spaces around it are dropped, as around the company name.
    const m = await newMerchant(t.app);
    expect(
      (await as(m, 'POST', '/partner/auth/register', { company_name: 'Agency', website: ' https://agency.kz ' })).json()
        .website,
    ).toBe('https://agency.kz');
  });

  it('refuses anything else with 400 invalid_parameter naming website, and stores nothing', async () => {
    for (const website of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'ftp://agency.kz',
      'agency.kz',
      'www.agency.kz',
      '//agency.kz',
      'https://',
      'mailto:a@agency.kz',
      'file:///etc/passwd',
      'https://user:pass@agency.kz',
      'https://agency .kz',
      '',
    ]) {
      const m = await newMerchant(t.app);
      const reg = await as(m, 'POST', '/partner/auth/register', { company_name: 'Agency', website });
      expect(reg.statusCode, website).toBe(400);
      expect(errorOf(reg), website).toMatchObject({ code: 'invalid_parameter', param: 'website' });
      expect((await as(m, 'GET', '/partner/me')).statusCode, website).toBe(404);
    }
  });
});

describe('cursors are bound to their endpoint', () => {
  it('a /partner/clients cursor is refused by /partner/v1/clients and the reverse', async () => {
    const m = await newMerchant(t.app);
    const reg = await as(m, 'POST', '/partner/auth/register', { company_name: 'Platform' });
    await as(admin, 'POST', `/admin/partners/${reg.json().id}/approve`);
    const pk = (await as(m, 'POST', '/partner/integration/api-keys', { mode: 'test' })).json().api_key;
    const api = (url: string, method = 'GET', payload?: object) =>
      t.app.inject({
        method: method as 'GET',
        url,
        headers: { 'x-partner-api-key': pk },
        ...(payload ? { payload } : {}),
      });
    for (let i = 0; i < 3; i++) {
      expect(
        (await api('/partner/v1/clients', 'POST', { external_id: `shop-${randomUUID()}`, name: `Shop ${i}` }))
          .statusCode,
      ).toBe(201);
    }
    const cabinet = (await as(m, 'GET', '/partner/clients?limit=1')).json();
    const integration = (await api('/partner/v1/clients?limit=1')).json();
    expect(cabinet.next_cursor).toBeTruthy();
    expect(integration.next_cursor).toBeTruthy();
    // Each list takes its own cursor.
    expect(
      (await as(m, 'GET', `/partner/clients?limit=1&cursor=${encodeURIComponent(cabinet.next_cursor)}`)).statusCode,
    ).toBe(200);
    expect(
      (await api(`/partner/v1/clients?limit=1&cursor=${encodeURIComponent(integration.next_cursor)}`)).statusCode,
    ).toBe(200);
    // And refuses the other's.
    const crossed = await api(`/partner/v1/clients?limit=1&cursor=${encodeURIComponent(cabinet.next_cursor)}`);
    expect(crossed.statusCode).toBe(400);
    expect(errorOf(crossed)).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
    const back = await as(m, 'GET', `/partner/clients?limit=1&cursor=${encodeURIComponent(integration.next_cursor)}`);
    expect(back.statusCode).toBe(400);
    expect(errorOf(back)).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
  });
});
