// The partner cabinet's integration keys for the partner API (decisions 22): the owner's, shown once.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { activePartner } from '../../domain/partners/profile.ts';
import { issuePartnerKey, listPartnerKeys } from '../../domain/partners/keys.ts';
import { cabinetUser } from '../context.ts';
import { route, type App } from '../route.ts';
import { Body } from '../schemas.ts';
import { PartnerKey, PartnerKeyInfo } from '../shapes/partner-key.ts';
import { querystring, tags } from './shared.ts';

export function partnerKeyRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'GET',
    url: '/partner/integration/api-keys',
    auth: ['jwt'],
    permission: 'partner.owner',
    schema: {
      tags,
      summary: 'The partner API keys in force, one per mode at most: mode, prefix and date, never the key',
      querystring,
      response: { 200: Type.Object({ data: Type.Array(PartnerKeyInfo) }) },
    },
    handler: async (req) => {
      const p = await activePartner(deps, cabinetUser(req));
      return { data: await listPartnerKeys(deps, p.id) };
    },
  });
  route(app, {
    method: 'POST',
    url: '/partner/integration/api-keys',
    auth: ['jwt'],
    permission: 'partner.owner',
    schema: {
      tags,
      summary:
        'A partner API key of a mode (pk_live_/pk_test_), shown once; the previous one of that mode stops at once',
      querystring,
      body: Type.Optional(
        Body(
          { mode: Type.Optional(Type.String({ enum: ['live', 'test'], description: 'default live' })) },
          'PartnerKeyRequest',
        ),
      ),
      response: {
        201: PartnerKey,
      },
    },
    handler: async (req, reply) => {
      const p = await activePartner(deps, cabinetUser(req));
      return reply.status(201).send(await issuePartnerKey(deps, p.id, (req.body?.mode ?? 'live') as 'live' | 'test'));
    },
  });
}
