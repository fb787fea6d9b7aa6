// Webhooks (JWT): subscriptions, secret rotation, enable/disable, test, delivery log and retry.
// Reads are open to every team role; changes need owner or admin (403 forbidden_role).
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { parseLimit } from '../../domain/pagination.ts';
import {
  createWebhook, deleteWebhook, getWebhook, listWebhooks, requireWebhookManager, rotateSecret, setWebhookActive, updateWebhook,
} from '../../domain/webhooks/manage.ts';
import { listDeliveries, retryDelivery, testWebhook } from '../../domain/webhooks/manual.ts';
import { principal } from '../plugins/auth.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, NullableTimestamp, Page, PageQuery, Timestamp } from '../schemas.ts';
import type { FastifyRequest } from 'fastify';

const EventList = Type.Array(Type.String(), { description: 'payment.completed, payment.cancelled, payment.expired, payment.refunded, webhook.test' });

const WebhookProps = {
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  is_active: Type.Boolean(),
  disabled_reason: Nullable(Type.String({ description: "why it is off: 'manual', 'auto' (24 h of failures), 'gone' (receiver answered 410)" })),
  mode: Type.String({ enum: ['live', 'test'] }),
  secret_version: Type.Integer(),
  secret_revealed_at: Timestamp,
  failing_since: NullableTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
};
const Webhook = Type.Object(WebhookProps);
const WebhookWithSecret = Type.Object({ ...WebhookProps, secret: Type.String({ description: 'shown once: whsec_ + base64 of 32 bytes' }) });
const WebhookListItem = Type.Object({
  ...WebhookProps,
  last_delivery_at: NullableTimestamp,
  last_delivery_status: Nullable(Type.String({ description: 'status of the most recently attempted delivery' })),
});
const Delivery = Type.Object({
  id: Type.Integer(),
  event_id: Type.String(),
  event_type: Type.String(),
  message_id: Type.String({ description: 'X-Webhook-ID / webhook-id, the same on every attempt' }),
  status: Type.String({ enum: ['pending', 'delivered', 'failed'] }),
  attempts: Type.Integer(),
  created_at: Timestamp,
  delivered_at: NullableTimestamp,
  last_error: Nullable(Type.String()),
  last_status: Nullable(Type.Integer({ description: 'HTTP status of the last attempt; 0 when no answer came' })),
  last_attempt_at: NullableTimestamp,
  next_attempt_at: NullableTimestamp,
});
const TestResult = Type.Object({
  status_code: Type.Integer({ description: '0 when the receiver could not be reached (refused address, DNS, TLS, time-out)' }),
  response_preview: Type.String({ description: 'first 500 characters of the response body' }),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
  delivery_id: Type.Integer(),
});

// Ids stay text in the schema: a value that cannot be an id is simply not found (404), like an id of
// another client, rather than a validation error.
const IdParams = Type.Object({ id: Type.String() });
const webhookId = (s: string) => toId(s, 'webhook_not_found');
function toId(s: string, code: 'webhook_not_found' | 'delivery_not_found'): number {
  if (!/^[1-9]\d{0,14}$/.test(s)) throw new AppError(code, `${code === 'webhook_not_found' ? 'webhook' : 'delivery'} ${s} not found`);
  return Number(s);
}
const ModeQuery = Type.Object({ mode: Type.Optional(Type.String({ enum: ['live', 'test'] })) });
const tags = ['webhooks'];

function manager(req: FastifyRequest) {
  const p = principal(req);
  requireWebhookManager(p);
  return p;
}

