// Shapes of the public checkout (decisions 15); the link and QR parts come from shapes/link.ts.
import { Type } from 'typebox';
import { Amount, Body, Nullable, NullableTimestamp, Timestamp } from '../schemas.ts';
import { STATUSES } from '../../domain/payments/state.ts';
import type { CheckoutState } from '../../domain/links/checkout.ts';
import { LinkStatus, QrView, toQrView } from '../shapes/link.ts';

export const Merchant = Type.Object({
  display_name: Type.String(),
  logo_url: Nullable(Type.String()),
  brand_color: Nullable(Type.String()),
  support_email: Nullable(Type.String()),
});

export const Checkout = Type.Object({
  token: Type.String(),
  amount: Amount,
  description: Type.String(),
  status: LinkStatus,
  allow_repeat: Type.Boolean(),
  email_required: Type.Boolean(),
  email_provided: Type.Boolean({ description: 'this visitor gave an e-mail' }),
  expires_at: Timestamp,
  success_url: Nullable(Type.String()),
  cancel_url: Nullable(Type.String()),
  livemode: Type.Boolean(),
  qr: Nullable(QrView),
  merchant: Merchant,
});

export const CheckoutStatus = Type.Object({
  status: Type.String({ enum: [...STATUSES, 'waiting'], description: '`waiting`: no QR was issued on the link yet' }),
  operation_id: Nullable(Type.String()),
  paid_at: NullableTimestamp,
  check_url: Nullable(
    Type.String({
      description:
        "the check page of the payment's fiscal receipt once issued (decisions 27); only when `op` names the QR",
    }),
  ),
});

export const EmailBody = Body({
  email: Type.String({ description: 'the payer e-mail (400 bad_email when not valid)' }),
});
export const SimulateBody = Body({ operation_id: Type.Optional(Type.String({ maxLength: 64 })) });

/** The public JSON of an opened checkout: link data, the QR, branding; nothing internal (no metadata). */
export async function toCheckout(s: CheckoutState) {
  const { link, merchant } = s;
  return {
    token: link.token,
    amount: link.amount,
    description: link.description,
    status: link.status,
    allow_repeat: link.allow_repeat,
    email_required: link.email_required,
    email_provided: Boolean(s.email),
    expires_at: link.expires_at,
    success_url: link.success_url,
    cancel_url: link.cancel_url,
    livemode: link.mode === 'live',
    qr: s.op ? await toQrView(s.op) : null,
    merchant: {
      display_name: merchant.display_name,
      logo_url: merchant.logo_url,
      brand_color: merchant.brand_color,
      support_email: merchant.support_email,
    },
  };
}
