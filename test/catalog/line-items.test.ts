// Line items (decisions 27) on QR, invoice and link creation: the fields, their defaults, items filled
// from the catalog (what the item gives wins), the sum rule, old payloads, and a link's items carried to
// the QRs its checkout issues.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, idem, key, newMerchant } from '../helpers/factories.ts';
import { Browser, createLink } from '../links/helpers.ts';
import { newCatalogItem, v2 } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const line = (fields: object) => ({
  quantity: 1,
  unit_code: 796,
  ntin: null,
  gtin: null,
  vat_rate_bps: null,
  section_code: null,
  position_type: 'goods',
  catalog_item_id: null,
  ...fields,
});

const qr = (apiKey: string, payload: object) =>
  t.app.inject({ method: 'POST', url: '/v2/qr', headers: { ...key(apiKey), ...idem() }, payload });
const itemsOf = async (apiKey: string, opId: string, kind = 'qr') =>
  (await t.app.inject({ method: 'GET', url: `/v2/${kind}/${opId}`, headers: key(apiKey) })).json().items;

describe('line items', () => {
  it('an old payload ({name, price, quantity}) is taken as before and shown with the defaults', async () => {
    const m = await newMerchant(t.app);
    const res = await qr(m.testKey, { amount: 3000, items: [{ name: 'Пицца', price: 1000, quantity: 3 }] });
    expect(res.statusCode).toBe(201);
    expect(Object.keys(res.json()).sort()).toEqual(['deep_link', 'expires_at', 'operation_id', 'qr_token', 'status']);
    expect(await itemsOf(m.testKey, res.json().operation_id)).toEqual([
      line({ name: 'Пицца', price: 1000, quantity: 3 }),
    ]);
    // No items: null, as the payment has none.
    const bare = await qr(m.testKey, { amount: 100 });
    expect(await itemsOf(m.testKey, bare.json().operation_id)).toBeNull();
    // The sum rule stands.
    const off = await qr(m.testKey, { amount: 3001, items: [{ name: 'Пицца', price: 1000, quantity: 3 }] });
    expect(errorOf(off)).toMatchObject({ code: 'invalid_parameter', param: 'items' });
  });

  it('every field of a line, and its checks', async () => {
    const m = await newMerchant(t.app);
    const full = {
      name: 'Стрижка',
      price: 4000,
      quantity: 1,
      unit_code: 5114,
      ntin: '02000001234567',
      gtin: '4006381333931',
      vat_rate_bps: 0,
      section_code: 'A1',
      position_type: 'service',
    };
    const res = await qr(m.testKey, { amount: 4000, items: [full] });
    expect(res.statusCode).toBe(201);
    expect(await itemsOf(m.testKey, res.json().operation_id)).toEqual([line(full)]);
    const bad = async (item: object, param: string) => {
      const r = await qr(m.testKey, { amount: 100, items: [{ name: 'X', price: 100, ...item }] });
      expect(errorOf(r), JSON.stringify(item)).toMatchObject({ code: 'invalid_parameter', param });
    };
    await bad({ gtin: '4006381333932' }, 'items.0.gtin');
    await bad({ ntin: '123' }, 'items.0.ntin');
    await bad({ vat_rate_bps: -1 }, 'items.0.vat_rate_bps');
    await bad({ position_type: 'rent' }, 'items.0.position_type');
    const nameless = await qr(m.testKey, { amount: 100, items: [{ price: 100 }] });
    expect(errorOf(nameless)).toMatchObject({ code: 'invalid_parameter', param: 'items.0.name' });
    const priceless = await qr(m.testKey, { amount: 100, items: [{ name: 'X' }] });
    expect(errorOf(priceless)).toMatchObject({ code: 'invalid_parameter', param: 'items.0.price' });
  });

  it('catalog_item_id fills the line; what the item gives wins; archived and foreign items are refused', async () => {
    const m = await newMerchant(t.app);
    const milk = await newCatalogItem(t.app, m, {
      name: 'Молоко',
      price: 650,
      unit_code: 112,
      gtin: '4870204391510',
      vat_rate_bps: 1200,
      section_code: '2',
    });
    const res = await qr(m.testKey, {
      amount: 650 * 2 + 500,
      items: [
        { catalog_item_id: milk.id, quantity: 2 },
        { catalog_item_id: milk.id, price: 500, name: 'Молоко (акция)', gtin: null },
      ],
    });
    expect(res.statusCode).toBe(201);
    const fromCatalog = {
      unit_code: 112,
      gtin: '4870204391510',
      vat_rate_bps: 1200,
      section_code: '2',
      catalog_item_id: milk.id,
    };
    expect(await itemsOf(m.testKey, res.json().operation_id)).toEqual([
      line({ ...fromCatalog, name: 'Молоко', price: 650, quantity: 2 }),
      line({ ...fromCatalog, name: 'Молоко (акция)', price: 500, gtin: null }),
    ]);
    // The payment keeps its copy when the catalog changes.
    await v2(t.app, m, 'PATCH', `/v2/catalog/items/${milk.id}`, { price: 700 });
    expect((await itemsOf(m.testKey, res.json().operation_id))[0].price).toBe(650);

    await v2(t.app, m, 'DELETE', `/v2/catalog/items/${milk.id}`);
    const archived = await qr(m.testKey, { amount: 700, items: [{ catalog_item_id: milk.id }] });
    expect(errorOf(archived)).toMatchObject({ code: 'invalid_parameter', param: 'items.0.catalog_item_id' });
    const other = await newMerchant(t.app);
    const theirs = await newCatalogItem(t.app, other, { price: 100 });
    const foreign = await qr(m.testKey, { amount: 100, items: [{ catalog_item_id: theirs.id }] });
    expect(errorOf(foreign)).toMatchObject({ code: 'invalid_parameter', param: 'items.0.catalog_item_id' });
    const madeUp = await qr(m.testKey, { amount: 100, items: [{ catalog_item_id: 'ci_nothing' }] });
    expect(errorOf(madeUp)).toMatchObject({ code: 'invalid_parameter', param: 'items.0.catalog_item_id' });
  });

  it('invoices and the cabinet take items too', async () => {
    const m = await newMerchant(t.app);
    const tea = await newCatalogItem(t.app, m, { name: 'Чай', price: 450, position_type: 'goods' });
    const inv = await t.app.inject({
      method: 'POST',
      url: '/v2/invoices',
      headers: { ...key(m.testKey), ...idem() },
      payload: { phone: '+77012345678', amount: 900, items: [{ catalog_item_id: tea.id, quantity: 2 }] },
    });
    expect(inv.statusCode).toBe(201);
    expect(await itemsOf(m.testKey, inv.json().operation_id, 'invoices')).toEqual([
      line({ name: 'Чай', price: 450, quantity: 2, catalog_item_id: tea.id }),
    ]);
    const cab = await t.app.inject({
      method: 'POST',
      url: '/me/payments/create-qr?mode=test',
      headers: { ...bearer(m), ...idem() },
      payload: { amount: 450, items: [{ catalog_item_id: tea.id }] },
    });
    expect(cab.statusCode).toBe(201);
    expect(await itemsOf(m.testKey, cab.json().operation_id)).toEqual([
      line({ name: 'Чай', price: 450, catalog_item_id: tea.id }),
    ]);
  });

  it("a link's items are resolved when it is made and carried to every QR its checkout issues", async () => {
    const m = await newMerchant(t.app);
    const cake = await newCatalogItem(t.app, m, { name: 'Торт', price: 4000, section_code: '3' });
    const link = await createLink(t.app, m.testKey, {
      amount: 5000,
      allow_repeat: true,
      items: [{ catalog_item_id: cake.id }, { name: 'Доставка', price: 1000, position_type: 'service' }],
    });
    const expected = [
      line({ name: 'Торт', price: 4000, section_code: '3', catalog_item_id: cake.id }),
      line({ name: 'Доставка', price: 1000, position_type: 'service' }),
    ];
    expect(link.items).toEqual(expected);
    expect((await v2(t.app, m, 'GET', `/v2/payment-links/${link.token}`)).json().items).toEqual(expected);
    // Archived after the link was made: the link still sells what it was made with.
    await v2(t.app, m, 'DELETE', `/v2/catalog/items/${cake.id}`);
    for (const b of [new Browser(t.app), new Browser(t.app, '203.0.113.8')]) {
      const shown = (await b.get(`/v2/checkout/${link.token}`)).json().qr;
      expect(await itemsOf(m.testKey, shown.operation_id)).toEqual(expected);
    }
    const refreshed = await v2(t.app, m, 'POST', `/v2/payment-links/${link.token}/refresh-qr`, {});
    expect(await itemsOf(m.testKey, refreshed.json().qr.operation_id)).toEqual(expected);
    // A link's items follow the sum rule, and a link without items shows null.
    const off = await v2(t.app, m, 'POST', '/v2/payment-links', {
      amount: 5000,
      description: 'x',
      items: [{ name: 'a', price: 1 }],
    });
    expect(errorOf(off)).toMatchObject({ code: 'invalid_parameter', param: 'items' });
    expect((await createLink(t.app, m.testKey)).items).toBeNull();
  });
});
