// The partner cabinet (decisions 21): applying to be a partner and the profile. A JWT of a user of the
// partner's own client; roles as decisions 16 say for partners; nothing here is allowed under impersonation.
// The profile answers whatever the partner's status; every other partner route needs an active partner.
import { userMessengerChat } from '../../domain/accounts/users-store.ts';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { partnerOfClient, registerPartner, type Partner } from '../../domain/partners/profile.ts';
import { bankDetailsSet } from '../../domain/partners/money.ts';
import { AppError } from '../../errors.ts';
import { cabinetUser } from '../context.ts';
import { route, type App } from '../route.ts';
import { Body } from '../schemas.ts';
import { PartnerProfile } from '../shapes/partner-profile.ts';
import { querystring, tags } from './shared.ts';

async function profileView(deps: Deps, p: Partner, userId: number) {
  const linked = (await userMessengerChat(deps.db, userId)) !== null;
  return { ...p, messenger_linked: linked, bank_details_set: await bankDetailsSet(deps, p.id) };
}

export function partnerProfileRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'POST',
    url: '/partner/auth/register',
    auth: ['jwt'],
    permission: 'partner.owner',
    errors: [409],
    schema: {
      tags,
      summary: 'Apply to be a partner (approved by an admin, or at once with PARTNER_AUTO_APPROVE)',
      querystring,
      body: Body(
        {
          company_name: Type.String({ minLength: 1, maxLength: 200 }),
          website: Type.Optional(
            Type.String({
              maxLength: 300,
              description: 'an http or https URL (else 400 invalid_parameter, param website)',
            }),
          ),
          contact_phone: Type.Optional(Type.String({ maxLength: 32 })),
        },
        'PartnerRegisterRequest',
      ),
      response: { 201: PartnerProfile },
    },
    handler: async (req, reply) => {
      const u = cabinetUser(req);
      return reply.status(201).send(await profileView(deps, await registerPartner(deps, u, req.body), u.userId));
    },
  });
  route(app, {
    method: 'GET',
    url: '/partner/me',
    auth: ['jwt'],
    permission: 'partner.read',
    errors: [404],
    schema: {
      tags,
      summary: 'The partner profile, whatever its status',
      querystring,
      response: { 200: PartnerProfile },
    },
    handler: async (req) => {
      const u = cabinetUser(req);
      const p = await partnerOfClient(deps.db, u.clientId);
      if (!p) throw new AppError('partner_not_found', 'this account has no partner profile');
      return profileView(deps, p, u.userId);
    },
  });
}
