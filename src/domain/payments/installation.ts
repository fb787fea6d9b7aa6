// This installation's id (decisions 26): made once per store, the first time it is asked for, and kept.
// It names the devices Tolem registers at the provider (`tolem-<installation>-<account>`), so staging and
// production on one BIN never share a device, nor delete each other's.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/db.ts';

let known: { db: Queryable; id: string } | undefined;

export async function installationId(db: Queryable): Promise<string> {
  if (known?.db === db) return known.id;
  // Two processes starting together both insert; the first row stays and both read it.
  await db.query('INSERT INTO installation (id) VALUES ($1) ON CONFLICT (singleton) DO NOTHING', [
    randomBytes(6).toString('hex'),
  ]);
  const id = (await db.query<{ id: string }>('SELECT id FROM installation')).rows[0].id;
  known = { db, id };
  return id;
}

/** The DeviceId of an account's device: the provider's alphabet (latin letters, digits, dash, underscore). */
export const deviceIdOf = (installation: string, providerAccountId: number) =>
  `tolem-${installation}-${providerAccountId}`;
