// The client's legal details (decisions 17): one record, nulls until set; PUT replaces it whole. Every
// field is checked before anything is written, and a refusal names the field. The IBAN is sealed at rest
// with APP_SECRET like the partner's bank details (issue 38); the owner's answers show it whole, since
// the next PUT sends the record back. The BIK and bank name name a bank, not an account: kept plain.
import type { Queryable } from '../../db/db.ts';
import type { Tenant } from '../tenant.ts';
import type { Deps, DbSecretsDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { checkBik, checkBin, checkIban, checkKbe, checkPhone, type Checked } from './requisites.ts';

export const ORG_TYPES = ['ip', 'too', 'ao', 'other'] as const;

export interface OrganizationInput {
  legal_name?: string | null;
  /** one of ORG_TYPES (the route's schema checks it) */
  org_type?: string | null;
  bin?: string | null;
  legal_address?: string | null;
  actual_address?: string | null;
  director_name?: string | null;
  phone?: string | null;
  email?: string | null;
  kbe?: string | null;
  vat_payer?: boolean | null;
  bank?: { iban?: string | null; bik?: string | null; bank_name?: string | null } | null;
}

export interface Organization {
  legal_name: string | null;
  org_type: string | null;
  bin: string | null;
  legal_address: string | null;
  actual_address: string | null;
  director_name: string | null;
  phone: string | null;
  email: string | null;
  kbe: string | null;
  vat_payer: boolean | null;
  bank: { iban: string | null; bik: string | null; bank_name: string | null };
  updated_at: Date | null;
}

interface Row {
  legal_name: string | null;
  org_type: string | null;
  bin: string | null;
  legal_address: string | null;
  actual_address: string | null;
  director_name: string | null;
  phone: string | null;
  email: string | null;
  kbe: string | null;
  vat_payer: boolean | null;
  /** written before sealing, until `reseal` seals it (reseal.ts); new writes leave it null */
  bank_iban: string | null;
  bank_iban_sealed: string | null;
  bank_bik: string | null;
  bank_name: string | null;
  updated_at: Date | null;
}

const EMPTY: Row = {
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
  bank_iban: null,
  bank_iban_sealed: null,
  bank_bik: null,
  bank_name: null,
  updated_at: null,
};

// A value in clear is the newer one when both are there: an older instance writes the clear column
// during a rolling upgrade and leaves the sealed one as it was.
const ibanOf = (deps: Pick<Deps, 'secrets'>, r: Row) =>
  r.bank_iban ?? (r.bank_iban_sealed === null ? null : deps.secrets.sealer.open(r.bank_iban_sealed));

const toOrganization = (deps: Pick<Deps, 'secrets'>, r: Row): Organization => ({
  legal_name: r.legal_name,
  org_type: r.org_type,
  bin: r.bin,
  legal_address: r.legal_address,
  actual_address: r.actual_address,
  director_name: r.director_name,
  phone: r.phone,
  email: r.email,
  kbe: r.kbe,
  vat_payer: r.vat_payer,
  bank: { iban: ibanOf(deps, r), bik: r.bank_bik, bank_name: r.bank_name },
  updated_at: r.updated_at,
});

export async function getOrganization(deps: DbSecretsDeps, tenant: Tenant): Promise<Organization> {
  const { clientId } = tenant;
  const r = await deps.db.query<Row>('SELECT * FROM organizations WHERE client_id = $1', [clientId]);
  return toOrganization(deps, r.rows[0] ?? EMPTY);
}

/** What a receipt prints of its seller (decisions 27): legal name, its form, BIN and address; null: unknown. */
export interface Seller {
  legal_name: string | null;
  org_type: string | null;
  bin: string | null;
  address: string | null;
}

/** The seller block of a client's receipts, read by the public check page (no secret field is read). */
export async function sellerOf(db: Queryable, clientId: number): Promise<Seller> {
  const r = await db.query<Seller>(
    `SELECT legal_name, org_type, bin, COALESCE(actual_address, legal_address) AS address
       FROM organizations WHERE client_id = $1`,
    [clientId],
  );
  return r.rows[0] ?? { legal_name: null, org_type: null, bin: null, address: null };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A field through its check: null stays null (cleared), a refusal is 400 naming the field. */
function checked(value: string | null | undefined, param: string, check: (v: string) => Checked): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const c = check(value);
  if (!c.ok) throw new AppError('invalid_parameter', `${param} ${c.why}`, { param });
  return c.value;
}

const sealed = (deps: Pick<Deps, 'secrets'>, v: string | null) => (v === null ? null : deps.secrets.sealer.seal(v));

const text = (v: string | null | undefined) => (v === undefined || v === null || v.trim() === '' ? null : v.trim());

export async function putOrganization(
  deps: DbSecretsDeps,
  tenant: Tenant,
  input: OrganizationInput,
): Promise<Organization> {
  const { clientId } = tenant;
  const row = {
    legal_name: text(input.legal_name),
    org_type: input.org_type ?? null,
    bin: checked(input.bin, 'bin', checkBin),
    legal_address: text(input.legal_address),
    actual_address: text(input.actual_address),
    director_name: text(input.director_name),
    phone: checked(input.phone, 'phone', checkPhone),
    email: checked(input.email, 'email', (v) =>
      EMAIL.test(v.trim())
        ? { ok: true, value: v.trim().toLowerCase() }
        : { ok: false, why: 'is not an e-mail address' },
    ),
    kbe: checked(input.kbe, 'kbe', checkKbe),
    vat_payer: input.vat_payer ?? null,
    bank_iban: null,
    bank_iban_sealed: sealed(deps, checked(input.bank?.iban, 'bank.iban', checkIban)),
    bank_bik: checked(input.bank?.bik, 'bank.bik', checkBik),
    bank_name: text(input.bank?.bank_name),
  };
  const cols = Object.keys(row);
  const r = await deps.db.query<Row>(
    `INSERT INTO organizations (client_id, ${cols.join(', ')}, updated_at)
     VALUES ($1, ${cols.map((_, i) => `$${i + 2}`).join(', ')}, now())
     ON CONFLICT (client_id) DO UPDATE SET ${cols.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()
     RETURNING *`,
    [clientId, ...Object.values(row)],
  );
  return toOrganization(deps, r.rows[0]);
}
