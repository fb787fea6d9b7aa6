// Checkout branding of a client: what payers see on the hosted page. One row per client; every field is
// optional and `null` clears it. Validation follows the specification (bad_color, bad_email with param).
import type { Tenant } from '../tenant.ts';
import type { Queryable } from '../../db/db.ts';
import type { Deps } from '../../deps.ts';
import { invalidate } from '../../infra/cache.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { checkEmail, URL_MAX } from '../addresses.ts';

export interface Branding {
  display_name: string | null;
  logo_url: string | null;
  brand_color: string | null;
  support_email: string | null;
}

export type BrandingPatch = Partial<Record<keyof Branding, unknown>>;

export const DISPLAY_NAME_MAX = 100;
const COLOR_RE = /^#[0-9A-Fa-f]{6}$/;
const EMPTY: Branding = { display_name: null, logo_url: null, brand_color: null, support_email: null };

export async function getBranding(db: Queryable, clientId: number): Promise<Branding> {
  const r = await db.query<Branding>(
    'SELECT display_name, logo_url, brand_color, support_email FROM branding WHERE client_id = $1',
    [clientId],
  );
  return r.rows[0] ?? { ...EMPTY };
}

function checkDisplayName(v: unknown): string {
  if (typeof v !== 'string') throw invalidParam('display_name', 'display_name must be a string');
  const s = v.trim();
  if (!s || [...s].length > DISPLAY_NAME_MAX)
    throw invalidParam('display_name', `display_name must be 1 to ${DISPLAY_NAME_MAX} characters`);
  return s;
}

/** The logo is loaded by payers' browsers from the merchant's host: https only, so the page stays secure. */
function checkLogoUrl(v: unknown): string {
  const bad = () => invalidParam('logo_url', `logo_url must be an https URL of at most ${URL_MAX} characters`);
  if (typeof v !== 'string' || v.length > URL_MAX) throw bad();
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw bad();
  }
  if (u.protocol !== 'https:' || u.username || u.password || !u.hostname) throw bad();
  return v;
}

function checkColor(v: unknown): string {
  if (typeof v !== 'string' || !COLOR_RE.test(v)) {
    throw new AppError('bad_color', 'brand_color must be a hex colour like #1A7F5A', { param: 'brand_color' });
  }
  return v;
}

const CHECKS: Record<keyof Branding, (v: unknown) => string> = {
  display_name: checkDisplayName,
  logo_url: checkLogoUrl,
  brand_color: checkColor,
  support_email: (v) => checkEmail(v, 'support_email'),
};

export async function updateBranding(
  deps: Pick<Deps, 'db' | 'caches'>,
  tenant: Tenant,
  patch: BrandingPatch,
): Promise<Branding> {
  const { clientId } = tenant;
  const values: Partial<Branding> = {};
  for (const field of Object.keys(CHECKS) as (keyof Branding)[]) {
    const v = patch[field];
    if (v === undefined) continue;
    values[field] = v === null ? null : CHECKS[field](v);
  }
  const cols = Object.keys(values) as (keyof Branding)[];
  if (!cols.length) return getBranding(deps.db, clientId);
  const params: unknown[] = [clientId, ...cols.map((c) => values[c])];
  return deps.db.tx(async (tx) => {
    const r = await tx.query<Branding>(
      `INSERT INTO branding (client_id, ${cols.join(', ')}) VALUES ($1, ${cols.map((_, i) => `$${i + 2}`).join(', ')})
       ON CONFLICT (client_id) DO UPDATE SET ${cols.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()
       RETURNING display_name, logo_url, brand_color, support_email`,
      params,
    );
    await invalidate(tx, `merchant:${clientId}`, deps.caches);
    return r.rows[0];
  });
}

export type PublicMerchant = Branding & { display_name: string };

/**
 * What the public checkout shows of a merchant: branding, with the client's registered name as the
 * display name when none is set. Never the client id, its keys or the account's e-mail.
 */
export function toPublicMerchant(row: (Partial<Branding> & { name?: string | null }) | undefined): PublicMerchant {
  return {
    display_name: row?.display_name ?? row?.name ?? '',
    logo_url: row?.logo_url ?? null,
    brand_color: row?.brand_color ?? null,
    support_email: row?.support_email ?? null,
  };
}

/**
 * The merchant as the checkout shows it. Cached per client (every opening of a checkout shows it, and it
 * changes only through PATCH /me/branding, which evicts it in every instance).
 */
export async function publicMerchant(deps: Pick<Deps, 'db' | 'caches'>, clientId: number): Promise<PublicMerchant> {
  const key = String(clientId);
  const cached = deps.caches.merchants.get(key) as PublicMerchant | undefined;
  if (cached) return cached;
  const readAt = deps.caches.merchants.generation;
  const r = await deps.db.query<Branding & { name: string }>(
    `SELECT c.name, b.display_name, b.logo_url, b.brand_color, b.support_email
       FROM clients c LEFT JOIN branding b ON b.client_id = c.id WHERE c.id = $1`,
    [clientId],
  );
  const merchant = toPublicMerchant(r.rows[0]);
  deps.caches.merchants.set(key, merchant, readAt);
  return merchant;
}
