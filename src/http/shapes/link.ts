// The payment-link resource on the wire: the link record of the merchant API (decisions 9, plus
// livemode), the QR a link issues, and their mappers. Imported by v2, the checkout and the partner API.
import { Type } from 'typebox';
import { Amount, Body, Nullable, Timestamp } from '../schemas.ts';
import { LINK_STATUSES, linkUrl, type Link } from '../../domain/links/links.ts';
import type { ShownQr } from '../../domain/links/qr.ts';
import { qrSvg } from '../../web/qr-svg.ts';
import { ItemsInput, LineItems, toLineItems } from './line-item.ts';

export const LinkStatus = Type.String({ title: 'PaymentLinkStatus', enum: [...LINK_STATUSES] });

export const QrView = Type.Object(
  {
    operation_id: Type.String(),
    qr_token: Type.String({ description: 'content of the QR image' }),
    deep_link: Type.String({
      format: 'uri',
      description:
        "a page that opens this payment: Tolem's payer page /pay/{op_id} (live), the sandbox's payer page (test)",
    }),
    expires_at: Timestamp,
    svg: Type.String({ description: 'the QR as an inline SVG document' }),
  },
  { title: 'LinkQr' },
);

export const LinkRecord = Type.Object(
  {
    token: Type.String(),
    url: Type.String({ description: 'the hosted checkout page' }),
    amount: Amount,
    description: Type.String(),
    status: LinkStatus,
    success_url: Nullable(Type.String()),
    cancel_url: Nullable(Type.String()),
    expires_at: Timestamp,
    allow_repeat: Type.Boolean(),
    email_required: Type.Boolean(),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    items: LineItems,
    paid_count: Type.Integer(),
    livemode: Type.Boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'PaymentLink' },
);

export const LinkWithQr = Type.Object({ ...LinkRecord.properties, qr: QrView }, { title: 'PaymentLinkWithQr' });

export function toLinkRecord(link: Link, publicBaseUrl: string) {
  return {
    token: link.token,
    url: linkUrl(publicBaseUrl, link.token),
    amount: link.amount,
    description: link.description,
    status: link.status,
    success_url: link.success_url,
    cancel_url: link.cancel_url,
    expires_at: link.expires_at,
    allow_repeat: link.allow_repeat,
    email_required: link.email_required,
    metadata: link.metadata ?? {},
    items: toLineItems(link.items),
    paid_count: link.paid_count,
    livemode: link.mode === 'live',
    created_at: link.created_at,
    updated_at: link.updated_at,
  };
}

export async function toQrView(op: ShownQr) {
  return {
    operation_id: op.id,
    qr_token: op.qr_token!,
    deep_link: op.deep_link!,
    expires_at: op.expires_at,
    svg: await qrSvg(op.qr_token!),
  };
}

// The input of a new link: the v2 API's and the partner API's checkout.
export const Url = Type.String({ maxLength: 2083, description: 'https (http only for localhost)' });
export const Description = Type.String({ minLength: 1, maxLength: 500 });
export const ExpiresIn = Type.Integer({ minimum: 5, maximum: 43200, description: 'minutes from now' });

export const LinkCreateBody = Body({
  amount: Amount,
  description: Description,
  success_url: Type.Optional(Url),
  cancel_url: Type.Optional(Url),
  expires_in_minutes: Type.Optional(ExpiresIn),
  allow_repeat: Type.Optional(Type.Boolean({ default: false })),
  email_required: Type.Optional(Type.Boolean({ default: false })),
  metadata: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), { description: 'at most 50 keys, 4 KiB of JSON' }),
  ),
  items: Type.Optional(ItemsInput),
});

/** A payment link made by the partner API, with the client it is for. */
export const PartnerCheckoutLink = Type.Object(
  { ...LinkRecord.properties, client_ref: Type.String(), client_id: Type.Integer() },
  { title: 'PartnerCheckoutLink' },
);
