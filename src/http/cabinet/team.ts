// The team (decisions 16, 17): members, invites (the token and link shown once, and e-mailed), role
// changes and revocation. Changes are the owner's alone and blocked under partner impersonation.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { changeRole, inviteMember, listTeam, revokeMember } from '../../domain/accounts/team.ts';
import { ROLES, type Role } from '../../domain/access/principal.ts';
import { cabinetUser } from '../context.ts';
import { IgnoredModeQuery, numericId } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Timestamp } from '../schemas.ts';

const InvitableRole = Type.String({
  enum: ['admin', 'accountant', 'support', 'viewer', 'cashier'],
  description: 'any role but owner (cashier: the counters alone, decisions 28)',
});

const Member = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    name: Type.String(),
    role: Type.String({ enum: [...ROLES] }),
    status: Type.String({ enum: ['invited', 'active', 'revoked'] }),
    created_at: Timestamp,
  },
  { title: 'TeamMember' },
);

const Invited = Type.Object(
  {
    ...Member.properties,
    invite_token: Type.String({ description: 'shown once; also e-mailed as invite_url' }),
    invite_url: Type.String({ description: 'the dashboard registration page with the token; shown once' }),
    invite_expires_at: Timestamp,
  },
  { title: 'TeamInvite' },
);

const MemberParams = Type.Object({ member_id: Type.String() });
const memberId = (raw: string) => numericId(raw, 'member_not_found', 'member');
type InvitableRole = Exclude<Role, 'owner'>;

export function teamRoutes(app: App, deps: Deps): void {
  const tags = ['team'];
  const querystring = Type.Object(IgnoredModeQuery);
  route(app, {
    method: 'GET',
    url: '/me/team',
    auth: ['jwt'],
    permission: 'account.read',
    schema: {
      tags,
      summary: 'Team members: active and invited first, then revoked (at most 200)',
      querystring,
      response: { 200: Type.Object({ data: Type.Array(Member) }) },
    },
    handler: async (req) => ({ data: await listTeam(deps, cabinetUser(req)) }),
  });
  route(app, {
    method: 'POST',
    url: '/me/team/invite',
    auth: ['jwt'],
    permission: 'team.manage',
    errors: [409],
    schema: {
      tags,
      summary: 'Invite a member by e-mail (valid 7 days; at most 50 members)',
      querystring,
      body: Body(
        {
          email: Type.String({ format: 'email', maxLength: 254 }),
          role: InvitableRole,
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        },
        'TeamInviteRequest',
      ),
      response: { 201: Invited },
    },
    handler: async (req, reply) =>
      reply
        .status(201)
        .send(await inviteMember(deps, cabinetUser(req), { ...req.body, role: req.body.role as InvitableRole })),
  });
  route(app, {
    method: 'PATCH',
    url: '/me/team/:member_id',
    auth: ['jwt'],
    permission: 'team.manage',
    errors: [404, 409],
    schema: {
      tags,
      summary: "Change a member's role (the owner's cannot change: 409 owner_immutable)",
      querystring,
      params: MemberParams,
      body: Body({ role: InvitableRole }, 'TeamRoleRequest'),
      response: { 200: Member },
    },
    handler: async (req) =>
      changeRole(deps, cabinetUser(req), memberId(req.params.member_id), req.body.role as InvitableRole),
  });
  route(app, {
    method: 'DELETE',
    url: '/me/team/:member_id',
    auth: ['jwt'],
    permission: 'team.manage',
    errors: [404, 409],
    schema: {
      tags,
      summary: 'Revoke a member: its sessions end at once, the row stays listed',
      querystring,
      params: MemberParams,
      response: { 204: Type.Null({ description: 'revoked' }) },
    },
    handler: async (req, reply) => {
      await revokeMember(deps, cabinetUser(req), memberId(req.params.member_id));
      return reply.status(204).send(null);
    },
  });
}
