// v2 payment links (API key, or JWT with ?mode=test for test mode): create, list, read, edit, a new QR
// cycle, cancel. Team roles apply to JWT callers (links.read vs links.write).
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { createLink, listLinks } from '../../domain/links/create.ts';
import { receiptFor } from '../plugins/idempotency.ts';
import { findLink, type Link } from '../../domain/links/links.ts';
import { cancelLink, refreshLinkQr, updateLink } from '../../domain/links/update.ts';
import type { Operation } from '../../domain/payments/operations.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { tenant } from '../context.ts';
import { ModeQuery as ModeProps, PageQuery, TokenParams } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, Page } from '../schemas.ts';
import {
  Description,
  ExpiresIn,
  LinkCreateBody,
  LinkRecord,
  LinkStatus,
  LinkWithQr,
  toLinkRecord,
  toQrView,
  Url,
} from '../shapes/link.ts';

const ModeQuery = Type.Object(ModeProps);

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
  const read = { auth, permission: 'links.read' } as const;
  const write = { auth, permission: 'links.write' } as const;
  const record = (l: Link) => toLinkRecord(l, deps.config.publicBaseUrl);
  const withQr = async (l: Link, op: Operation) => Object.assign(record(l), { qr: await toQrView(op) });

  route(app, {
    method: 'POST',
    url: '/v2/payment-links',
    ...write,
    idempotent: 'optional',
    errors: [403, 409],
    schema: {
      tags,
      summary: 'Create a payment link',
      querystring: ModeQuery,
      body: LinkCreateBody,
      response: { 201: LinkRecord },
    },
    handler: async (req, reply) => {
      const link = await createLink(deps, tenant(req), req.body, receiptFor(deps, req, 201, record));
      return reply.status(201).send(record(link));
    },
  });

  route(app, {
    method: 'GET',
    url: '/v2/payment-links',
    ...read,
    errors: [403],
    schema: {
      tags,
      summary: 'Payment links, newest first (cursor pages)',
      querystring: Type.Object({ ...PageQuery, ...ModeProps, status: Type.Optional(LinkStatus) }),
      response: { 200: Page(LinkRecord) },
    },
    handler: async (req) => {
      const r = await listLinks(
        deps,
        tenant(req),
        { status: req.query.status },
        { cursor: req.query.cursor, limit: parseLimit(req.query.limit) },
      );
      return { ...r, data: r.data.map(record) };
    },
  });

  route(app, {
    method: 'GET',
    url: '/v2/payment-links/:token',
    ...read,
    errors: [403, 404],
    schema: {
      tags,
      summary: 'One payment link (an active link past its expiry reads as expired)',
      params: TokenParams,
      querystring: ModeQuery,
      response: { 200: LinkRecord },
    },
    handler: async (req) => {
      const t = tenant(req);
      return record(await findLink(deps.db, t, req.params.token));
    },
  });

  route(app, {
    method: 'PATCH',
    url: '/v2/payment-links/:token',
    ...write,
    errors: [403, 404, 409],
    schema: {
      tags,
      summary: 'Edit description, URLs, expiry (minutes from now) or the repeat flag of an active link',
      params: TokenParams,
      querystring: ModeQuery,
      body: PatchBody,
      response: { 200: LinkRecord },
    },
    handler: async (req) => {
      return record(await updateLink(deps, tenant(req), req.params.token, req.body));
    },
  });

  route(app, {
    method: 'POST',
    url: '/v2/payment-links/:token/refresh-qr',
    ...write,
    idempotent: 'optional',
    errors: [403, 404, 409, 502, 503],
    schema: {
      tags,
      summary: 'New QR cycle: visitors get fresh QRs; a fresh QR is returned for the merchant to show',
      params: TokenParams,
      querystring: ModeQuery,
      body: Body({}),
      response: { 200: LinkWithQr },
    },
    handler: async (req) => {
      const { link, op } = await refreshLinkQr(
        deps,
        tenant(req),
        req.params.token,
        receiptFor(deps, req, 200, (r: { link: Link; op: Operation }) => withQr(r.link, r.op)),
      );
      return withQr(link, op);
    },
  });

  route(app, {
    method: 'POST',
    url: '/v2/payment-links/:token/cancel',
    ...write,
    errors: [403, 404, 409],
    schema: {
      tags,
      summary: 'Cancel an active link',
      params: TokenParams,
      querystring: ModeQuery,
      body: Body({}),
      response: { 200: LinkRecord },
    },
    handler: async (req) => {
      return record(await cancelLink(deps, tenant(req), req.params.token));
    },
  });
}
