// A counter on the wire (decisions 28): a till of a trade point and the provider account its QRs go to.
import { Type } from 'typebox';
import type { Counter } from '../../domain/payments/counters.ts';
import { Timestamp } from '../schemas.ts';

export const CounterName = Type.String({ minLength: 1, maxLength: 100 });

export const CounterRecord = Type.Object(
  {
    id: Type.String({ description: 'ct_<ULID>' }),
    name: CounterName,
    provider_account_id: Type.Integer({ description: "the client's provider account its QRs are made through" }),
    mode: Type.String({ enum: ['live', 'test'] }),
    created_at: Timestamp,
  },
  { title: 'Counter' },
);

export const toCounterRecord = (c: Counter) => ({
  id: c.id,
  name: c.name,
  provider_account_id: c.provider_account_id,
  mode: c.mode,
  created_at: c.created_at,
});
