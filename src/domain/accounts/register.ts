// Registration: a new client (merchant) on the trial plan, its owner, and its live and test API keys,
// all in one transaction. The keys are returned once, here.
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors.ts';
import { hashPassword } from './passwords.ts';
import { issueApiKey } from './api-keys.ts';
import { issueTokenPair, type TokenPair } from './tokens.ts';
import { verifyIdToken } from './oidc.ts';
import { createProviderAccount } from '../payments/provider-accounts.ts';
import { acceptInvite } from './team.ts';
import { TxHooks } from '../tx-hooks.ts';

export const TRIAL_DAYS = 14;

/** What a registration announces in its transaction: who registered, and through which partner's code or invitation. */
export interface ClientRegistered {
  clientId: number;
  email: string;
  referralCode?: string;
  partnerInviteToken?: string;
}

/**
 * Runs in the registration's transaction once the client exists. Partner attribution subscribes to it
 * (domain/subscribers.ts), so accounts never import partners; a subscriber that throws refuses the
 * registration (an unknown referral code is a 400, and nothing is kept).
 */
export const afterClientRegistered = new TxHooks<ClientRegistered>('client registered');

export interface RegisterInput {
  name: string;
  email?: string;
  password?: string;
  provider?: string;
  id_token?: string;
  /** joining a team (decisions 17: inv_...), or a partner's invitation to a new client (decisions 21: pinv_...) */
  invite_token?: string;
  /** a partner's referral link's code (decisions 21) */
  referral_code?: string;
}

export interface Registered extends TokenPair {
  /** absent when joining a team: the client's keys are its owner's */
  api_keys?: { live: string; test: string };
}

export async function register(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock'>,
  input: RegisterInput,
): Promise<Registered> {
  const partnerInvite = input.invite_token?.startsWith('pinv_') ? input.invite_token : undefined;
  if (input.invite_token !== undefined && !partnerInvite) {
    if (input.id_token !== undefined || input.provider !== undefined) {
      throw new AppError('invalid_parameter', 'an invitation is accepted with a password', { param: 'id_token' });
    }
    return acceptInvite(deps, {
      token: input.invite_token,
      name: input.name,
      password: input.password,
      email: input.email,
    });
  }
  let email: string;
  let passwordHash: string | null = null;
  let oidc: { issuer: string; subject: string } | null = null;
  if (input.id_token !== undefined || input.provider !== undefined) {
    if (!input.provider)
      throw new AppError('invalid_parameter', 'provider is required with id_token', { param: 'provider' });
    if (!input.id_token)
      throw new AppError('invalid_parameter', 'id_token is required with provider', { param: 'id_token' });
    if (input.password !== undefined)
      throw new AppError('invalid_parameter', 'send either password or id_token', { param: 'password' });
    const identity = await verifyIdToken(deps.config, input.provider, input.id_token);
    email = identity.email;
    oidc = { issuer: identity.issuer, subject: identity.subject };
  } else {
    if (!input.email) throw new AppError('invalid_parameter', 'email is required', { param: 'email' });
    if (input.password === undefined)
      throw new AppError('invalid_parameter', 'password is required', { param: 'password' });
    email = input.email.toLowerCase();
    passwordHash = await hashPassword(input.password);
  }
  const isAdmin = deps.config.adminEmails.includes(email);
  return deps.db.tx(async (tx) => {
    const opened = await openClient(tx, { name: input.name, email, passwordHash, oidc, isAdmin });
    await afterClientRegistered.run(tx, {
      clientId: opened.clientId,
      email,
      referralCode: input.referral_code,
      partnerInviteToken: partnerInvite,
    });
    const pair = await issueTokenPair(deps, tx, { id: opened.userId, client_id: opened.clientId, role: 'owner' });
    return { ...pair, api_keys: opened.api_keys };
  });
}

export interface NewClient {
  name: string;
  email: string;
  /** null: a password-less owner (signs in by OpenID Connect, or by a partner's login link) */
  passwordHash: string | null;
  oidc?: { issuer: string; subject: string } | null;
  isAdmin?: boolean;
}

/**
 * A new client on the trial plan with its owner, its live and test API keys and its test-mode sandbox
 * account, in the caller's transaction: registration and the partner API's upsert make clients alike.
 */
export async function openClient(
  tx: Queryable,
  c: NewClient,
): Promise<{ clientId: number; userId: number; api_keys: { live: string; test: string } }> {
  const taken = await tx.query('SELECT 1 FROM users WHERE lower(email) = $1', [c.email]);
  if (taken.rows.length) throw new AppError('email_taken', 'an account with this e-mail exists', { param: 'email' });
  const client = await tx.query<{ id: number }>(
    `INSERT INTO clients (name, email, trial_ends_at) VALUES ($1, $2, now() + make_interval(days => $3)) RETURNING id`,
    [c.name, c.email, TRIAL_DAYS],
  );
  const clientId = client.rows[0].id;
  // The unique index on lower(email) settles a race between two registrations of one e-mail.
  const user = await tx
    .query<{ id: number }>(
      `INSERT INTO users (client_id, email, name, password_hash, oidc_issuer, oidc_subject, role, is_admin)
       VALUES ($1, $2, $3, $4, $5, $6, 'owner', $7) RETURNING id`,
      [clientId, c.email, c.name, c.passwordHash, c.oidc?.issuer ?? null, c.oidc?.subject ?? null, c.isAdmin ?? false],
    )
    .catch((err: { code?: string }) => {
      if (err.code === '23505')
        throw new AppError('email_taken', 'an account with this e-mail exists', { param: 'email' });
      throw err;
    });
  const live = await issueApiKey(tx, { clientId, mode: 'live' });
  const test = await issueApiKey(tx, { clientId, mode: 'test' });
  // Test mode works from the first minute: its sandbox provider account exists from registration.
  await createProviderAccount(tx, {
    clientId,
    mode: 'test',
    driver: 'sandbox',
    displayName: 'Sandbox',
    isDefault: true,
  });
  return { clientId, userId: user.rows[0].id, api_keys: { live: live.api_key, test: test.api_key } };
}
