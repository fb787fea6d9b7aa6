// A partner's commission on a client's plan payment (decisions 21), listed alone and in a client's detail.
import { Type } from 'typebox';
import { Timestamp } from '../schemas.ts';
import { COMMISSION_STATUSES } from '../../domain/partners/commissions.ts';
import { PLANS } from '../../domain/plans.ts';

export const Commission = Type.Object(
  {
    id: Type.Integer(),
    client_id: Type.Integer(),
    client_name: Type.String(),
    operation_id: Type.String(),
    plan: Type.String({ enum: [...PLANS] }),
    base_amount: Type.Integer(),
    rate_bps: Type.Integer(),
    amount: Type.Integer(),
    status: Type.String({ enum: [...COMMISSION_STATUSES] }),
    available_at: Timestamp,
    created_at: Timestamp,
  },
  { title: 'Commission' },
);
