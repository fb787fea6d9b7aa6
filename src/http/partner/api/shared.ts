// What the partner API's routes share: their tag, their audience and permissions, the client_ref of a
// path, and the client it names.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.ts';
import { activeClientRef, resolveClientRef } from '../../../domain/partners/managed-clients.ts';
import { partnerKey } from '../../context.ts';

export const tags = ['partner API'];
const auth = ['partner'] as const;
export const read = { auth, permission: 'partner_api.read' } as const;
export const write = { auth, permission: 'partner_api.write' } as const;

export const ClientRef = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'your external_id of the client, else its numeric id',
});
export const RefParams = Type.Object({ client_ref: ClientRef });

/** The client a path's client_ref names, of the key's partner, with the key's mode; `changes`: not disabled. */
export const targetOf =
  (deps: Deps) =>
  async (req: FastifyRequest, changes = false) => {
    const k = partnerKey(req);
    const ref = (req.params as { client_ref: string }).client_ref;
    const c = await (changes ? activeClientRef : resolveClientRef)(deps.db, k.partnerId, ref);
    return { clientId: c.id, mode: k.mode, partnerId: k.partnerId };
  };
