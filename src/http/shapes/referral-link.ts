// A partner's referral link on the wire (decisions 21): its public /r/{code} and what it brought.
import { Type } from 'typebox';
import { Nullable, Timestamp } from '../schemas.ts';

export const ReferralLink = Type.Object(
  {
    id: Type.Integer(),
    code: Type.String(),
    url: Type.String({ description: 'the public /r/{code}' }),
    name: Nullable(Type.String()),
    is_active: Type.Boolean(),
    clicks: Type.Integer(),
    registrations: Type.Integer(),
    created_at: Timestamp,
  },
  { title: 'ReferralLink' },
);
