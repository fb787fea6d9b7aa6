// A partner's analytics on the wire (decisions 21): a period's summary.
import { Type } from 'typebox';
import { Timestamp } from '../schemas.ts';

export const PartnerSummary = Type.Object(
  {
    period: Type.String(),
    from: Timestamp,
    to: Timestamp,
    clients_total: Type.Integer(),
    clients_new: Type.Integer(),
    clients_active: Type.Integer(),
    clients_paying: Type.Integer(),
    revenue_kzt: Type.Integer(),
    commissions_kzt: Type.Integer(),
    balance: Type.Object({ available_kzt: Type.Integer(), pending_kzt: Type.Integer() }),
  },
  { title: 'PartnerSummary' },
);
