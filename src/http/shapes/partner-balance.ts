// A partner's balance on the wire (decisions 21): available and pending tenge, and the ledger behind them.
import { Type } from 'typebox';
import { Nullable, Timestamp } from '../schemas.ts';
import { ENTRY_TYPES } from '../../domain/partners/ledger.ts';

export const PartnerBalance = Type.Object(
  { available_kzt: Type.Integer(), pending_kzt: Type.Integer(), updated_at: Nullable(Timestamp) },
  { title: 'PartnerBalance' },
);

export const BalanceTransaction = Type.Object(
  {
    id: Type.Integer(),
    type: Type.String({ enum: [...ENTRY_TYPES] }),
    amount: Type.Integer({ description: 'signed tenge' }),
    available_after: Type.Integer(),
    pending_after: Type.Integer(),
    ref: Nullable(Type.String()),
    created_at: Timestamp,
  },
  { title: 'BalanceTransaction' },
);
