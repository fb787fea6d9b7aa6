// The partner integration API /partner/v1/* (decisions 22): a platform's key (X-Partner-API-Key) upserts its
// merchants by its own ids, onboards them white-label, sets their webhooks, makes their payment links,
// reads their payments and signs their owners in. The key's mode is the mode of everything it touches;
// every call is scoped to the key's partner (another partner's client is not found).
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import {
  listPartnerClients,
  partnerClient,
  CLIENT_STATUSES,
  type ClientStatus,
} from '../../domain/partners/clients.ts';
import {
  activeClientRef,
  loginLink,
  resolveClientRef,
  rotateClientKey,
  upsertApiClient,
} from '../../domain/partners/api-clients.ts';
import { getPartnerPayment, listPartnerPayments, type PartnerPayment } from '../../domain/partners/payments.ts';
import { startOnboarding, verifyOnboarding } from '../../domain/onboarding/steps.ts';
import { mechanismFor, onboardingStatus, resendQrapi, resendSandbox } from '../../domain/onboarding/machine.ts';
import { createWebhook, listWebhooks } from '../../domain/webhooks/manage.ts';
import { createLink } from '../../domain/links/create.ts';
import { checkMetadata } from '../../domain/links/input.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { partnerKey } from '../context.ts';
import { OperationId, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, Page, Timestamp } from '../schemas.ts';
import { PaymentItem, Status, toPaymentItem } from '../shapes/payment.ts';
import { LinkCreateBody, LinkRecord, toLinkRecord } from '../shapes/link.ts';
import {
  toWebhookListItem,
  toWebhookWithSecret,
  WebhookCreateBody,
  WebhookListItem,
  WebhookWithSecret,
} from '../shapes/webhook.ts';
import { OnboardingStatus, StartBody, StepAnswer, VerifyBody } from '../shapes/onboarding.ts';
import { ClientItem } from '../shapes/partner-client.ts';

const tags = ['partner API'];
const auth = ['partner'] as const;
const read = { auth, permission: 'partner_api.read' } as const;
const write = { auth, permission: 'partner_api.write' } as const;

const ClientRef = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'your external_id of the client, else its numeric id',
});
const RefParams = Type.Object({ client_ref: ClientRef });
const ExternalId = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[\\x21-\\x7e]+$',
  description: 'your id of the merchant: printable ASCII, no spaces',
});

const ApiClient = Type.Object(
  {
    ...ClientItem.properties,
    api_key: Type.Optional(
      Type.String({ description: "the client's API key of your key's mode: on creation (201) only" }),
    ),
  },
  { title: 'PartnerApiClient' },
);

const PartnerPaymentItem = Type.Object(
  {
    ...PaymentItem.properties,
    client_id: Type.Integer(),
    external_id: Nullable(Type.String()),
  },
  { title: 'PartnerPayment' },
);
// Object.assign, not a spread with added fields: on Node 20 that took V8's slow clone path and sent every
// item to the old generation (the partner list's peak RSS 367 -> 187 MB, docs/performance.md).
const toPartnerPayment = (op: PartnerPayment) =>
  Object.assign(toPaymentItem(op), { client_id: Number(op.client_id), external_id: op.external_id });

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

const CheckoutBody = Body(
  {
    client_ref: Type.Union([ClientRef, Type.Integer({ minimum: 1, description: "the client's numeric id" })]),
    ...LinkCreateBody.properties,
  },
  'PartnerCheckoutRequest',
);

