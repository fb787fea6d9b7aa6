// Onboarding (decisions 19): one state machine per client and mode, behind /onboarding/provider/* (and the
// partner's white-label calls later). Two mechanisms share it:
//   sandbox (test mode, and live with the sandbox or gateway driver): start sends a one-time code by SMS
//     (the sandbox's code is 000000; numbers ending 0000 are no customer, 0001 a provider failure); verify
//     checks it (5 wrong codes lock for 15 minutes; a code lives 10 minutes); resend at least 60 s apart,
//     at most 5 times.
//   qrapi (live with PROVIDER_DRIVER=qrapi): start checks the credentials and reads the trade points;
//     verify registers the device on the chosen one; resend reads the trade points again.
// A connected machine makes the new account the default when the client has none in that mode.
import type { Deps, DbSecretsDeps } from '../../deps.ts';
import type { Mode, Tenant } from '../tenant.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors.ts';
import { sha256Hex, safeEqual } from '../../crypto.ts';
import { enqueueMessage } from '../channels/outbox.ts';
import {
  createProviderAccount,
  defaultAccountId,
  openCredentials,
  sealCredentials,
  setAccountOrgBin,
} from '../payments/provider-accounts.ts';
import { normalizePhone } from '../payments/input.ts';
import { qrapiConnect, qrapiTradePoints } from '../payments/qrapi-connect.ts';
import { checkBin } from '../organization/requisites.ts';
import type { QrapiCredentials } from '../../providers/qrapi/connection.ts';
import { invalidate } from '../../infra/cache.ts';

export const ONE_TIME_CODE_MINUTES = 10;
export const ATTEMPTS = 5;
export const LOCK_MINUTES = 15;
export const RESEND_SPACING_S = 60;
export const RESENDS_MAX = 5;
const SANDBOX_CODE = '000000';

export type State = 'idle' | 'code_sent' | 'trade_point_required' | 'connected' | 'expired' | 'locked' | 'failed';

interface Row {
  state: State;
  mechanism: 'sandbox' | 'qrapi';
  phone: string | null;
  display_name: string | null;
  org_bin: string | null;
  code_hash: string | null;
  expires_at: Date | null;
  attempts_left: number | null;
  locked_until: Date | null;
  resends: number;
  last_sent_at: Date | null;
  credentials_sealed: string | null;
  trade_points: { id: number; name: string }[] | null;
  account_id: number | null;
}

export interface Status {
  state: State;
  mode: Mode;
  next_step: 'start' | 'enter_code' | 'choose_trade_point' | null;
  expires_at: Date | null;
  attempts_left: number | null;
  account_id: number | null;
  /** how this mode connects: a one-time code (sandbox) or the official API's certificate and trade point */
  mechanism: 'sandbox' | 'qrapi';
  /** code_sent: where the code went (a wizard reloaded halfway shows it again) */
  phone_masked?: string;
  /** trade_point_required: the points to choose from */
  trade_points?: { id: number; name: string }[];
}

export function mechanismFor(deps: Pick<Deps, 'config'>, mode: Mode): 'sandbox' | 'qrapi' {
  return mode === 'live' && deps.config.providerDriver === 'qrapi' ? 'qrapi' : 'sandbox';
}

const NEXT: Record<State, Status['next_step']> = {
  idle: 'start',
  code_sent: 'enter_code',
  trade_point_required: 'choose_trade_point',
  connected: null,
  expired: 'start',
  locked: 'start',
  failed: 'start',
};

async function load(db: Queryable, clientId: number, mode: Mode, lock = false): Promise<Row | undefined> {
  const r = await db.query<Row>(
    `SELECT * FROM onboarding WHERE client_id = $1 AND mode = $2${lock ? ' FOR UPDATE' : ''}`,
    [clientId, mode],
  );
  return r.rows[0];
}

const hasAccount = (db: Queryable, clientId: number, mode: Mode) => defaultAccountId(db, { clientId, mode });

