// A partner's withdrawal on the wire (decisions 21), and the bank details it is paid to.
import { Type } from 'typebox';
import { Nullable, NullableTimestamp, Timestamp } from '../schemas.ts';

const WITHDRAWAL_STATUSES = ['confirmation_required', 'processing', 'paid', 'rejected', 'cancelled'];

export const Withdrawal = Type.Object(
  {
    id: Type.Integer(),
    amount: Type.Integer(),
    status: Type.String({ enum: WITHDRAWAL_STATUSES }),
    code_expires_at: Nullable(Timestamp),
    attempts_left: Type.Integer(),
    reference: Nullable(Type.String()),
    reason: Nullable(Type.String()),
    paid_at: Nullable(Timestamp),
    created_at: Timestamp,
  },
  { title: 'Withdrawal' },
);

export const PartnerBank = Type.Object(
  {
    recipient_name: Nullable(Type.String()),
    bin: Nullable(Type.String()),
    iban: Nullable(Type.String({ description: 'masked' })),
    bik: Nullable(Type.String()),
    bank_name: Nullable(Type.String()),
    kbe: Nullable(Type.String()),
    updated_at: Nullable(Timestamp),
  },
  { title: 'PartnerBank' },
);

/** A withdrawal as the admin API shows it: whose it is, not the confirmation it went through. */
export const AdminWithdrawal = Type.Object(
  {
    id: Type.Integer(),
    partner_id: Type.Integer(),
    amount: Type.Integer(),
    status: Type.String({ enum: WITHDRAWAL_STATUSES }),
    reference: Nullable(Type.String()),
    reason: Nullable(Type.String()),
    paid_at: NullableTimestamp,
    created_at: Timestamp,
  },
  { title: 'AdminWithdrawal' },
);
export const AdminWithdrawalListItem = Type.Object(
  { ...AdminWithdrawal.properties, partner_name: Type.String({ description: "the partner's company name" }) },
  { title: 'AdminWithdrawalListItem' },
);
