// Webhook subscriptions: create, read, list, edit, delete, enable/disable, rotate the secret.
// Every lookup is scoped to the caller's client and mode; ids of other clients, and webhooks of the other
// mode, are 404 webhook_not_found.
import { lockClient } from '../accounts/clients-store.ts';
import type { Deps, DbSecretsDeps, DbDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import { WEBHOOK_EVENT_TYPES } from '../events/types.ts';
import { validateWebhookUrl } from './address-policy.ts';
import { generateSecret, validateSecret } from './signing.ts';
import { findWebhook, type WebhookRow } from './store.ts';

/** Webhooks per client and mode: a bounded list, and a bound on the fan-out of one event. */
export const MAX_WEBHOOKS_PER_MODE = 20;
export const MAX_DESCRIPTION = 500;
export const DEFAULT_GRACE_SECONDS = 86_400;

const ALLOWED = new Set<string>(WEBHOOK_EVENT_TYPES);

/**
 * A subscription names at least one event (an empty list is a malformed input, 400 invalid_parameter);
 * a name that is not one of the five is unknown_event, and the message lists the valid ones.
 */
export function validateEvents(events: unknown): string[] {
  if (!Array.isArray(events) || events.length === 0) {
    throw new AppError('invalid_parameter', `events must list at least one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`, {
      param: 'events',
    });
  }
  const unknown = events.filter((e) => typeof e !== 'string' || !ALLOWED.has(e));
  if (unknown.length) {
    throw new AppError(
      'unknown_event',
      `unknown event ${JSON.stringify(unknown[0])}; allowed: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
      { param: 'events' },
    );
  }
  return [...new Set(events as string[])];
}

function validateDescription(d: string | null | undefined): string | null {
  if (d === undefined || d === null) return null;
  if (d.length > MAX_DESCRIPTION)
    throw new AppError('invalid_parameter', `description must be at most ${MAX_DESCRIPTION} characters`, {
      param: 'description',
    });
  return d;
}

export interface CreateWebhookInput {
  url: string;
  events: string[];
  description?: string | null;
  secret?: string;
}

export async function createWebhook(
  deps: Pick<Deps, 'config' | 'db' | 'secrets'>,
  tenant: Tenant,
  input: CreateWebhookInput,
): Promise<WebhookRow & { secret: string }> {
  const { clientId, mode } = tenant;
  const url = validateWebhookUrl(input.url, deps.config.webhooksAllowPrivate);
  const events = validateEvents(input.events);
  const description = validateDescription(input.description);
  const secret = input.secret !== undefined ? validateSecret(input.secret) : generateSecret();
  return deps.db.tx(async (tx) => {
    // Serialize creations of one client so the per-mode bound holds under concurrent requests.
    await lockClient(tx, clientId, { noKey: true });
    const n = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhooks WHERE client_id = $1 AND mode = $2',
      [clientId, mode],
    );
    if (n.rows[0].n >= MAX_WEBHOOKS_PER_MODE) {
      throw new AppError('webhook_limit_reached', `at most ${MAX_WEBHOOKS_PER_MODE} webhooks per mode`);
    }
    const r = await tx.query<WebhookRow>(
      `INSERT INTO webhooks (client_id, mode, url, events, description, secret_enc) VALUES ($1, $2, $3, $4, $5, $6)
        RETURNING *`,
      [clientId, mode, url, events, description, deps.secrets.sealer.seal(secret)],
    );
    return { ...r.rows[0], secret };
  });
}

export type ListedWebhook = WebhookRow & { last_delivery_at: Date | null; last_delivery_status: string | null };

export async function listWebhooks(deps: DbDeps, tenant: Tenant): Promise<ListedWebhook[]> {
  const { clientId, mode } = tenant;
  const r = await deps.db.query<ListedWebhook>(
    `SELECT w.*, l.last_attempt_at AS last_delivery_at, l.status AS last_delivery_status
       FROM webhooks w
       LEFT JOIN LATERAL (
         SELECT d.last_attempt_at, d.status FROM webhook_deliveries d
          WHERE d.webhook_id = w.id AND d.last_attempt_at IS NOT NULL
          ORDER BY d.last_attempt_at DESC LIMIT 1) l ON true
      WHERE w.client_id = $1 AND w.mode = $2
      ORDER BY w.created_at DESC, w.id DESC
      LIMIT ${MAX_WEBHOOKS_PER_MODE}`,
    [clientId, mode],
  );
  return r.rows;
}

export async function getWebhook(deps: DbDeps, scope: Tenant, id: number): Promise<WebhookRow> {
  return findWebhook(deps.db, scope, id);
}

export interface UpdateWebhookInput {
  url?: string;
  events?: string[];
  description?: string | null;
  is_active?: boolean;
}

export async function updateWebhook(
  deps: Pick<Deps, 'config' | 'db'>,
  scope: Tenant,
  id: number,
  input: UpdateWebhookInput,
): Promise<WebhookRow> {
  const sets: string[] = [];
  const params: unknown[] = [id, scope.clientId, scope.mode];
  const set = (col: string, v: unknown) => {
    params.push(v);
    sets.push(`${col} = $${params.length}`);
  };
  if (input.url !== undefined) set('url', validateWebhookUrl(input.url, deps.config.webhooksAllowPrivate));
  if (input.events !== undefined) set('events', validateEvents(input.events));
  if (input.description !== undefined) set('description', validateDescription(input.description));
  if (input.is_active === true) sets.push('is_active = true', 'disabled_reason = NULL', 'failing_since = NULL');
  if (input.is_active === false) sets.push(`is_active = false`, `disabled_reason = 'manual'`);
  sets.push('updated_at = now()');
  const r = await deps.db.query<WebhookRow>(
    `UPDATE webhooks SET ${sets.join(', ')} WHERE id = $1 AND client_id = $2 AND mode = $3 RETURNING *`,
    params,
  );
  if (!r.rows[0]) throw new AppError('webhook_not_found', `webhook ${id} not found`);
  return r.rows[0];
}

/** Deleting a webhook deletes its delivery log too (ON DELETE CASCADE); pending deliveries stop. */
export async function deleteWebhook(deps: DbDeps, scope: Tenant, id: number): Promise<void> {
  const r = await deps.db.query('DELETE FROM webhooks WHERE id = $1 AND client_id = $2 AND mode = $3', [
    id,
    scope.clientId,
    scope.mode,
  ]);
  if (!r.rowCount) throw new AppError('webhook_not_found', `webhook ${id} not found`);
}

/** Enable clears the failure series (spec transition table); disable is manual and sticks. */
export async function setWebhookActive(
  deps: Pick<Deps, 'config' | 'db'>,
  scope: Tenant,
  id: number,
  active: boolean,
): Promise<WebhookRow> {
  return updateWebhook(deps, scope, id, { is_active: active });
}

/**
 * New secret, shown once. X-Webhook-Signature switches to it at once (decisions 8); the standard
 * webhook-signature header also carries the previous secret's signature until the grace period ends.
 */
export async function rotateSecret(
  deps: DbSecretsDeps,
  scope: Tenant,
  id: number,
  graceSeconds = DEFAULT_GRACE_SECONDS,
): Promise<WebhookRow & { secret: string }> {
  const secret = generateSecret();
  return deps.db.tx(async (tx) => {
    const w = await findWebhook(tx, scope, id, true);
    const r = await tx.query<WebhookRow>(
      `UPDATE webhooks SET secret_enc = $2, secret_version = secret_version + 1, secret_revealed_at = now(),
              previous_secret_enc = CASE WHEN $3::int > 0 THEN secret_enc END,
              previous_secret_expires_at = CASE WHEN $3::int > 0 THEN now() + make_interval(secs => $3::int) END,
              updated_at = now()
        WHERE id = $1 RETURNING *`,
      [w.id, deps.secrets.sealer.seal(secret), graceSeconds],
    );
    return { ...r.rows[0], secret };
  });
}

/** The secrets that sign a delivery now: the current one and, during a grace period, the previous one. */
export function signingSecrets(
  deps: Pick<Deps, 'secrets'>,
  w: Pick<WebhookRow, 'secret_enc' | 'previous_secret_enc' | 'previous_secret_expires_at'>,
): {
  secret: string;
  previousSecret: string | null;
} {
  const secret = deps.secrets.sealer.open(w.secret_enc);
  const inGrace =
    w.previous_secret_enc && w.previous_secret_expires_at && w.previous_secret_expires_at.getTime() > Date.now();
  return { secret, previousSecret: inGrace ? deps.secrets.sealer.open(w.previous_secret_enc!) : null };
}
