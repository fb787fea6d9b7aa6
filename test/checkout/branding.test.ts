// GET/PATCH /me/branding and POST /me/branding/logo: validation codes with param, roles, and what the
// checkout shows of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, key, newMerchant, type Merchant } from '../helpers/factories.ts';
import { Browser, createLink } from '../links/helpers.ts';
import { newMember } from '../helpers/actors.ts';
import { api } from '../helpers/api.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const patch = (m: { access: string }, payload: unknown) => api(t.app, m).patch('/me/branding', { payload });
const branding = (m: Merchant) => api(t.app, m).get('/me/branding');

describe('/me/branding', () => {
  it('starts empty; PATCH sets, keeps untouched fields, and null clears', async () => {
    const m = await newMerchant(t.app);
    expect((await branding(m)).body).toEqual({
      display_name: null,
      logo_url: null,
      brand_color: null,
      support_email: null,
    });
    const full = {
      display_name: 'Алма Кофе',
      logo_url: 'https://cdn.alma.kz/logo.svg',
      brand_color: '#1a7f5A',
      support_email: 'help@alma.kz',
    };
    const res = await patch(m, full);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(full);
    expect((await patch(m, { brand_color: '#000000' })).body).toEqual({ ...full, brand_color: '#000000' });
    expect((await patch(m, { logo_url: null })).body).toEqual({ ...full, brand_color: '#000000', logo_url: null });
    expect((await branding(m)).body).toEqual({ ...full, brand_color: '#000000', logo_url: null });
  });

  it('validates: bad_color and bad_email with param, https-only logo, name length, unknown fields', async () => {
    const m = await newMerchant(t.app);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ brand_color: 'red' }, 'bad_color', 'brand_color'],
      [{ brand_color: '#12345' }, 'bad_color', 'brand_color'],
      [{ brand_color: '#1234567' }, 'bad_color', 'brand_color'],
      [{ brand_color: '#GGGGGG' }, 'bad_color', 'brand_color'],
      [{ brand_color: ' #123456' }, 'bad_color', 'brand_color'],
      [{ support_email: 'help.alma.kz' }, 'bad_email', 'support_email'],
      [{ support_email: 'help@' }, 'bad_email', 'support_email'],
      [{ support_email: '@alma.kz' }, 'bad_email', 'support_email'],
      [{ support_email: 'a b@alma.kz' }, 'bad_email', 'support_email'],
      [{ support_email: 'x@@alma.kz' }, 'bad_email', 'support_email'],
      [{ logo_url: 'http://cdn.alma.kz/logo.png' }, 'invalid_parameter', 'logo_url'],
      [{ logo_url: 'javascript:alert(1)' }, 'invalid_parameter', 'logo_url'],
      [{ logo_url: `https://cdn.alma.kz/${'a'.repeat(2084)}` }, 'invalid_parameter', 'logo_url'],
      [{ display_name: '' }, 'invalid_parameter', 'display_name'],
      [{ display_name: 'я'.repeat(101) }, 'invalid_parameter', 'display_name'],
      [{ display_name: 5 }, 'invalid_parameter', 'display_name'],
      [{ theme: 'dark' }, 'invalid_parameter', 'theme'],
    ];
    for (const [body, code, param] of cases) {
      const res = await patch(m, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(errorOf(res), JSON.stringify(body).slice(0, 60)).toMatchObject({ code, param });
    }
    expect((await patch(m, { display_name: 'я'.repeat(100) })).status).toBe(200);
    expect((await branding(m)).body.brand_color).toBeNull();
  });

  it('owner and admin change it; accountant, support and viewer read only (403 forbidden_role)', async () => {
    const m = await newMerchant(t.app);
    for (const role of ['admin', 'owner'] as const) {
      const who = role === 'owner' ? m : await newMember(t.app, m, role);
      expect((await patch(who, { display_name: role })).status).toBe(200);
    }
    for (const role of ['accountant', 'support', 'viewer'] as const) {
      const res = await patch(await newMember(t.app, m, role), { display_name: role });
      expect(res.status, role).toBe(403);
      expect(errorOf(res).code).toBe('forbidden_role');
      expect((await branding(m)).body.display_name).toBe('owner');
    }
  });

  it('POST /me/branding/logo is always 501 logo_upload_disabled', async () => {
    const m = await newMerchant(t.app);
    for (const [type, payload] of [
      ['application/json', '{}'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nPNG\r\n--x--\r\n',
      ],
      ['image/png', 'PNG'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/me/branding/logo',
        headers: { ...bearer(m), 'content-type': type },
        payload,
      });
      expect(res.statusCode, type).toBe(501);
      expect(errorOf(res)).toMatchObject({ code: 'logo_upload_disabled', type: 'not_implemented' });
    }
    expect((await t.app.inject({ method: 'POST', url: '/me/branding/logo' })).statusCode).toBe(401);
  });

  it('needs a JWT (an API key is not enough)', async () => {
    const m = await newMerchant(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/me/branding', headers: key(m.testKey) })).statusCode).toBe(401);
  });

  it('the checkout shows it; the registered name stands in for a missing display name', async () => {
    const m = await newMerchant(t.app, { name: 'ТОО Ромашка' });
    const link = await createLink(t.app, m.testKey);
    expect((await new Browser(t.app).get(`/v2/checkout/${link.token}`)).json().merchant).toEqual({
      display_name: 'ТОО Ромашка',
      logo_url: null,
      brand_color: null,
      support_email: null,
    });
    await patch(m, { display_name: 'Ромашка', support_email: 'care@romashka.kz' });
    expect((await new Browser(t.app).get(`/v2/checkout/${link.token}`)).json().merchant).toMatchObject({
      display_name: 'Ромашка',
      support_email: 'care@romashka.kz',
    });
  });
});
