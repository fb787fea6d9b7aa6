// What a link's printable poster shows (decisions 28). A poster hangs on a wall and is scanned by many payers,
// so only a link with `allow_repeat` gets one, and its QR is the link's public checkout page, never one
// payment's QR token: a payment's QR expires within minutes and is paid once, while the checkout page issues a
// fresh QR to each payer for as long as the link is active.
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { publicMerchant } from '../branding/branding.ts';
import { fetchLogo } from '../branding/logo.ts';
import type { Tenant } from '../tenant.ts';
import { findLink, linkUrl } from './links.ts';

export interface Poster {
  merchantName: string;
  brandColor: string | null;
  logo: Buffer | null;
  amount: number;
  description: string;
  url: string;
  createdAt: Date;
}

export async function linkPoster(
  deps: Pick<Deps, 'db' | 'caches' | 'config'>,
  tenant: Tenant,
  token: string,
): Promise<Poster> {
  const link = await findLink(deps.db, tenant, token);
  if (!link.allow_repeat) {
    throw new AppError(
      'payment_link_not_repeatable',
      'a poster is scanned by many payers: only a link with allow_repeat gets one',
    );
  }
  if (link.status !== 'active') throw new AppError('payment_link_not_active', `the link is ${link.status}`);
  const merchant = await publicMerchant(deps, link.client_id);
  return {
    merchantName: merchant.display_name,
    brandColor: merchant.brand_color,
    logo: await fetchLogo(merchant.logo_url, deps.config.webhooksAllowPrivate),
    amount: link.amount,
    description: link.description,
    url: linkUrl(deps.config.publicBaseUrl, link.token),
    createdAt: link.created_at,
  };
}
