// An entry of the admin audit log (decisions 23): one call an admin made on the admin API.
import { Type } from 'typebox';
import { Timestamp } from '../schemas.ts';

export const AuditEntry = Type.Object(
  {
    id: Type.Integer(),
    admin_user_id: Type.Integer(),
    admin_email: Type.String(),
    method: Type.String(),
    path: Type.String(),
    status: Type.Integer(),
    request_id: Type.String(),
    created_at: Timestamp,
  },
  { title: 'AuditEntry' },
);
