// OpenID Connect id_token verification against configured issuers only (none by default).
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Config, OidcIssuer } from '../../config.ts';
import { AppError } from '../../errors.ts';

const jwksCache = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string;
}

export function findIssuer(config: Config, provider: string): OidcIssuer {
  const issuer = config.oidcIssuers.find((i) => i.name === provider);
  if (!issuer)
    throw new AppError('provider_not_enabled', `identity provider "${provider}" is not enabled`, { param: 'provider' });
  return issuer;
}

export async function verifyIdToken(config: Config, provider: string, idToken: string): Promise<OidcIdentity> {
  const issuer = findIssuer(config, provider);
  let jwks = jwksCache.get(issuer.jwks_uri);
  if (!jwks) jwksCache.set(issuer.jwks_uri, (jwks = createRemoteJWKSet(new URL(issuer.jwks_uri))));
  try {
    const { payload } = await jwtVerify(idToken, jwks, {
      issuer: issuer.issuer,
      audience: issuer.audience,
      algorithms: ['RS256', 'ES256', 'PS256', 'EdDSA'],
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    const email = typeof payload.email === 'string' ? payload.email.toLowerCase() : undefined;
    // Only an e-mail the issuer says it verified (some issuers send the claim as a string): an absent claim
    // would let whoever controls an unverified address take it here.
    if (!email || (payload.email_verified !== true && payload.email_verified !== 'true')) {
      throw new AppError('invalid_token', 'id_token carries no verified e-mail', { param: 'id_token' });
    }
    return { issuer: issuer.issuer, subject: payload.sub!, email };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('invalid_token', 'id_token is not valid for this provider', { param: 'id_token' });
  }
}
