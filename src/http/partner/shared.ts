// What the partner cabinet's routes share: their tag, the ?mode they ignore, the client id of a path, and
// the caller's partner (the user's own client must hold an active one).
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { activePartner } from '../../domain/partners/profile.ts';
import { cabinetUser } from '../context.ts';
import { IgnoredModeQuery, numericId } from '../params.ts';

export const tags = ['partner'];
export const querystring = Type.Object(IgnoredModeQuery);
export const clientId = (raw: string) => numericId(raw, 'client_not_found', 'client');

/** The active partner of the calling user's client, for the routes that need one. */
export const partnerOf = (deps: Deps) => (req: FastifyRequest) => activePartner(deps, cabinetUser(req));
