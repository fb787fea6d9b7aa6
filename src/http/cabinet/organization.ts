// The organization's requisites (decisions 17): GET and a whole-record PUT.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { getOrganization, ORG_TYPES, putOrganization } from '../../domain/organization/organization.ts';
import { cabinetUser } from '../context.ts';
import { IgnoredModeQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, NullableTimestamp } from '../schemas.ts';

const Text = (max: number, description?: string) =>
  Type.Optional(Nullable(Type.String({ maxLength: max, ...(description ? { description } : {}) })));

const Organization = Type.Object(
  {
    legal_name: Nullable(Type.String()),
    org_type: Nullable(Type.String({ enum: [...ORG_TYPES] })),
    bin: Nullable(Type.String({ description: 'BIN or IIN, 12 digits' })),
    legal_address: Nullable(Type.String()),
    actual_address: Nullable(Type.String()),
    director_name: Nullable(Type.String()),
    phone: Nullable(Type.String({ description: 'E.164' })),
    email: Nullable(Type.String()),
    kbe: Nullable(Type.String()),
    vat_payer: Nullable(Type.Boolean()),
    bank: Type.Object({
      iban: Nullable(Type.String()),
      bik: Nullable(Type.String()),
      bank_name: Nullable(Type.String()),
    }),
    updated_at: NullableTimestamp,
  },
  { title: 'Organization' },
);

const OrganizationBody = Body(
  {
    legal_name: Text(300),
    org_type: Type.Optional(Nullable(Type.String({ enum: [...ORG_TYPES] }))),
    bin: Text(20, 'BIN or IIN: 12 digits with the national check digit'),
    legal_address: Text(500),
    actual_address: Text(500),
    director_name: Text(200),
    phone: Text(32),
    email: Text(254),
    kbe: Text(2, 'beneficiary code, e.g. 17'),
    vat_payer: Type.Optional(Nullable(Type.Boolean())),
    bank: Type.Optional(
      Nullable(
        Body({
          iban: Text(40, 'KZ + 18 characters, mod-97 valid'),
          bik: Text(11, '8 to 11 characters'),
          bank_name: Text(200),
        }),
      ),
    ),
  },
  'OrganizationRequest',
);

export function organizationRoutes(app: App, deps: Deps): void {
  const tags = ['account'];
  route(app, {
    method: 'GET',
    url: '/me/organization',
    auth: ['jwt'],
    permission: 'account.read',
    schema: {
      tags,
      summary: 'Organization requisites (nulls until set)',
      querystring: Type.Object(IgnoredModeQuery),
      response: { 200: Organization },
    },
    handler: async (req) => getOrganization(deps, cabinetUser(req)),
  });
  route(app, {
    method: 'PUT',
    url: '/me/organization',
    auth: ['jwt'],
    permission: 'organization.write',
    schema: {
      tags,
      summary: 'Replace the organization requisites (omitted fields become null)',
      querystring: Type.Object(IgnoredModeQuery),
      body: OrganizationBody,
      response: { 200: Organization },
    },
    handler: async (req) => putOrganization(deps, cabinetUser(req), req.body),
  });
}
