// The partner integration API /partner/v1 (decisions 22): a client's webhooks in the key's mode.
import { Type } from 'typebox';
import type { Deps } from '../../../deps.ts';
import { createWebhook, listWebhooks } from '../../../domain/webhooks/manage.ts';
import { route, type App } from '../../route.ts';
import {
  toWebhookListItem,
  toWebhookWithSecret,
  WebhookCreateBody,
  WebhookListItem,
  WebhookWithSecret,
} from '../../shapes/webhook.ts';
import { RefParams, read, tags, targetOf, write } from './shared.ts';

export function partnerApiWebhookRoutes(app: App, deps: Deps): void {
  const target = targetOf(deps);
  route(app, {
    method: 'GET',
    url: '/partner/v1/clients/:client_ref/webhooks',
    ...read,
    errors: [404],
    schema: {
      tags,
      summary: "The client's webhooks of the key's mode (at most 20)",
      params: RefParams,
      response: { 200: Type.Object({ data: Type.Array(WebhookListItem) }) },
    },
    handler: async (req) => {
      const { clientId, mode } = await target(req);
      return { data: (await listWebhooks(deps, { clientId, mode })).map(toWebhookListItem) };
    },
  });
  route(app, {
    method: 'POST',
    url: '/partner/v1/clients/:client_ref/webhooks',
    ...write,
    errors: [404, 409],
    schema: {
      tags,
      summary: "A webhook of the client in the key's mode; the secret is shown only here",
      params: RefParams,
      body: WebhookCreateBody,
      response: { 201: WebhookWithSecret },
    },
    handler: async (req, reply) => {
      const { clientId, mode } = await target(req, true);
      return reply.status(201).send(toWebhookWithSecret(await createWebhook(deps, { clientId, mode }, req.body)));
    },
  });
}
