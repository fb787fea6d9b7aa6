// A client as the admin API shows it (decisions 23): its plan and whether it is disabled.
import { Type } from 'typebox';
import { NullableTimestamp, Timestamp } from '../schemas.ts';

export const AdminClient = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    plan: Type.String({ enum: ['trial', 'starter', 'professional', 'enterprise'] }),
    trial_ends_at: Timestamp,
    plan_expires_at: NullableTimestamp,
    disabled: Type.Boolean(),
    disabled_at: NullableTimestamp,
    is_platform: Type.Boolean({ description: "the operator's own client, which takes plan payments; never disabled" }),
    created_at: Timestamp,
  },
  { title: 'AdminClient' },
);