/** The state as the client sees it: a code past its time is `expired`, a lock past its time ends. */
export async function onboardingStatus(deps: Pick<Deps, 'config' | 'db' | 'clock'>, tenant: Tenant): Promise<Status> {
  const { clientId, mode } = tenant;
  const row = await load(deps.db, clientId, mode);
  const now = deps.clock.now().getTime();
  if (!row) {
    // No onboarding yet: a client whose mode already has an account (test mode's sandbox) is connected.
    const account = await hasAccount(deps.db, clientId, mode);
    const state: State = account ? 'connected' : 'idle';
    return {
      state,
      mode,
      next_step: NEXT[state],
      expires_at: null,
      attempts_left: null,
      account_id: account,
      mechanism: mechanismFor(deps, mode),
    };
  }
  let state = row.state;
  // Connected once, but its last account has since been deleted: start again from the beginning
  // (decisions 26), rather than `already_connected` to an account that is gone.
  if (state === 'connected' && !(await hasAccount(deps.db, clientId, mode))) {
    return {
      state: 'idle',
      mode,
      next_step: NEXT.idle,
      expires_at: null,
      attempts_left: null,
      account_id: null,
      mechanism: mechanismFor(deps, mode),
    };
  }
  if (state === 'code_sent' && row.expires_at && row.expires_at.getTime() <= now) state = 'expired';
  if (state === 'locked' && row.locked_until && row.locked_until.getTime() <= now) state = 'expired';
  return {
    state,
    mode,
    next_step: NEXT[state],
    expires_at: state === 'code_sent' ? row.expires_at : state === 'locked' ? row.locked_until : null,
    attempts_left: state === 'code_sent' ? row.attempts_left : null,
    account_id: row.account_id,
    mechanism: state === 'connected' ? row.mechanism : mechanismFor(deps, mode),
    ...(state === 'code_sent' && row.phone ? { phone_masked: masked(row.phone) } : {}),
    ...(state === 'trade_point_required' && row.trade_points ? { trade_points: row.trade_points } : {}),
  };
}

async function save(
  tx: Queryable,
  clientId: number,
  mode: Mode,
  r: Partial<Row> & { state: State; mechanism: Row['mechanism'] },
): Promise<void> {
  const cols = Object.keys(r);
  await tx.query(
    `INSERT INTO onboarding (client_id, mode, ${cols.join(', ')}, updated_at)
      VALUES ($1, $2, ${cols.map((_, i) => `$${i + 3}`).join(', ')}, now())
     ON CONFLICT (client_id, mode)
     DO UPDATE SET ${cols.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()`,
    [
      clientId,
      mode,
      ...cols.map((c) => {
        const v = (r as Record<string, unknown>)[c];
        return c === 'trade_points' && v !== null ? JSON.stringify(v) : v;
      }),
    ],
  );
}

const masked = (phone: string) => `${phone.slice(0, 4)}*****${phone.slice(-2)}`;

async function refuseIfConnected(
  deps: Pick<Deps, 'config' | 'db' | 'clock'>,
  clientId: number,
  mode: Mode,
  force: boolean | undefined,
): Promise<void> {
  if (force) return;
  const s = await onboardingStatus(deps, { clientId, mode });
  if (s.state === 'connected')
    throw new AppError(
      'already_connected',
      `the ${mode} mode is already connected; send {"force": true} to connect another account`,
    );
}

export interface SandboxStart {
  phone: string;
  display_name?: string;
  org_bin?: string;
  force?: boolean;
}

export async function startSandbox(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock'>,
  tenant: Tenant,
  input: SandboxStart,
) {
  const { clientId, mode } = tenant;
  await refuseIfConnected(deps, clientId, mode, input.force);
  const phone = normalizePhone(input.phone);
  const orgBin = input.org_bin ? binOrThrow(input.org_bin) : null;
  // The sandbox's fixed answers, so both outcomes can be tried.
  if (phone.endsWith('0000'))
    throw new AppError('client_not_found', `${phone} has no business account at the provider`, { param: 'phone' });
  if (phone.endsWith('0001')) throw new AppError('provider_error', 'the provider did not answer; retry later');
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + ONE_TIME_CODE_MINUTES * 60_000);
  await deps.db.tx(async (tx) => {
    const row = await load(tx, clientId, mode, true);
    if (row?.state === 'locked' && row.locked_until && row.locked_until > now) {
      throw new AppError('otp_locked', 'too many wrong codes; try again later', {
        headers: { 'Retry-After': retryAfter(row.locked_until, now) },
      });
    }
    await save(tx, clientId, mode, {
      state: 'code_sent',
      mechanism: 'sandbox',
      phone,
      display_name: input.display_name ?? null,
      org_bin: orgBin,
      code_hash: sha256Hex(SANDBOX_CODE),
      expires_at: expires,
      attempts_left: ATTEMPTS,
      locked_until: null,
      resends: 0,
      last_sent_at: now,
      credentials_sealed: null,
      trade_points: null,
      account_id: null,
    });
    await sendCode(tx, deps, clientId, phone);
  });
  return {
    state: 'code_sent' as const,
    next_step: 'enter_code' as const,
    phone_masked: masked(phone),
    expires_at: expires,
    resend_available_at: new Date(now.getTime() + RESEND_SPACING_S * 1000),
  };
}

const sendCode = (tx: Queryable, deps: Pick<Deps, 'secrets'>, clientId: number, phone: string) =>
  enqueueMessage(
    tx,
    {
      channel: 'sms',
      recipient: phone,
      clientId,
      purpose: 'onboarding_code',
      body:
        `Tolem: your code to connect the provider account is ${SANDBOX_CODE}. ` +
        `It is valid ${ONE_TIME_CODE_MINUTES} minutes.`,
      secrets: [SANDBOX_CODE],
    },
    deps.secrets.sealer,
  );

