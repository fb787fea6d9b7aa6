// Checkout branding (JWT): what payers see on the hosted page. Every role reads it; owner and admin
// change it (branding.write); logo upload is switched off (logos are linked by https URL).
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { getBranding, updateBranding } from '../../domain/branding/branding.ts';
import { cabinetUser } from '../context.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable } from '../schemas.ts';

const Branding = Type.Object({
  display_name: Nullable(Type.String()),
  logo_url: Nullable(Type.String()),
  brand_color: Nullable(Type.String()),
  support_email: Nullable(Type.String()),
});

// Types only: the rules (and their codes bad_color / bad_email) are checked in the domain, so that a
// malformed colour is 400 bad_color as specified rather than a generic schema error.
const BrandingPatch = Body({
  display_name: Type.Optional(Nullable(Type.String({ description: '1 to 100 characters; null clears' }))),
  logo_url: Type.Optional(Nullable(Type.String({ description: 'https URL, at most 2083 characters; null clears' }))),
  brand_color: Type.Optional(
    Nullable(Type.String({ description: '^#[0-9A-Fa-f]{6}$ else 400 bad_color; null clears' })),
  ),
  support_email: Type.Optional(
    Nullable(Type.String({ description: 'e-mail address else 400 bad_email; null clears' })),
  ),
});

export function brandingRoutes(app: App, deps: Deps): void {
  const tags = ['branding'];

  route(app, {
    method: 'GET',
    url: '/me/branding',
    auth: ['jwt'],
    permission: 'account.read',
    schema: { tags, summary: 'Checkout branding', response: { 200: Branding } },
    handler: async (req) => getBranding(deps.db, cabinetUser(req).clientId),
  });

  route(app, {
    method: 'PATCH',
    url: '/me/branding',
    auth: ['jwt'],
    permission: 'branding.write',
    schema: {
      tags,
      summary: 'Change checkout branding (owner, admin)',
      body: BrandingPatch,
      response: { 200: Branding },
    },
    handler: async (req) => updateBranding(deps, cabinetUser(req), req.body),
  });

  // Accepts any body type: the answer is 501 whatever is sent (a multipart upload included).
  app.register(async (sub) => {
    sub.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    route(sub as unknown as App, {
      method: 'POST',
      url: '/me/branding/logo',
      auth: ['jwt'],
      permission: 'branding.write',
      errors: [501],
      schema: { tags, summary: 'Logo upload: always 501 logo_upload_disabled (set logo_url instead)' },
      handler: async () => {
        throw new AppError('logo_upload_disabled', 'logo upload is disabled; set logo_url to an https address instead');
      },
    });
  });
}