export function webhookRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'POST', url: '/me/webhooks', auth: ['jwt'], errors: [403, 409],
    schema: {
      tags, summary: 'Create a webhook (mode from ?mode=test, live otherwise); the secret is shown only here',
      querystring: ModeQuery,
      body: Body({
        url: Type.String(), events: EventList, description: Type.Optional(Nullable(Type.String())), secret: Type.Optional(Type.String()),
      }),
      response: { 201: WebhookWithSecret },
    },
    handler: async (req, reply) => {
      const p = manager(req);
      reply.status(201);
      return createWebhook(deps, p.clientId, p.mode, req.body);
    },
  });
  route(app, {
    method: 'GET', url: '/me/webhooks', auth: ['jwt'],
    schema: { tags, summary: 'Webhooks of the mode (at most 20), newest first', querystring: ModeQuery, response: { 200: Type.Object({ data: Type.Array(WebhookListItem) }) } },
    handler: async (req) => {
      const p = principal(req);
      return { data: await listWebhooks(deps, p.clientId, p.mode) };
    },
  });
  route(app, {
    method: 'GET', url: '/me/webhooks/:id', auth: ['jwt'], errors: [404],
    schema: { tags, summary: 'One webhook', params: IdParams, response: { 200: Webhook } },
    handler: async (req) => getWebhook(deps, principal(req).clientId, webhookId(req.params.id)),
  });
  route(app, {
    method: 'PATCH', url: '/me/webhooks/:id', auth: ['jwt'], errors: [403, 404],
    schema: {
      tags, summary: 'Edit url, events, description or is_active', params: IdParams,
      body: Body({
        url: Type.Optional(Type.String()), events: Type.Optional(EventList),
        description: Type.Optional(Nullable(Type.String())), is_active: Type.Optional(Type.Boolean()),
      }),
      response: { 200: Webhook },
    },
    handler: async (req) => updateWebhook(deps, manager(req).clientId, webhookId(req.params.id), req.body),
  });
  route(app, {
    method: 'DELETE', url: '/me/webhooks/:id', auth: ['jwt'], errors: [403, 404],
    schema: { tags, summary: 'Delete a webhook and its delivery log', params: IdParams, response: { 204: Type.Null({ description: 'deleted' }) } },
    handler: async (req, reply) => {
      await deleteWebhook(deps, manager(req).clientId, webhookId(req.params.id));
      return reply.status(204).send(null);
    },
  });
  route(app, {
    method: 'POST', url: '/me/webhooks/:id/rotate-secret', auth: ['jwt'], errors: [403, 404],
    schema: {
      tags, summary: 'New secret, shown once; the previous one keeps signing webhook-signature during the grace period',
      params: IdParams,
      body: Type.Optional(Body({ grace_period_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 604800, description: 'default 86400' })) })),
      response: { 200: WebhookWithSecret },
    },
    handler: async (req) => {
      const p = manager(req);
      if (p.actor) throw new AppError('impersonation_blocked_action', 'webhook secrets cannot be rotated while a partner acts in this account');
      return rotateSecret(deps, p.clientId, webhookId(req.params.id), req.body?.grace_period_seconds);
    },
  });
  for (const [action, active] of [['enable', true], ['disable', false]] as const) {
    route(app, {
      method: 'POST', url: `/me/webhooks/:id/${action}`, auth: ['jwt'], errors: [403, 404],
      schema: {
        tags, summary: active ? 'Switch on; clears failing_since' : 'Switch off; pending deliveries wait until it is enabled',
        params: IdParams, response: { 200: Webhook },
      },
      handler: async (req) => setWebhookActive(deps, manager(req).clientId, webhookId(req.params.id), active),
    });
  }
  route(app, {
    method: 'POST', url: '/me/webhooks/:id/test', auth: ['jwt'], errors: [403, 404],
    schema: { tags, summary: 'Send a webhook.test event now and report the answer', params: IdParams, body: Body({}), response: { 200: TestResult } },
    handler: async (req) => testWebhook(deps, manager(req).clientId, webhookId(req.params.id)),
  });
  route(app, {
    method: 'GET', url: '/me/webhooks/:id/deliveries', auth: ['jwt'], errors: [404],
    schema: {
      tags, summary: 'Delivery log, newest first (cursor)', params: IdParams,
      querystring: Type.Object({ ...PageQuery, status: Type.Optional(Type.String({ enum: ['pending', 'delivered', 'failed'] })), mode: Type.Optional(Type.String()) }),
      response: { 200: Page(Delivery) },
    },
    handler: async (req) =>
      listDeliveries(deps, principal(req).clientId, webhookId(req.params.id), { cursor: req.query.cursor, limit: parseLimit(req.query.limit), status: req.query.status }),
  });
  route(app, {
    method: 'POST', url: '/me/webhooks/:id/deliveries/:delivery_id/retry', auth: ['jwt'], errors: [403, 404, 409],
    schema: {
      tags, summary: 'Send one delivery again now; answers the delivery after the attempt',
      params: Type.Object({ id: Type.String(), delivery_id: Type.String() }),
      body: Body({}),
      response: { 200: Delivery },
    },
    handler: async (req) => retryDelivery(deps, manager(req).clientId, webhookId(req.params.id), toId(req.params.delivery_id, 'delivery_not_found')),
  });
}