const retryAfter = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

function binOrThrow(raw: string): string {
  const c = checkBin(raw);
  if (!c.ok) throw new AppError('invalid_parameter', `org_bin ${c.why}`, { param: 'org_bin' });
  return c.value;
}

export async function verifySandbox(deps: Pick<Deps, 'config' | 'db' | 'clock'>, tenant: Tenant, code: string) {
  const { clientId, mode } = tenant;
  const now = deps.clock.now();
  // The attempt is counted in its own transaction, committed whatever the answer, so the count holds.
  const outcome = await deps.db.tx(async (tx) => {
    const row = await load(tx, clientId, mode, true);
    if (!row || row.mechanism !== 'sandbox' || !['code_sent', 'locked'].includes(row.state)) {
      return { error: new AppError('onboarding_state', 'no code was sent; start first') };
    }
    if (row.state === 'locked' && row.locked_until && row.locked_until > now) {
      return {
        error: new AppError('otp_locked', 'too many wrong codes; try again later', {
          headers: { 'Retry-After': retryAfter(row.locked_until, now) },
        }),
      };
    }
    if (row.state === 'locked' || (row.expires_at && row.expires_at <= now)) {
      await save(tx, clientId, mode, { state: 'expired', mechanism: 'sandbox' });
      return { error: new AppError('otp_expired', 'the code expired; start again', { param: 'code' }) };
    }
    if (!safeEqual(sha256Hex(code), row.code_hash ?? '')) {
      const left = (row.attempts_left ?? ATTEMPTS) - 1;
      if (left <= 0) {
        const until = new Date(now.getTime() + LOCK_MINUTES * 60_000);
        await save(tx, clientId, mode, {
          state: 'locked',
          mechanism: 'sandbox',
          attempts_left: 0,
          locked_until: until,
        });
        return {
          error: new AppError('otp_locked', `too many wrong codes; locked for ${LOCK_MINUTES} minutes`, {
            headers: { 'Retry-After': LOCK_MINUTES * 60 },
          }),
        };
      }
      await save(tx, clientId, mode, { state: 'code_sent', mechanism: 'sandbox', attempts_left: left });
      return {
        error: new AppError('otp_invalid', 'the code is wrong', { param: 'code', extra: { attempts_left: left } }),
      };
    }
    const driver = mode === 'test' ? 'sandbox' : deps.config.providerDriver;
    const providerAccountId = await connectAccount(tx, clientId, mode, {
      driver,
      displayName: row.display_name ?? 'Provider account',
      orgBin: row.org_bin,
    });
    await save(tx, clientId, mode, {
      state: 'connected',
      mechanism: 'sandbox',
      code_hash: null,
      account_id: providerAccountId,
    });
    return { providerAccountId };
  });
  if ('error' in outcome) throw outcome.error;
  return connectedAnswer(deps, clientId, mode, outcome.providerAccountId);
}

async function connectAccount(
  tx: Queryable,
  clientId: number,
  mode: Mode,
  a: { driver: string; displayName: string; orgBin: string | null },
): Promise<number> {
  // The first account of this mode becomes the default (createProviderAccount decides when isDefault is absent).
  return createProviderAccount(tx, {
    clientId,
    mode,
    driver: a.driver,
    displayName: a.displayName,
    orgBin: a.orgBin,
  });
}

async function connectedAnswer(
  deps: Pick<Deps, 'config' | 'db' | 'clock'>,
  clientId: number,
  mode: Mode,
  providerAccountId: number,
) {
  return {
    ...(await onboardingStatus(deps, { clientId, mode })),
    state: 'connected' as const,
    next_step: null,
    account_id: providerAccountId,
  };
}

export async function resendSandbox(deps: Pick<Deps, 'db' | 'secrets' | 'clock'>, tenant: Tenant) {
  const { clientId, mode } = tenant;
  const now = deps.clock.now();
  return deps.db.tx(async (tx) => {
    const row = await load(tx, clientId, mode, true);
    if (!row || row.state !== 'code_sent' || !row.phone)
      throw new AppError('onboarding_state', 'no code is waiting; start first');
    const due = new Date((row.last_sent_at?.getTime() ?? 0) + RESEND_SPACING_S * 1000);
    if (due > now)
      throw new AppError('rate_limit_exceeded', 'a code was sent less than a minute ago', {
        headers: { 'Retry-After': retryAfter(due, now) },
      });
    if (row.resends >= RESENDS_MAX)
      throw new AppError('rate_limit_exceeded', `at most ${RESENDS_MAX} resends; start again later`, {
        headers: { 'Retry-After': ONE_TIME_CODE_MINUTES * 60 },
      });
    const expires = new Date(now.getTime() + ONE_TIME_CODE_MINUTES * 60_000);
    await save(tx, clientId, mode, {
      state: 'code_sent',
      mechanism: 'sandbox',
      resends: row.resends + 1,
      last_sent_at: now,
      expires_at: expires,
    });
    await sendCode(tx, deps, clientId, row.phone);
    return {
      state: 'code_sent' as const,
      next_step: 'enter_code' as const,
      phone_masked: masked(row.phone),
      expires_at: expires,
      resend_available_at: new Date(now.getTime() + RESEND_SPACING_S * 1000),
    };
  });
}

