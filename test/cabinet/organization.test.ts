// The organization's requisites (decisions 17): nulls until set, a whole-record PUT, and each bad
// requisite refused with its field named and nothing stored changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { callAs, errorOf, idsOf, newMerchant } from '../helpers/factories.ts';
import { makeSealer } from '../../src/secrets.ts';
import { resealOrganizationIbans } from '../../src/domain/organization/reseal.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const as = callAs(() => t.app);

// 990140001233: a BIN whose check digit is right (weights 1..11, sum mod 11 = 3).
const VALID = {
  legal_name: 'ТОО «Ромашка»',
  org_type: 'too',
  bin: '990140001233',
  legal_address: 'Алматы, пр. Абая 1',
  actual_address: null,
  director_name: 'Иванов И. И.',
  phone: '8 727 258 12 34',
  email: 'Office@Romashka.kz',
  kbe: '17',
  vat_payer: true,
  bank: { iban: 'KZ86 125K ZT50 0410 0100', bik: 'kcjbkzkx', bank_name: 'Bank' },
};

describe('/me/organization', () => {
  it('is all nulls until set; PUT stores it normalized and GET shows it', async () => {
    const m = await newMerchant(t.app);
    const empty = (await as(m, 'GET', '/me/organization')).json();
    expect(empty).toEqual({
      legal_name: null,
      org_type: null,
      bin: null,
      legal_address: null,
      actual_address: null,
      director_name: null,
      phone: null,
      email: null,
      kbe: null,
      vat_payer: null,
      bank: { iban: null, bik: null, bank_name: null },
      updated_at: null,
    });
    const put = await as(m, 'PUT', '/me/organization', VALID);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      bin: '990140001233',
      phone: '+77272581234',
      email: 'office@romashka.kz',
      kbe: '17',
      bank: { iban: 'KZ86125KZT5004100100', bik: 'KCJBKZKX', bank_name: 'Bank' },
    });
    expect((await as(m, 'GET', '/me/organization')).json()).toEqual(put.json());
  });

  it('PUT replaces the whole record: what is left out becomes null', async () => {
    const m = await newMerchant(t.app);
    await as(m, 'PUT', '/me/organization', VALID);
    const put = await as(m, 'PUT', '/me/organization', { legal_name: 'ИП Петров', org_type: 'ip' });
    expect(put.json()).toMatchObject({
      legal_name: 'ИП Петров',
      bin: null,
      bank: { iban: null, bik: null, bank_name: null },
    });
  });

  it(
    'a bad BIN, IBAN, BIK, Kbe, phone or e-mail is 400 naming the field, ' + 'and the stored record is unchanged',
    async () => {
      const m = await newMerchant(t.app);
      const stored = (await as(m, 'PUT', '/me/organization', VALID)).json();
      const cases: [object, string][] = [
        [{ bin: '990140001234' }, 'bin'],
        [{ bin: '12345' }, 'bin'],
        [{ bank: { ...VALID.bank, iban: 'KZ86125KZT5004100101' } }, 'bank.iban'],
        [{ bank: { ...VALID.bank, iban: 'DE89370400440532013000' } }, 'bank.iban'],
        [{ bank: { ...VALID.bank, bik: 'KCJ' } }, 'bank.bik'],
        [{ kbe: '99' }, 'kbe'],
        [{ phone: '123' }, 'phone'],
        [{ email: 'nobody' }, 'email'],
        [{ org_type: 'llc' }, 'org_type'],
        [{ surprise: 1 }, 'surprise'],
      ];
      for (const [change, param] of cases) {
        const res = await as(m, 'PUT', '/me/organization', { ...VALID, ...change });
        expect(res.statusCode, param).toBe(400);
        expect(errorOf(res), param).toMatchObject({ code: 'invalid_parameter', param });
      }
      expect((await as(m, 'GET', '/me/organization')).json()).toEqual(stored);
    },
  );

  it('each client sees its own; only owner and admin write', async () => {
    const a = await newMerchant(t.app);
    const b = await newMerchant(t.app);
    await as(a, 'PUT', '/me/organization', VALID);
    expect((await as(b, 'GET', '/me/organization')).json().legal_name).toBeNull();
  });
});

describe("the IBAN at rest (issue 38): sealed like the partner's bank details", () => {
  const IBAN = 'KZ86125KZT5004100100';
  const rowOf = async (clientId: number) =>
    (
      await t.runtime.deps.db.query<Record<string, string | null>>('SELECT * FROM organizations WHERE client_id = $1', [
        clientId,
      ])
    ).rows[0];

  it('the stored row holds it sealed only; the owner still reads it whole', async () => {
    const m = await newMerchant(t.app);
    await as(m, 'PUT', '/me/organization', VALID);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    const row = await rowOf(clientId);
    expect(JSON.stringify(row)).not.toContain(IBAN);
    expect(t.runtime.deps.secrets.sealer.open(row.bank_iban_sealed!)).toBe(IBAN);
    expect((await as(m, 'GET', '/me/organization')).json().bank).toEqual({
      iban: IBAN,
      bik: 'KCJBKZKX',
      bank_name: 'Bank',
    });
  });

  it(
    'one kept in clear before is sealed by `reseal`, and one sealed with ' + 'a previous APP_SECRET is re-sealed',
    async () => {
      const m = await newMerchant(t.app);
      await as(m, 'PUT', '/me/organization', VALID);
      const { clientId } = await idsOf(t.runtime.deps.db, m);
      const db = t.runtime.deps.db;
      // As an earlier version wrote it.
      await db.query('UPDATE organizations SET bank_iban = $2, bank_iban_sealed = NULL WHERE client_id = $1', [
        clientId,
        IBAN,
      ]);
      expect((await as(m, 'GET', '/me/organization')).json().bank.iban).toBe(IBAN);
      const current = t.runtime.deps.secrets.sealer;
      expect(await resealOrganizationIbans(db, current, clientId)).toEqual({ sealed: 1, resealed: 0 });
      let row = await rowOf(clientId);
      expect(JSON.stringify(row)).not.toContain(IBAN);
      expect(current.open(row.bank_iban_sealed!)).toBe(IBAN);

      // APP_SECRET rotated: 'old' is the previous key; after reseal the current one alone opens it.
      await db.query('UPDATE organizations SET bank_iban_sealed = $2 WHERE client_id = $1', [
        clientId,
        makeSealer('old-app-secret', []).seal(IBAN),
      ]);
      const rotated = makeSealer(t.config.appSecret!, ['old-app-secret']);
      expect(await resealOrganizationIbans(db, rotated, clientId)).toEqual({ sealed: 0, resealed: 1 });
      expect(await resealOrganizationIbans(db, rotated, clientId)).toEqual({ sealed: 0, resealed: 0 });
      row = await rowOf(clientId);
      expect(current.isCurrent(row.bank_iban_sealed!)).toBe(true);
      expect((await as(m, 'GET', '/me/organization')).json().bank.iban).toBe(IBAN);
    },
  );
});
