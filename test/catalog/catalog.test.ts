// The catalog (decisions 27) through HTTP: create, read, edit, archive, the name search and its pages,
// the codes' checks, roles, and isolation between tenants and modes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMember } from '../helpers/actors.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { errorOf, idem, newMerchant } from '../helpers/factories.ts';
import { newCatalogItem, v2 } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('catalog items', () => {
  it('create with defaults and codes, read, edit, clear a code, archive twice, restore', async () => {
    const m = await newMerchant(t.app);
    const plain = await newCatalogItem(t.app, m, { name: 'Круассан', price: 900 });
    expect(plain).toMatchObject({
      name: 'Круассан',
      price: 900,
      unit_code: 796,
      ntin: null,
      gtin: null,
      vat_rate_bps: null,
      section_code: null,
      position_type: 'goods',
      archived: false,
      livemode: false,
    });
    expect(plain.id).toMatch(/^ci_[0-9A-Z]{26}$/);
    const coded = await newCatalogItem(t.app, m, {
      name: 'Молоко 1 л',
      price: 650,
      unit_code: 112,
      gtin: '4870204391510',
      ntin: '0200000123456',
      vat_rate_bps: 1200,
      section_code: '2',
      position_type: 'goods',
    });
    expect(coded).toMatchObject({ unit_code: 112, gtin: '4870204391510', ntin: '0200000123456', vat_rate_bps: 1200 });
    expect((await v2(t.app, m, 'GET', `/v2/catalog/items/${coded.id}`)).json()).toEqual(coded);

    const patched = await v2(t.app, m, 'PATCH', `/v2/catalog/items/${coded.id}`, { price: 700, gtin: null });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ price: 700, gtin: null, ntin: '0200000123456', name: 'Молоко 1 л' });

    const archived = await v2(t.app, m, 'DELETE', `/v2/catalog/items/${coded.id}`);
    expect(archived.statusCode).toBe(200);
    expect(archived.json().archived).toBe(true);
    const again = await v2(t.app, m, 'DELETE', `/v2/catalog/items/${coded.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(archived.json());
    const restored = await v2(t.app, m, 'PATCH', `/v2/catalog/items/${coded.id}`, { archived: false });
    expect(restored.json().archived).toBe(false);
  });

  it('POST is idempotent by its key: the same answer, one item', async () => {
    const m = await newMerchant(t.app);
    const h = idem();
    const first = await v2(t.app, m, 'POST', '/v2/catalog/items', { name: 'Чай', price: 500 }, h);
    const second = await v2(t.app, m, 'POST', '/v2/catalog/items', { name: 'Чай', price: 500 }, h);
    expect(second.statusCode).toBe(201);
    expect(second.json().id).toBe(first.json().id);
    expect((await v2(t.app, m, 'GET', '/v2/catalog/items')).json().data).toHaveLength(1);
  });

  it('search by any part of the name in any case, the archived filter, and cursor pages', async () => {
    const m = await newMerchant(t.app);
    const latte = await newCatalogItem(t.app, m, { name: 'Кофе Латте' });
    const capp = await newCatalogItem(t.app, m, { name: 'Капучино (кофе)' });
    const tea = await newCatalogItem(t.app, m, { name: 'Чай 100%' });
    await v2(t.app, m, 'DELETE', `/v2/catalog/items/${latte.id}`);
    const ids = async (q: string) =>
      (await v2(t.app, m, 'GET', `/v2/catalog/items${q}`)).json().data.map((i: { id: string }) => i.id);
    expect(await ids(`?q=${encodeURIComponent('КОФЕ')}`)).toEqual([capp.id, latte.id]);
    expect(await ids(`?q=${encodeURIComponent('кофе')}&archived=false`)).toEqual([capp.id]);
    expect(await ids('?archived=true')).toEqual([latte.id]);
    // % and _ are the text itself, not patterns.
    expect(await ids(`?q=${encodeURIComponent('%')}`)).toEqual([tea.id]);
    expect(await ids(`?q=${encodeURIComponent('_')}`)).toEqual([]);

    const first = (await v2(t.app, m, 'GET', '/v2/catalog/items?limit=2')).json();
    expect(first.data.map((i: { id: string }) => i.id)).toEqual([tea.id, capp.id]);
    expect(first.has_more).toBe(true);
    const next = (await v2(t.app, m, 'GET', `/v2/catalog/items?limit=2&cursor=${first.next_cursor}`)).json();
    expect(next.data.map((i: { id: string }) => i.id)).toEqual([latte.id]);
    expect(next.has_more).toBe(false);
    // A cursor is bound to its filters, and a page is at most 100.
    const moved = await v2(t.app, m, 'GET', `/v2/catalog/items?limit=2&q=x&cursor=${first.next_cursor}`);
    expect(errorOf(moved).code).toBe('invalid_cursor');
    expect(errorOf(await v2(t.app, m, 'GET', '/v2/catalog/items?limit=101')).code).toBe('limit_too_large');
  });

  it('refuses bad codes and fields with 400 invalid_parameter naming the field', async () => {
    const m = await newMerchant(t.app);
    const bad = async (body: object, param: string) => {
      const res = await v2(t.app, m, 'POST', '/v2/catalog/items', { name: 'X', price: 100, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(res), JSON.stringify(body)).toMatchObject({ code: 'invalid_parameter', param });
    };
    await bad({ gtin: '4006381333932' }, 'gtin'); // wrong check digit
    await bad({ gtin: '400638133393' }, 'gtin'); // 12 digits, wrong check digit for UPC-A
    await bad({ gtin: '1234567890' }, 'gtin'); // 10 digits: no GTIN has that length
    await bad({ gtin: '40063813339a1' }, 'gtin');
    await bad({ ntin: '02000001234' }, 'ntin');
    await bad({ ntin: '020000012345X' }, 'ntin');
    await bad({ vat_rate_bps: 10001 }, 'vat_rate_bps');
    await bad({ unit_code: 0 }, 'unit_code');
    await bad({ position_type: 'rent' }, 'position_type');
    await bad({ name: '   ' }, 'name');
    await bad({ name: 'я'.repeat(129) }, 'name');
    await bad({ price: 0 }, 'price');
    await bad({ section_code: 'x'.repeat(33) }, 'section_code');
    // Every GTIN length with a right check digit is taken.
    for (const gtin of ['96385074', '036000291452', '4006381333931', '10012345678902'])
      expect((await v2(t.app, m, 'POST', '/v2/catalog/items', { name: 'G', price: 1, gtin })).statusCode).toBe(201);
    const item = await newCatalogItem(t.app, m);
    const patch = await v2(t.app, m, 'PATCH', `/v2/catalog/items/${item.id}`, { gtin: '4006381333932' });
    expect(errorOf(patch)).toMatchObject({ code: 'invalid_parameter', param: 'gtin' });
  });

  it('roles: everyone reads, only owner and admin write; the API key writes', async () => {
    const m = await newMerchant(t.app);
    const item = await newCatalogItem(t.app, m);
    const admin = await newMember(t.app, m, 'admin');
    expect((await newCatalogItem(t.app, admin, { name: 'by admin' })).name).toBe('by admin');
    for (const role of ['viewer', 'accountant', 'support'] as const) {
      const member = await newMember(t.app, m, role);
      expect((await v2(t.app, member, 'GET', '/v2/catalog/items')).statusCode, role).toBe(200);
      expect((await v2(t.app, member, 'GET', `/v2/catalog/items/${item.id}`)).statusCode, role).toBe(200);
      for (const [method, url, body] of [
        ['POST', '/v2/catalog/items', { name: 'no', price: 1 }],
        ['PATCH', `/v2/catalog/items/${item.id}`, { price: 2 }],
        ['DELETE', `/v2/catalog/items/${item.id}`, undefined],
      ] as const) {
        const res = await v2(t.app, member, method, url, body, idem());
        expect(errorOf(res).code, `${role} ${method}`).toBe('forbidden_role');
      }
    }
    expect((await v2(t.app, m, 'GET', `/v2/catalog/items/${item.id}`)).json().price).toBe(1500);
  });

  it("another tenant's item, or the other mode's, is 404 for every route", async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    const item = await newCatalogItem(t.app, m);
    for (const [method, body] of [['GET'], ['PATCH', { price: 1 }], ['DELETE']] as const) {
      const res = await v2(t.app, other, method, `/v2/catalog/items/${item.id}`, body);
      expect(errorOf(res).code, method).toBe('catalog_item_not_found');
      expect(res.statusCode).toBe(404);
    }
    expect((await v2(t.app, other, 'GET', '/v2/catalog/items')).json().data).toEqual([]);
    // The owner's JWT without ?mode=test is live mode: the test-mode item is not there.
    const live = await t.app.inject({
      method: 'GET',
      url: `/v2/catalog/items/${item.id}`,
      headers: { authorization: `Bearer ${m.access}` },
    });
    expect(live.statusCode).toBe(404);
    expect(errorOf(await v2(t.app, m, 'GET', '/v2/catalog/items/not-an-id')).code).toBe('catalog_item_not_found');
    // Unchanged by the attempts.
    expect((await v2(t.app, m, 'GET', `/v2/catalog/items/${item.id}`)).json()).toMatchObject({ price: 1500 });
  });
});
