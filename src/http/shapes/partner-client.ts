// A partner's client on the wire: the cabinet's list item and detail (decisions 21); the partner API
// (decisions 22) builds its own client on the list item.
import { Type } from 'typebox';
import { Nullable, Timestamp } from '../schemas.ts';
import { CLIENT_STATUSES } from '../../domain/partners/clients.ts';
import { PLANS } from '../../domain/plans.ts';
import { Commission } from './commission.ts';
import { PaymentItem } from './payment.ts';

export const ClientItem = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    external_id: Nullable(Type.String()),
    origin: Type.String({ enum: ['referral', 'invite', 'api'] }),
    status: Type.String({ enum: [...CLIENT_STATUSES] }),
    status_reason: Nullable(Type.String({ enum: ['plan_inactive', 'session_expired'] })),
    plan: Type.String({ enum: [...PLANS] }),
    plan_active: Type.Boolean(),
    provider_connected: Type.Boolean(),
    onboarding_state: Type.String(),
    impersonation_allowed: Type.Boolean(),
    phone: Nullable(Type.String()),
    metadata: Nullable(Type.Record(Type.String(), Type.Unknown())),
    created_at: Timestamp,
  },
  { title: 'PartnerClient' },
);

export const ClientDetail = Type.Object(
  {
    ...ClientItem.properties,
    payments: Type.Array(PaymentItem, { description: 'the last 20 live payments' }),
    commissions: Type.Array(Commission, { description: 'the last 20 commissions on its plan payments' }),
  },
  { title: 'PartnerClientDetail' },
);

/** A client on the partner API (decisions 22): the list item, and its API key on creation only. */
export const ApiClient = Type.Object(
  {
    ...ClientItem.properties,
    api_key: Type.Optional(
      Type.String({ description: "the client's API key of your key's mode: on creation (201) only" }),
    ),
  },
  { title: 'PartnerApiClient' },
);

/** A client's new API key, rotated by the partner API. */
export const PartnerClientKey = Type.Object(
  {
    client_id: Type.Integer(),
    api_key: Type.String(),
    mode: Type.String({ enum: ['live', 'test'] }),
    api_key_prefix: Type.String(),
    created_at: Timestamp,
  },
  { title: 'PartnerClientKey' },
);

/** A one-time sign-in link for a client's owner. */
export const LoginLink = Type.Object(
  { url: Type.String(), token: Type.String(), expires_at: Timestamp },
  { title: 'LoginLink' },
);
