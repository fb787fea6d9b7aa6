// A partner's profile on the wire (decisions 21): what the partner cabinet shows of itself.
import { Type } from 'typebox';
import { Nullable, Timestamp } from '../schemas.ts';
import { PARTNER_STATUSES } from '../../domain/partners/profile.ts';

export const PartnerProfile = Type.Object(
  {
    id: Type.Integer(),
    company_name: Type.String(),
    website: Nullable(Type.String()),
    contact_phone: Nullable(Type.String()),
    status: Type.String({ enum: [...PARTNER_STATUSES] }),
    commission_rate_bps: Type.Integer(),
    messenger_linked: Type.Boolean({ description: "the calling user's messenger chat (withdrawal codes go there)" }),
    bank_details_set: Type.Boolean(),
    created_at: Timestamp,
  },
  { title: 'PartnerProfile' },
);

/** A partner as the admin API shows it (decisions 23): its client and status, no view of the caller. */
export const AdminPartner = Type.Object(
  {
    id: Type.Integer(),
    client_id: Type.Integer(),
    company_name: Type.String(),
    website: Nullable(Type.String()),
    contact_phone: Nullable(Type.String()),
    status: Type.String({ enum: [...PARTNER_STATUSES] }),
    commission_rate_bps: Type.Integer(),
    created_at: Timestamp,
  },
  { title: 'AdminPartner' },
);