// The official-API mechanism.
export interface QrapiStart {
  org_bin: string;
  display_name?: string;
  credentials?:
    | { scheme: 'r1'; api_key: string }
    | { scheme: 'r2' | 'r3'; certificate_pfx_base64: string; password: string };
  force?: boolean;
}

function credentialsOf(deps: Pick<Deps, 'config' | 'providers'>, input: QrapiStart): QrapiCredentials {
  const c = input.credentials;
  if (!c) {
    const pfx = deps.providers.qrapi?.operatorPfx;
    if (!pfx)
      throw new AppError('invalid_parameter', 'credentials are required (the operator has no certificate of its own)', {
        param: 'credentials',
      });
    return { scheme: 'r3', pfx, password: deps.config.qrapi.operatorPfxPassword ?? '' };
  }
  if (c.scheme === 'r1') return { scheme: 'r1', apiKey: c.api_key };
  const pfx = Buffer.from(c.certificate_pfx_base64, 'base64');
  if (!pfx.length)
    throw new AppError('invalid_parameter', 'certificate_pfx_base64 is empty', {
      param: 'credentials.certificate_pfx_base64',
    });
  return { scheme: c.scheme, pfx, password: c.password };
}

export async function startQrapi(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock' | 'providers'>,
  clientId: number,
  input: QrapiStart,
) {
  await refuseIfConnected(deps, clientId, 'live', input.force);
  const orgBin = binOrThrow(input.org_bin);
  const credentials = credentialsOf(deps, input);
  const points = await qrapiTradePoints(deps, { credentials, orgBin: credentials.scheme === 'r3' ? orgBin : null });
  await deps.db.tx((tx) =>
    save(tx, clientId, 'live', {
      state: 'trade_point_required',
      mechanism: 'qrapi',
      org_bin: orgBin,
      display_name: input.display_name ?? null,
      credentials_sealed: sealCredentials(deps, credentials),
      trade_points: points,
      account_id: null,
      code_hash: null,
      phone: null,
    }),
  );
  return { state: 'trade_point_required' as const, next_step: 'choose_trade_point' as const, trade_points: points };
}

async function pendingQrapi(deps: DbSecretsDeps, clientId: number) {
  const row = await load(deps.db, clientId, 'live');
  if (
    !row ||
    row.mechanism !== 'qrapi' ||
    row.state !== 'trade_point_required' ||
    !row.credentials_sealed ||
    !row.org_bin
  ) {
    throw new AppError('onboarding_state', 'start first: no credentials are waiting for a trade point');
  }
  return { row, credentials: openCredentials(deps, row.credentials_sealed), orgBin: row.org_bin };
}

export async function verifyQrapi(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock' | 'providers' | 'caches'>,
  clientId: number,
  tradePointId: number,
) {
  const { row, credentials, orgBin } = await pendingQrapi(deps, clientId);
  const providerAccountId = await qrapiConnect(deps, clientId, {
    credentials,
    orgBin: credentials.scheme === 'r3' ? orgBin : null,
    tradePointId,
    displayName: row.display_name ?? undefined,
  });
  await deps.db.tx(async (tx) => {
    if (credentials.scheme !== 'r3') await setAccountOrgBin(tx, providerAccountId, orgBin);
    // The credentials now live (sealed) on the account only.
    await save(tx, clientId, 'live', {
      state: 'connected',
      mechanism: 'qrapi',
      credentials_sealed: null,
      trade_points: null,
      account_id: providerAccountId,
    });
    await invalidate(tx, `account:${clientId}:`, deps.caches);
  });
  return connectedAnswer(deps, clientId, 'live', providerAccountId);
}

export async function resendQrapi(deps: Pick<Deps, 'db' | 'secrets' | 'clock' | 'providers'>, clientId: number) {
  const { credentials, orgBin } = await pendingQrapi(deps, clientId);
  const points = await qrapiTradePoints(deps, { credentials, orgBin: credentials.scheme === 'r3' ? orgBin : null });
  await deps.db.tx((tx) =>
    save(tx, clientId, 'live', { state: 'trade_point_required', mechanism: 'qrapi', trade_points: points }),
  );
  return { state: 'trade_point_required' as const, next_step: 'choose_trade_point' as const, trade_points: points };
}
