// A backup of an open embedded store: row counts and the data directory at one instant, the secrets file
// beside them when asked, packed as backup-archive.ts describes. The running server calls it for a
// `backup` request on its admin socket; the `backup` command calls it itself on a stopped store.
//
// The instant: one transaction of the store's single connection counts the rows, runs CHECKPOINT (every
// change written to the data files) and copies the data directory from disk. PGlite's transaction lock
// keeps every other statement and transaction out until the copy is taken, so the counts describe exactly
// the copy, and a restore has no WAL to replay past the checkpoint. The process pauses meanwhile (a
// fraction of a second for a small store). The copy is read from disk rather than with PGlite's
// dumpDataDir(): PGlite's file system layer refuses the admin socket in the directory (EINVAL on a node
// that is neither file nor folder), and its writes reach the disk at once, so the disk is the store.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Db, Queryable } from '../db/db.ts';
import { appSecretKeyId } from '../crypto.ts';
import { ADMIN_SOCKET } from './admin-socket.ts';
import { packBackup } from './backup-archive.ts';
import type { TarEntry } from './tar.ts';

export interface SnapshotOptions {
  dataDir: string;
  /** the secrets file in use (SECRETS_FILE or DATA_DIR/secrets.json) */
  secretsFile?: string;
  includeSecrets: boolean;
  /** the APP_SECRET in use: only its key id goes into the manifest */
  appSecret?: string;
  takenFrom: 'running' | 'stopped';
}

/** Rows of every table of the schema, in one statement so that they are counted at one instant. */
export async function countRows(q: Queryable): Promise<Record<string, number>> {
  const tables = (
    await q.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    )
  ).rows.map((r) => r.name);
  if (!tables.length) return {};
  const sql = tables
    .map((t) => `SELECT '${t.replace(/'/g, "''")}' AS name, count(*)::int AS n FROM "${t.replace(/"/g, '""')}"`)
    .join(' UNION ALL ');
  const rows = (await q.query<{ name: string; n: number }>(sql)).rows;
  return Object.fromEntries(rows.map((r) => [r.name, r.n]));
}

export async function lastMigration(q: Queryable): Promise<number> {
  const r = await q.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations');
  return r.rows[0]?.v ?? 0;
}

/**
 * What of the data directory is not the store: the lock file PostgreSQL writes while open (excluded from
 * base backups for the same reason), this process's admin socket, the secrets file (carried apart, and
 * only when asked), and a restore's staging folder.
 */
function notStore(topName: string, secretsName?: string): boolean {
  return (
    topName === 'postmaster.pid' ||
    topName === 'postmaster.opts' ||
    topName === ADMIN_SOCKET ||
    topName === 'secrets.json' ||
    topName.startsWith('secrets.json.') ||
    topName.startsWith('.restore-') ||
    (secretsName !== undefined && (topName === secretsName || topName.startsWith(`${secretsName}.`)))
  );
}

/** Every folder and file under `root`, names relative to it, folders before what they hold. */
function copyDir(root: string, skipTop: (name: string) => boolean): TarEntry[] {
  const out: TarEntry[] = [];
  const walk = (rel: string) => {
    for (const d of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const name = rel ? `${rel}/${d.name}` : d.name;
      if (!rel && skipTop(d.name)) continue;
      if (d.isDirectory()) {
        out.push({ name, type: 'dir', mode: 0o700, data: new Uint8Array(0) });
        walk(name);
      } else if (d.isFile()) {
        out.push({ name, type: 'file', mode: 0o600, data: readFileSync(path.join(root, name)) });
      } else {
        // A link or device in a PGlite data directory is nothing it made: refuse rather than copy half.
        throw new Error(`${path.join(root, name)} is neither a file nor a folder`);
      }
    }
  };
  walk('');
  return out;
}

export async function takeBackup(db: Db, opts: SnapshotOptions): Promise<Uint8Array> {
  if (db.kind !== 'pglite') throw new Error('not an embedded (PGlite) store');
  const dataDir = path.resolve(opts.dataDir);
  const secretsFile = opts.secretsFile && path.resolve(opts.secretsFile);
  // A secrets file kept directly in DATA_DIR under another name is left out of the data all the same.
  const secretsName = secretsFile && path.dirname(secretsFile) === dataDir ? path.basename(secretsFile) : undefined;
  const { counts, migration, data } = await db.tx(async (tx) => {
    const counted = { counts: await countRows(tx), migration: await lastMigration(tx) };
    await tx.query('CHECKPOINT');
    return { ...counted, data: copyDir(dataDir, (name) => notStore(name, secretsName)) };
  });
  const version = data.find((e) => e.name === 'PG_VERSION');
  const secrets =
    opts.includeSecrets && secretsFile && existsSync(secretsFile) ? readFileSync(secretsFile, 'utf8') : undefined;
  return packBackup(
    {
      created_at: new Date().toISOString(),
      taken_from: opts.takenFrom,
      pg_version: version ? Buffer.from(version.data).toString('utf8').trim() : 'unknown',
      migration,
      app_secret_key_id: opts.appSecret ? appSecretKeyId(opts.appSecret) : null,
      counts,
      secretsLeftOut: !opts.includeSecrets && !!secretsFile && existsSync(secretsFile),
    },
    data,
    secrets,
  );
}
