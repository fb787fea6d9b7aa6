// Webhook and delivery rows and tenant-scoped lookups (architecture rule 3:
// another client's id is a 404, never a 403 that would confirm it exists; so is a webhook of the other
// mode, as every JWT call acts in the mode of its ?mode).
import type { Queryable } from '../../db/db.ts';
import type { Mode, Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';

export interface WebhookRow {
  id: number;
  client_id: number;
  mode: Mode;
  url: string;
  events: string[];
  description: string | null;
  is_active: boolean;
  disabled_reason: 'manual' | 'auto' | 'gone' | null;
  secret_enc: string;
  secret_version: number;
  secret_revealed_at: Date;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

export async function findWebhook(q: Queryable, scope: Tenant, id: number, forUpdate = false): Promise<WebhookRow> {
  const r = await q.query<WebhookRow>(
    `SELECT * FROM webhooks WHERE id = $1 AND client_id = $2 AND mode = $3${forUpdate ? ' FOR NO KEY UPDATE' : ''}`,
    [id, scope.clientId, scope.mode],
  );
  if (!r.rows[0]) throw new AppError('webhook_not_found', `webhook ${id} not found`);
  return r.rows[0];
}

export interface DeliveryRow {
  id: number;
  webhook_id: number;
  client_id: number;
  mode: Mode;
  message_id: string;
  event_id: string;
  event_type: string;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  /** first 500 characters of the receiver's answer to the last attempt */
  last_response: string | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
}

export const DELIVERY_COLUMNS = `id, webhook_id, client_id, mode, message_id, event_id, event_type, body, status,
  attempts, next_attempt_at, last_status, last_error, last_response, last_attempt_at, delivered_at, created_at`;