export function partnerApiRoutes(app: App, deps: Deps): void {
  /** The client a path's client_ref names, of the key's partner, with the key's mode; `changes`: not disabled. */
  const target = async (req: FastifyRequest, changes = false) => {
    const k = partnerKey(req);
    const ref = (req.params as { client_ref: string }).client_ref;
    const c = await (changes ? activeClientRef : resolveClientRef)(deps.db, k.partnerId, ref);
    return { clientId: c.id, mode: k.mode, partnerId: k.partnerId };
  };

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
      const r = await upsertApiClient(deps, k.partnerId, k.mode, req.body);
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
      listPartnerClients(deps, partnerKey(req).partnerId, {
        status: req.query.status as ClientStatus | undefined,
        cursor: req.query.cursor,
        limit: parseLimit(req.query.limit),
        endpoint: '/partner/v1/clients',
      }),
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

  route(app, {
    method: 'POST',
    url: '/partner/v1/clients/:client_ref/provider/start',
    ...write,
    errors: [404, 409, 502],
    schema: {
      tags,
      summary: "White-label onboarding, start (the key's mode): a code by SMS, or credentials then a trade point",
      params: RefParams,
      body: StartBody,
      response: { 200: StepAnswer },
    },
    handler: async (req) => {
      const { clientId, mode } = await target(req, true);
      return startOnboarding(deps, clientId, mode, req.body);
    },
  });
  route(app, {
    method: 'POST',
    url: '/partner/v1/clients/:client_ref/provider/verify',
    ...write,
    errors: [404, 409, 502],
    schema: {
      tags,
      summary: 'White-label onboarding: the code, or the trade point',
      params: RefParams,
      body: VerifyBody,
      response: { 200: StepAnswer },
    },
    handler: async (req) => {
      const { clientId, mode } = await target(req, true);
      return verifyOnboarding(deps, clientId, mode, req.body);
    },
  });
  route(app, {
    method: 'POST',
    url: '/partner/v1/clients/:client_ref/provider/resend',
    ...write,
    errors: [404, 409, 502],
    schema: {
      tags,
      summary: 'White-label onboarding: send the code again, or read the trade points again',
      params: RefParams,
      body: Type.Optional(Body({})),
      response: { 200: StepAnswer },
    },
    handler: async (req) => {
      const { clientId, mode } = await target(req, true);
      return mechanismFor(deps, mode) === 'sandbox' ? resendSandbox(deps, clientId, mode) : resendQrapi(deps, clientId);
    },
  });
  route(app, {
    method: 'GET',
    url: '/partner/v1/clients/:client_ref/provider/status',
    ...read,
    errors: [404],
    schema: {
      tags,
      summary: 'White-label onboarding: where it stands',
      params: RefParams,
      response: { 200: OnboardingStatus },
    },
    handler: async (req) => {
      const { clientId, mode } = await target(req);
      return onboardingStatus(deps, clientId, mode);
    },
  });

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
      return { data: (await listWebhooks(deps, clientId, mode)).map(toWebhookListItem) };
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
      return reply.status(201).send(toWebhookWithSecret(await createWebhook(deps, clientId, mode, req.body)));
    },
  });
  route(app, {
    method: 'POST',
    url: '/partner/v1/clients/:client_ref/api-key/rotate',
    ...write,
    errors: [403, 404],
    schema: {
      tags,
      summary: "A new API key of the key's mode for a client you created; the old one stops at once",
      params: RefParams,
      body: Type.Optional(Body({})),
      response: {
        200: Type.Object(
          {
            client_id: Type.Integer(),
            api_key: Type.String(),
            mode: Type.String({ enum: ['live', 'test'] }),
            api_key_prefix: Type.String(),
            created_at: Timestamp,
          },
          { title: 'PartnerClientKey' },
        ),
      },
    },
    handler: async (req) => {
      const k = partnerKey(req);
      return rotateClientKey(deps, k.partnerId, req.params.client_ref, k.mode);
    },
  });
  route(app, {
    method: 'POST',
    url: '/partner/v1/clients/:client_ref/login-link',
    ...write,
    errors: [403, 404],
    schema: {
      tags,
      summary: 'A one-time sign-in link for the owner of a client you created (10 minutes, single use)',
      description: 'Open `url` in the dashboard, or trade `token` at POST /auth/magic-exchange for a token pair.',
      params: RefParams,
      body: Type.Optional(Body({})),
      response: {
        201: Type.Object({ url: Type.String(), token: Type.String(), expires_at: Timestamp }, { title: 'LoginLink' }),
      },
    },
    handler: async (req, reply) => {
      const k = partnerKey(req);
      return reply.status(201).send(await loginLink(deps, k.partnerId, req.params.client_ref));
    },
  });

  route(app, {
    method: 'POST',
    url: '/partner/v1/checkout',
    ...write,
    idempotent: 'optional',
    errors: [404, 409],
    schema: {
      tags,
      summary: "A payment link of a client in the key's mode",
      body: CheckoutBody,
      response: {
        201: Type.Object(
          { ...LinkRecord.properties, client_ref: Type.String(), client_id: Type.Integer() },
          { title: 'PartnerCheckoutLink' },
        ),
      },
    },
    handler: async (req, reply) => {
      const k = partnerKey(req);
      const { client_ref: given, ...input } = req.body;
      const ref = String(given);
      const c = await activeClientRef(deps.db, k.partnerId, ref);
      const record = (l: Parameters<typeof toLinkRecord>[0]) =>
        Object.assign(toLinkRecord(l, deps.config.publicBaseUrl), { client_ref: ref, client_id: Number(c.id) });
      const link = await createLink(
        deps,
        {
          clientId: c.id,
          mode: k.mode,
          inTx: async (tx, l) => req.idempotency?.saveInTx(tx, 201, record(l)),
        },
        input,
      );
      return reply.status(201).send(record(link));
    },
  });

  route(app, {
    method: 'GET',
    url: '/partner/v1/payments',
    ...read,
    errors: [404],
    schema: {
      tags,
      summary: "Payments of your clients in the key's mode, newest first (cursor pages)",
      querystring: Type.Object({
        ...PageQuery,
        client_ref: Type.Optional(ClientRef),
        status: Type.Optional(Status),
        type: Type.Optional(Type.String({ enum: ['qr', 'invoice'] })),
      }),
      response: { 200: Page(PartnerPaymentItem) },
    },
    handler: async (req) => {
      const k = partnerKey(req);
      const q = req.query;
      const clientId =
        q.client_ref === undefined ? undefined : (await resolveClientRef(deps.db, k.partnerId, q.client_ref)).id;
      const r = await listPartnerPayments(
        deps,
        k,
        { clientId, status: q.status, type: q.type },
        q.cursor,
        parseLimit(q.limit),
      );
      return { ...r, data: r.data.map(toPartnerPayment) };
    },
  });
  route(app, {
    method: 'GET',
    url: '/partner/v1/payments/:operation_id',
    ...read,
    errors: [404],
    schema: {
      tags,
      summary: 'One payment of your clients',
      params: Type.Object({ operation_id: OperationId }),
      response: { 200: PartnerPaymentItem },
    },
    handler: async (req) => toPartnerPayment(await getPartnerPayment(deps, partnerKey(req), req.params.operation_id)),
  });
}
