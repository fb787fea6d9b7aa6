// The partner integration API /partner/v1 (decisions 22): a platform's key (X-Partner-API-Key) upserts its
// merchants by its own ids, onboards them white-label, sets their webhooks, makes their payment links,
// reads their payments and signs their owners in. The key's mode is the mode of everything it touches;
// every call is scoped to the key's partner (another partner's client is not found).
// Here: the key's check, and the clients.
import { Type } from 'typebox';
import type { Deps } from '../../../deps.ts';
import {
  listPartnerClients,
  partnerClient,
  CLIENT_STATUSES,
  type ClientStatus,
} from '../../../domain/partners/clients.ts';
import { upsertManagedClient } from '../../../domain/partners/managed-clients.ts';
import { checkMetadata } from '../../../domain/links/input.ts';
import { parseLimit } from '../../../domain/pagination.ts';
import { partnerKey } from '../../context.ts';
import { PageQuery } from '../../params.ts';
import { route, type App } from '../../route.ts';
import { Body, Page } from '../../schemas.ts';
import { ApiClient, ClientItem } from '../../shapes/partner-client.ts';
import { RefParams, read, tags, targetOf, write } from './shared.ts';

const ExternalId = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[\\x21-\\x7e]+$',
  description: 'your id of the merchant: printable ASCII, no spaces',
});

const UpsertBody = Body(
  {
    external_id: ExternalId,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    email: Type.Optional(
      Type.String({ format: 'email', maxLength: 254, description: "the owner's login; set on creation only" }),
    ),
    phone: Type.Optional(Type.String({ pattern: '^\\+?[0-9 ()-]{5,32}$', maxLength: 32 })),
    metadata: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'at most 50 keys, 4 KiB of JSON' }),
    ),
  },
  'PartnerClientUpsertRequest',
);

export function partnerApiClientRoutes(app: App, deps: Deps): void {
  const target = targetOf(deps);

  route(app, {
    method: 'GET',
    url: '/partner/v1/ping',
    ...read,
    schema: {
      tags,
      summary: 'Check the key: its partner and mode',
      response: {
        200: Type.Object({
          ok: Type.Literal(true),
          partner_id: Type.Integer(),
          mode: Type.String({ enum: ['live', 'test'] }),
          key_prefix: Type.String(),
        }),
      },
    },
    handler: async (req) => {
      const k = partnerKey(req);
      return { ok: true as const, partner_id: k.partnerId, mode: k.mode, key_prefix: k.keyPrefix };
    },
  });

  route(app, {
    method: 'POST',
    url: '/partner/v1/clients',
    ...write,
    errors: [403, 409],
    schema: {
      tags,
      summary: 'Create a client, or update it by external_id (201 with its API key the first time, then 200)',
      description:
        'Creates the merchant (origin api) with a password-less owner, both API keys and its test sandbox account. ' +
        'Later calls with the same external_id update name, phone and metadata. ' +
        'Not idempotent by key: the external_id is the idempotency; ' +
        'a key lost with a 201 is replaced by api-key/rotate.',
      body: UpsertBody,
      response: { 200: ApiClient, 201: ApiClient },
    },
    handler: async (req, reply) => {
      const k = partnerKey(req);
      checkMetadata(req.body.metadata);
      const r = await upsertManagedClient(deps, k.partnerId, k.mode, req.body);
      const client = await partnerClient(deps, k.partnerId, r.clientId);
      if (!r.created) return reply.status(200).send(client);
      return reply.status(201).send({ ...client, api_key: r.apiKey });
    },
  });
  route(app, {
    method: 'GET',
    url: '/partner/v1/clients',
    ...read,
    schema: {
      tags,
      summary: 'Your clients, newest first (cursor pages)',
      querystring: Type.Object({ ...PageQuery, status: Type.Optional(Type.String({ enum: [...CLIENT_STATUSES] })) }),
      response: { 200: Page(ClientItem) },
    },
    handler: async (req) =>
      listPartnerClients(
        deps,
        { partnerId: partnerKey(req).partnerId, endpoint: '/partner/v1/clients' },
        { status: req.query.status as ClientStatus | undefined },
        { cursor: req.query.cursor, limit: parseLimit(req.query.limit) },
      ),
  });
  route(app, {
    method: 'GET',
    url: '/partner/v1/clients/:client_ref',
    ...read,
    errors: [404],
    schema: {
      tags,
      summary: 'One client, by your external_id or by its id',
      params: RefParams,
      response: { 200: ClientItem },
    },
    handler: async (req) => {
      const { clientId, partnerId } = await target(req);
      return partnerClient(deps, partnerId, clientId);
    },
  });
}
