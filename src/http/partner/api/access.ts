// The partner integration API /partner/v1 (decisions 22): access to a client the partner created, a new
// API key of the key's mode and a one-time sign-in link for its owner.
import { Type } from 'typebox';
import type { Deps } from '../../../deps.ts';
import { loginLink, rotateClientKey } from '../../../domain/partners/managed-clients.ts';
import { partnerKey } from '../../context.ts';
import { route, type App } from '../../route.ts';
import { Body } from '../../schemas.ts';
import { LoginLink, PartnerClientKey } from '../../shapes/partner-client.ts';
import { RefParams, tags, write } from './shared.ts';

export function partnerApiAccessRoutes(app: App, deps: Deps): void {
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
        200: PartnerClientKey,
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
        201: LoginLink,
      },
    },
    handler: async (req, reply) => {
      const k = partnerKey(req);
      return reply.status(201).send(await loginLink(deps, k.partnerId, req.params.client_ref));
    },
  });
}
