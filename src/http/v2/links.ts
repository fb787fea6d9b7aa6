// v2 payment links (API key, or JWT with ?mode=test for test mode): create, list, read, edit, a new QR
// cycle, cancel. Team roles apply to JWT callers like cabinet payments (read vs create).
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { requirePermission } from '../../domain/accounts/roles.ts';
import { createLink, listLinks } from '../../domain/links/create.ts';
import { findLink, toLinkRecord, type Link } from '../../domain/links/links.ts';
import { toQrView } from '../../domain/links/qr.ts';
import { cancelLink, refreshLinkQr, updateLink } from '../../domain/links/update.ts';
import type { Operation } from '../../domain/payments/operations.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { principal } from '../plugins/auth.ts';
import { route, type App } from '../route.ts';
import { Amount, Body, Nullable, Page, PageQuery, Timestamp } from '../schemas.ts';
import { LinkStatus, QrView, TokenParams } from '../checkout/schemas.ts';

const ModeQuery = Type.Object({ mode: Type.Optional(Type.String({ enum: ['live', 'test'], description: 'JWT only; API keys carry their mode' })) });
const Url = Type.String({ maxLength: 2083, description: 'https (http only for localhost)' });
const Description = Type.String({ minLength: 1, maxLength: 500 });
const ExpiresIn = Type.Integer({ minimum: 5, maximum: 43200, description: 'minutes from now' });

const LinkRecord = Type.Object({
  token: Type.String(),
  url: Type.String({ description: 'the hosted checkout page' }),
  amount: Amount,
  description: Type.String(),
  status: LinkStatus,
  success_url: Nullable(Type.String()),
  cancel_url: Nullable(Type.String()),
  expires_at: Timestamp,
  allow_repeat: Type.Boolean(),
  email_required: Type.Boolean(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  paid_count: Type.Integer(),
  livemode: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
const LinkWithQr = Type.Object({ ...LinkRecord.properties, qr: QrView });

const CreateBody = Body({
  amount: Amount,
  description: Description,
  success_url: Type.Optional(Url),
  cancel_url: Type.Optional(Url),
  expires_in_minutes: Type.Optional(ExpiresIn),
  allow_repeat: Type.Optional(Type.Boolean({ default: false })),
  email_required: Type.Optional(Type.Boolean({ default: false })),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'at most 50 keys, 4 KiB of JSON' })),
});

const PatchBody = Body({
  description: Type.Optional(Description),
  success_url: Type.Optional(Nullable(Url)),
  cancel_url: Type.Optional(Nullable(Url)),
  expires_in_minutes: Type.Optional(ExpiresIn),
  allow_repeat: Type.Optional(Type.Boolean()),
  amount: Type.Optional(Type.Unknown({ description: 'cannot change: always 400 invalid_parameter' })),
});

export function v2LinkRoutes(app: App, deps: Deps): void {
  const tags = ['payment links'];
  const auth: ('api_key' | 'jwt')[] = ['api_key', 'jwt'];
  const record = (l: Link) => toLinkRecord(l, deps.config.publicBaseUrl);
  const withQr = async (l: Link, op: Operation) => ({ ...record(l), qr: await toQrView(op) });

  route(app, {
    method: 'POST', url: '/v2/payment-links', auth, idempotent: 'optional', errors: [403, 409],
    schema: { tags, summary: 'Create a payment link', querystring: ModeQuery, body: CreateBody, response: { 201: LinkRecord } },
    handler: async (req, reply) => {
      const p = principal(req);
      requirePermission(p, 'payments.create');
      const link = await createLink(deps, {
        clientId: p.clientId, mode: p.mode,
        inTx: async (tx, l) => req.idempotency?.saveInTx(tx, 201, record(l)),
      }, req.body);
      return reply.status(201).send(record(link));
    },
  });

  route(app, {
    method: 'GET', url: '/v2/payment-links', auth, errors: [403],
    schema: {
      tags, summary: 'Payment links, newest first (cursor pages)',
      querystring: Type.Object({ ...PageQuery, ...ModeQuery.properties, status: Type.Optional(LinkStatus) }),
      response: { 200: Page(LinkRecord) },
    },
    handler: async (req) => {
      const p = principal(req);
      requirePermission(p, 'payments.read');
      const r = await listLinks(deps, { clientId: p.clientId, mode: p.mode }, { status: req.query.status }, req.query.cursor, parseLimit(req.query.limit));
      return { ...r, data: r.data.map(record) };
    },
  });

  route(app, {
    method: 'GET', url: '/v2/payment-links/:token', auth, errors: [403, 404],
    schema: { tags, summary: 'One payment link (an active link past its expiry reads as expired)', params: TokenParams, querystring: ModeQuery, response: { 200: LinkRecord } },
    handler: async (req) => {
      const p = principal(req);
      requirePermission(p, 'payments.read');
      return record(await findLink(deps.db, p.clientId, p.mode, req.params.token));
    },
  });

  route(app, {
    method: 'PATCH', url: '/v2/payment-links/:token', auth, errors: [403, 404, 409],
    schema: {
      tags, summary: 'Edit description, URLs, expiry (minutes from now) or the repeat flag of an active link',
      params: TokenParams, querystring: ModeQuery, body: PatchBody, response: { 200: LinkRecord },
    },
    handler: async (req) => {
      const p = principal(req);
      requirePermission(p, 'payments.create');
      return record(await updateLink(deps, { clientId: p.clientId, mode: p.mode }, req.params.token, req.body));
    },
  });

  route(app, {
    method: 'POST', url: '/v2/payment-links/:token/refresh-qr', auth, idempotent: 'optional', errors: [403, 404, 409, 502, 503],
    schema: {
      tags, summary: 'New QR cycle: visitors get fresh QRs; a fresh QR is returned for the merchant to show',
      params: TokenParams, querystring: ModeQuery, body: Body({}), response: { 200: LinkWithQr },
    },
    handler: async (req) => {
      const p = principal(req);
      requirePermission(p, 'payments.create');
      const { link, op } = await refreshLinkQr(deps, { clientId: p.clientId, mode: p.mode }, req.params.token,
        async (tx, l, o) => req.idempotency?.saveInTx(tx, 200, await withQr(l, o)));
      return withQr(link, op);
    },
  });

  route(app, {
    method: 'POST', url: '/v2/payment-links/:token/cancel', auth, errors: [403, 404, 409],
    schema: { tags, summary: 'Cancel an active link', params: TokenParams, querystring: ModeQuery, body: Body({}), response: { 200: LinkRecord } },
    handler: async (req) => {
      const p = principal(req);
      requirePermission(p, 'payments.create');
      return record(await cancelLink(deps, { clientId: p.clientId, mode: p.mode }, req.params.token));
    },
  });
}
