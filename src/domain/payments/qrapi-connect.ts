// Connecting a live provider account through the official API (decisions 19, the official-API mechanism):
// check the credentials (certificate readable and not expired, ping), read the organization's trade
// points, then create the account with its credentials sealed and register its device on the chosen
// trade point (DeviceId `tolem-<installation id>-<account id>`, idempotent at the provider). The
// onboarding state machine drives these two steps; nothing here keeps state between them.
import type { Deps, ProviderDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { QrapiCredentials } from '../../providers/qrapi/connection.ts';
import { BadCertificate, readPfx } from '../../providers/qrapi/certificate.ts';
import { QrapiDriver } from '../../providers/qrapi/driver.ts';
import { ProviderRejected, ProviderSessionExpired, ProviderUnavailable } from '../../providers/types.ts';
import { rejection } from './provider-call.ts';
import { invalidate } from '../../infra/cache.ts';
import { sealCredentials } from './provider-accounts.ts';
import { deviceIdOf, installationId } from './installation.ts';

export interface QrapiConnectInput {
  credentials: QrapiCredentials;
  /** r3: the organization the calls are made for */
  orgBin: string | null;
}

function registry(deps: Pick<Deps, 'providers'>) {
  const r = deps.providers.qrapi;
  if (!r)
    throw new AppError('provider_not_enabled', 'live accounts through the official API need PROVIDER_DRIVER=qrapi');
  return r;
}

/** The certificate's expiry; an unreadable or expired certificate is refused with a clear 400. */
export function checkCertificate(deps: Pick<Deps, 'clock'>, c: QrapiCredentials): Date | null {
  if (c.scheme === 'r1') return null;
  let info;
  try {
    info = readPfx(c.pfx, c.password);
  } catch (err) {
    if (err instanceof BadCertificate)
      throw new AppError('invalid_parameter', err.message, { param: 'credentials.certificate_pfx_base64' });
    throw err;
  }
  if (info.notAfter.getTime() <= deps.clock.now().getTime()) {
    throw new AppError(
      'invalid_parameter',
      `the certificate expired on ${info.notAfter.toISOString()}; request a new one from the provider`,
      { param: 'credentials.certificate_pfx_base64' },
    );
  }
  return info.notAfter;
}

async function talk<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ProviderSessionExpired)
      throw new AppError('invalid_parameter', `the provider refused these credentials (${err.message})`, {
        param: 'credentials',
        cause: err,
      });
    // A named refusal (a device on another trade point, a trade point that is not the organization's).
    if (err instanceof ProviderRejected) throw rejection(err);
    if (err instanceof ProviderUnavailable)
      throw new AppError('provider_error', `the provider did not answer (${err.message})`, { cause: err });
    throw err;
  }
}

/** Step one: the credentials work; the organization's trade points. */
export async function qrapiTradePoints(
  deps: Pick<Deps, 'clock' | 'providers'>,
  input: QrapiConnectInput,
): Promise<{ id: number; name: string }[]> {
  checkCertificate(deps, input.credentials);
  const connection = registry(deps).connectionFor(input.credentials);
  try {
    const driver = new QrapiDriver({
      connection,
      orgBin: input.orgBin,
      deviceToken: null,
      allowClientInfo: async () => false,
    });
    await talk(() => driver.checkSession());
    return await talk(() => driver.tradePoints());
  } finally {
    await connection.close();
  }
}

/** Step two: the account, with its device registered on the trade point. Returns the account id. */
export async function qrapiConnect(
  deps: ProviderDeps,
  clientId: number,
  input: QrapiConnectInput & { tradePointId: number; displayName?: string },
): Promise<number> {
  const expires = checkCertificate(deps, input.credentials);
  const points = await qrapiTradePoints(deps, input);
  const point = points.find((p) => p.id === input.tradePointId);
  if (!point)
    throw new AppError('invalid_parameter', `trade point ${input.tradePointId} is not one of this organization's`, {
      param: 'trade_point_id',
    });
  const sealed = sealCredentials(deps, input.credentials);
  const providerAccountId = await deps.db.tx(async (tx) => {
    const hasDefault = await tx.query(
      `SELECT 1 FROM provider_accounts WHERE client_id = $1 AND mode = 'live' AND is_default AND deleted_at IS NULL`,
      [clientId],
    );
    const r = await tx.query<{ id: number }>(
      `INSERT INTO provider_accounts (client_id, mode, driver, display_name, org_bin, is_default, scheme,
                                      credentials_sealed, trade_point_id, trade_point_name, certificate_expires_at,
                                      session_alive)
       VALUES ($1, 'live', 'qrapi', $2, $3, $4, $5, $6, $7, $8, $9, false) RETURNING id`,
      [
        clientId,
        input.displayName ?? point.name,
        input.orgBin,
        !hasDefault.rows.length,
        input.credentials.scheme,
        sealed,
        point.id,
        point.name,
        expires,
      ],
    );
    return r.rows[0].id;
  });
  // The device, outside the transaction (a provider call); the account is usable once it has one.
  const deviceId = deviceIdOf(await installationId(deps.db), providerAccountId);
  const connection = registry(deps).connectionFor(input.credentials);
  try {
    const driver = new QrapiDriver({
      connection,
      orgBin: input.orgBin,
      deviceToken: null,
      allowClientInfo: async () => false,
    });
    const token = await talk(() => driver.registerDevice(deviceId, point.id)).catch(async (err: unknown) => {
      // No device, no payments: the half-made account goes (the client can start again).
      await deps.db.query(
        'UPDATE provider_accounts SET deleted_at = now(), is_default = false, credentials_sealed = NULL WHERE id = $1',
        [providerAccountId],
      );
      throw err;
    });
    await deps.db.tx(async (tx) => {
      await tx.query(
        'UPDATE provider_accounts SET device_id = $2, device_token = $3, session_alive = true WHERE id = $1',
        [providerAccountId, deviceId, token],
      );
      await invalidate(tx, `account:${clientId}:`, deps.caches);
    });
  } finally {
    await connection.close();
  }
  return providerAccountId;
}
