// The partner cabinet's referral links (decisions 21), and their public face GET /r/{code}.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { clickLink, createLink, deleteLink, getLink, listLinks, patchLink } from '../../domain/partners/referrals.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { AppError } from '../../errors.ts';
import { IdParams, IgnoredModeQuery, numericId, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, Page } from '../schemas.ts';
import { ReferralLink as Link } from '../shapes/referral-link.ts';
import { partnerOf, querystring, tags } from './shared.ts';

const linkId = (raw: string) => numericId(raw, 'referral_link_not_found', 'link');

export function partnerLinkRoutes(app: App, deps: Deps): void {
  const partner = partnerOf(deps);
  route(app, {
    method: 'GET',
    url: '/partner/links',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'Referral links, newest first',
      querystring: Type.Object({ ...IgnoredModeQuery, ...PageQuery }),
      response: { 200: Page(Link) },
    },
    handler: async (req) =>
      listLinks(deps, (await partner(req)).id, { cursor: req.query.cursor, limit: parseLimit(req.query.limit) }),
  });
  route(app, {
    method: 'POST',
    url: '/partner/links',
    auth: ['jwt'],
    permission: 'partner.manage',
    schema: {
      tags,
      summary: 'A new referral link',
      querystring,
      body: Type.Optional(
        Body({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }, 'ReferralLinkRequest'),
      ),
      response: { 201: Link },
    },
    handler: async (req, reply) =>
      reply.status(201).send(await createLink(deps, (await partner(req)).id, req.body?.name)),
  });
  route(app, {
    method: 'GET',
    url: '/partner/links/:id',
    auth: ['jwt'],
    permission: 'partner.read',
    errors: [404],
    schema: { tags, summary: 'One referral link', params: IdParams, querystring, response: { 200: Link } },
    handler: async (req) => getLink(deps, (await partner(req)).id, linkId(req.params.id)),
  });
  route(app, {
    method: 'PATCH',
    url: '/partner/links/:id',
    auth: ['jwt'],
    permission: 'partner.manage',
    errors: [404],
    schema: {
      tags,
      summary: 'Rename, switch on or off',
      params: IdParams,
      querystring,
      body: Body(
        {
          name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
          is_active: Type.Optional(Type.Boolean()),
        },
        'ReferralLinkPatch',
      ),
      response: { 200: Link },
    },
    handler: async (req) => patchLink(deps, (await partner(req)).id, linkId(req.params.id), req.body),
  });
  route(app, {
    method: 'DELETE',
    url: '/partner/links/:id',
    auth: ['jwt'],
    permission: 'partner.manage',
    errors: [404],
    schema: {
      tags,
      summary: 'Delete a referral link (its code stops working)',
      params: IdParams,
      querystring,
      response: { 204: Type.Null({ description: 'deleted' }) },
    },
    handler: async (req, reply) => {
      await deleteLink(deps, (await partner(req)).id, linkId(req.params.id));
      return reply.status(204).send(null);
    },
  });
}

/** GET /r/{code}: a referral link's public face. Counts the click, then registration with the code. */
export function referralRedirectRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'GET',
    url: '/r/:code',
    auth: [],
    errors: [404],
    schema: {
      tags,
      summary: "A partner's referral link: counts a click and redirects (302) to registration with the code",
      params: Type.Object({ code: Type.String({ maxLength: 64 }) }),
      response: { 302: Type.Null({ description: 'to DASHBOARD_URL/register?referral_code=<code>' }) },
    },
    handler: async (req, reply) => {
      const code = await clickLink(deps, req.params.code);
      if (!code) throw new AppError('referral_link_not_found', 'this referral link does not exist or is switched off');
      return reply.redirect(`${deps.config.dashboardUrl}/register?referral_code=${encodeURIComponent(code)}`, 302);
    },
  });
}
