// Webhooks (JWT): subscriptions, secret rotation, enable/disable, test, delivery log and retry.
// Reads are open to every team role; changes need owner or admin (webhooks.write, webhooks.rotate_secret).
// Every route acts in the mode of its ?mode (decisions 15): a webhook of the other mode is 404.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { parseLimit } from '../../domain/pagination.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateSecret,
  setWebhookActive,
  updateWebhook,
} from '../../domain/webhooks/manage.ts';
import { listDeliveries, retryDelivery, testWebhook } from '../../domain/webhooks/manual.ts';
import { tenant } from '../context.ts';
import { IdParams, ModeQuery, numericId, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, Page } from '../schemas.ts';
import {
  Delivery,
  EventList,
  TestResult,
  WebhookCreateBody,
  toDelivery,
  toWebhook,
  toWebhookListItem,
  toWebhookWithSecret,
  Webhook,
  WebhookListItem,
  WebhookWithSecret,
} from '../shapes/webhook.ts';

const tags = ['webhooks'];
const webhookId = (raw: string) => numericId(raw, 'webhook_not_found', 'webhook');
const deliveryId = (raw: string) => numericId(raw, 'delivery_not_found', 'delivery');
const read = { auth: ['jwt'], permission: 'webhooks.read' } as const;
const write = { auth: ['jwt'], permission: 'webhooks.write' } as const;
const querystring = Type.Object(ModeQuery);

export function webhookRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'POST',
    url: '/me/webhooks',
    ...write,
    errors: [409],
    schema: {
      tags,
      summary: 'Create a webhook (mode from ?mode=test, live otherwise); the secret is shown only here',
      querystring: Type.Object(ModeQuery),
      body: WebhookCreateBody,
      response: { 201: WebhookWithSecret },
    },
    handler: async (req, reply) => {
      const t = tenant(req);
      reply.status(201);
      return toWebhookWithSecret(await createWebhook(deps, t, req.body));
    },
  });
  route(app, {
    method: 'GET',
    url: '/me/webhooks',
    ...read,
    schema: {
      tags,
      summary: 'Webhooks of the mode (at most 20), newest first',
      querystring: Type.Object(ModeQuery),
      response: { 200: Type.Object({ data: Type.Array(WebhookListItem) }) },
    },
    handler: async (req) => {
      const t = tenant(req);
      return { data: (await listWebhooks(deps, t)).map(toWebhookListItem) };
    },
  });
  route(app, {
    method: 'GET',
    url: '/me/webhooks/:id',
    ...read,
    errors: [404],
    schema: { tags, summary: 'One webhook', params: IdParams, querystring, response: { 200: Webhook } },
    handler: async (req) => toWebhook(await getWebhook(deps, tenant(req), webhookId(req.params.id))),
  });
  route(app, {
    method: 'PATCH',
    url: '/me/webhooks/:id',
    ...write,
    errors: [404],
    schema: {
      tags,
      summary: 'Edit url, events, description or is_active',
      params: IdParams,
      querystring,
      body: Body({
        url: Type.Optional(Type.String()),
        events: Type.Optional(EventList),
        description: Type.Optional(Nullable(Type.String())),
        is_active: Type.Optional(Type.Boolean()),
      }),
      response: { 200: Webhook },
    },
    handler: async (req) => toWebhook(await updateWebhook(deps, tenant(req), webhookId(req.params.id), req.body)),
  });
  route(app, {
    method: 'DELETE',
    url: '/me/webhooks/:id',
    ...write,
    errors: [404],
    schema: {
      tags,
      summary: 'Delete a webhook and its delivery log',
      params: IdParams,
      querystring,
      response: { 204: Type.Null({ description: 'deleted' }) },
    },
    handler: async (req, reply) => {
      await deleteWebhook(deps, tenant(req), webhookId(req.params.id));
      return reply.status(204).send(null);
    },
  });
  route(app, {
    method: 'POST',
    url: '/me/webhooks/:id/rotate-secret',
    auth: ['jwt'],
    permission: 'webhooks.rotate_secret',
    errors: [404],
    schema: {
      tags,
      summary: 'New secret, shown once; the previous one keeps signing webhook-signature during the grace period',
      params: IdParams,
      querystring,
      body: Type.Optional(
        Body({
          grace_period_seconds: Type.Optional(
            Type.Integer({ minimum: 0, maximum: 604800, description: 'default 86400' }),
          ),
        }),
      ),
      response: { 200: WebhookWithSecret },
    },
    handler: async (req) =>
      toWebhookWithSecret(
        await rotateSecret(deps, tenant(req), webhookId(req.params.id), req.body?.grace_period_seconds),
      ),
  });
  for (const [action, active] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    route(app, {
      method: 'POST',
      url: `/me/webhooks/:id/${action}`,
      ...write,
      errors: [404],
      schema: {
        tags,
        summary: active ? 'Switch on; clears failing_since' : 'Switch off; pending deliveries wait until it is enabled',
        params: IdParams,
        querystring,
        response: { 200: Webhook },
      },
      handler: async (req) => toWebhook(await setWebhookActive(deps, tenant(req), webhookId(req.params.id), active)),
    });
  }
  route(app, {
    method: 'POST',
    url: '/me/webhooks/:id/test',
    ...write,
    errors: [404],
    schema: {
      tags,
      summary: 'Send a webhook.test event now and report the answer',
      params: IdParams,
      querystring,
      body: Body({}),
      response: { 200: TestResult },
    },
    // The request's logger gets what a refused destination resolved to; the answer does not (issue 38).
    handler: async (req) => testWebhook(deps, tenant(req), webhookId(req.params.id), req.log),
  });
  route(app, {
    method: 'GET',
    url: '/me/webhooks/:id/deliveries',
    ...read,
    errors: [404],
    schema: {
      tags,
      summary: 'Delivery log, newest first (cursor)',
      params: IdParams,
      querystring: Type.Object({
        ...PageQuery,
        status: Type.Optional(Type.String({ enum: ['pending', 'delivered', 'failed'] })),
        ...ModeQuery,
      }),
      response: { 200: Page(Delivery) },
    },
    handler: async (req) => {
      const paging = { cursor: req.query.cursor, limit: parseLimit(req.query.limit) };
      const r = await listDeliveries(deps, tenant(req), webhookId(req.params.id), { status: req.query.status }, paging);
      return { ...r, data: r.data.map(toDelivery) };
    },
  });
  route(app, {
    method: 'POST',
    url: '/me/webhooks/:id/deliveries/:delivery_id/retry',
    ...write,
    errors: [404, 409],
    schema: {
      tags,
      summary: 'Send one delivery again now; answers the delivery after the attempt',
      params: Type.Object({ id: Type.String(), delivery_id: Type.String() }),
      querystring,
      body: Body({}),
      response: { 200: Delivery },
    },
    handler: async (req) =>
      toDelivery(
        await retryDelivery(deps, tenant(req), webhookId(req.params.id), deliveryId(req.params.delivery_id), req.log),
      ),
  });
}
