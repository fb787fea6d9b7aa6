// The backup file of the embedded store: a gzip'd tar that standard tools can list (`tar tzf`), holding
//   tolem-backup.json   the manifest: when, from what, row counts at that instant, a SHA-256 per member
//   secrets.json        the secrets file (APP_SECRET, JWT key) when included: mode 0600 like the file
//   pgdata/...          the data directory as the store's snapshot left it
// Unpacking checks everything (gzip CRC, tar checksums, every hash, no member missing or extra, safe
// names) before a caller writes a byte, so a damaged file is refused whole.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { readTar, TarError, writeTar, type TarEntry } from './tar.ts';

export const MANIFEST = 'tolem-backup.json';
export const SECRETS_MEMBER = 'secrets.json';
const DATA = 'pgdata/';

export interface Manifest {
  format: 'tolem-backup';
  version: 1;
  created_at: string;
  /** `running`: taken by the serving instance over its admin socket; `stopped`: the CLI opened the store */
  taken_from: 'running' | 'stopped';
  /** PostgreSQL major version of the data directory (its PG_VERSION) */
  pg_version: string;
  /** the highest migration applied: a build that knows fewer migrations cannot run this store */
  migration: number;
  /** appSecretKeyId of the APP_SECRET that sealed the values inside (not the secret); null if unknown */
  app_secret_key_id: string | null;
  /** `included`: secrets.json is in the file; `left out`: by --no-secrets; `none`: no secrets file existed */
  secrets: 'included' | 'left out' | 'none';
  /** rows of every table at the snapshot's instant */
  counts: Record<string, number>;
  /** SHA-256 (hex) of every file member */
  files: Record<string, string>;
  dirs: string[];
}

export interface Backup {
  manifest: Manifest;
  /** the secrets file's text, when included */
  secrets?: string;
  /** the data directory's entries, names relative to it */
  data: TarEntry[];
}

export class BackupFileError extends Error {}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

export type ManifestFields = Omit<Manifest, 'format' | 'version' | 'files' | 'dirs' | 'secrets'> & {
  secretsLeftOut?: boolean;
};

export async function packBackup(fields: ManifestFields, data: TarEntry[], secrets?: string): Promise<Uint8Array> {
  const { secretsLeftOut, ...rest } = fields;
  const members: TarEntry[] = [];
  if (secrets !== undefined)
    members.push({ name: SECRETS_MEMBER, type: 'file', mode: 0o600, data: Buffer.from(secrets, 'utf8') });
  for (const e of data) members.push({ ...e, name: DATA + e.name });
  const manifest: Manifest = {
    format: 'tolem-backup',
    version: 1,
    ...rest,
    secrets: secrets !== undefined ? 'included' : secretsLeftOut ? 'left out' : 'none',
    files: Object.fromEntries(members.filter((m) => m.type === 'file').map((m) => [m.name, sha256(m.data)])),
    dirs: members.filter((m) => m.type === 'dir').map((m) => m.name),
  };
  const head: TarEntry = {
    name: MANIFEST,
    type: 'file',
    mode: 0o600,
    data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8'),
  };
  // Level 1: a data directory is mostly empty pages, which any level shrinks about sevenfold; level 6 took
  // four times as long for a tenth less.
  return promisify(gzip)(writeTar([head, ...members]), { level: 1 });
}

/** Names a restore may write: relative, plain segments, no `..`. */
const SAFE_NAME = /^(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._+-]+(\/[A-Za-z0-9._+-]+)*$/;

function parseManifest(raw: Uint8Array): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(Buffer.from(raw).toString('utf8')) as Manifest;
  } catch {
    throw new BackupFileError(`${MANIFEST} is not JSON`);
  }
  if (m?.format !== 'tolem-backup') throw new BackupFileError(`${MANIFEST} is not a Tolem backup manifest`);
  if (m.version !== 1) throw new BackupFileError(`backup format version ${m.version}: this build reads version 1`);
  const ok =
    typeof m.created_at === 'string' &&
    typeof m.pg_version === 'string' &&
    Number.isInteger(m.migration) &&
    ['included', 'left out', 'none'].includes(m.secrets) &&
    m.files !== null &&
    typeof m.files === 'object' &&
    Array.isArray(m.dirs) &&
    m.counts !== null &&
    typeof m.counts === 'object';
  if (!ok) throw new BackupFileError(`${MANIFEST} lacks fields this build needs`);
  return m;
}

export async function unpackBackup(bytes: Uint8Array): Promise<Backup> {
  let tar: Uint8Array;
  try {
    tar = await promisify(gunzip)(bytes);
  } catch (err) {
    throw new BackupFileError(
      `not a readable backup (gzip: ${(err as Error).message}): the file is damaged, cut short or not a Tolem backup`,
    );
  }
  let entries: TarEntry[];
  try {
    entries = readTar(tar);
  } catch (err) {
    if (err instanceof TarError) throw new BackupFileError(`damaged archive: ${err.message}`);
    throw err;
  }
  if (entries[0]?.name !== MANIFEST || entries[0].type !== 'file')
    throw new BackupFileError(`not a Tolem backup: it does not start with ${MANIFEST}`);
  const manifest = parseManifest(entries[0].data);
  const expected = new Map(Object.entries(manifest.files));
  const dirs = new Set(manifest.dirs);
  const out: Backup = { manifest, data: [] };
  for (const e of entries.slice(1)) {
    if (!SAFE_NAME.test(e.name)) throw new BackupFileError(`member name not allowed: ${JSON.stringify(e.name)}`);
    if (e.type === 'dir') {
      if (!dirs.delete(e.name)) throw new BackupFileError(`member ${e.name} is not in the manifest`);
    } else {
      const want = expected.get(e.name);
      if (want === undefined) throw new BackupFileError(`member ${e.name} is not in the manifest`);
      if (sha256(e.data) !== want) throw new BackupFileError(`member ${e.name} does not match its SHA-256`);
      expected.delete(e.name);
    }
    if (e.name === SECRETS_MEMBER && e.type === 'file') out.secrets = Buffer.from(e.data).toString('utf8');
    else if (e.name.startsWith(DATA)) out.data.push({ ...e, name: e.name.slice(DATA.length) });
    else throw new BackupFileError(`unexpected member ${e.name}`);
  }
  const missing = [...expected.keys(), ...dirs];
  if (missing.length) throw new BackupFileError(`members missing: ${missing.slice(0, 5).join(', ')}`);
  if ((manifest.secrets === 'included') !== (out.secrets !== undefined))
    throw new BackupFileError(`the manifest says secrets ${manifest.secrets}, the archive disagrees`);
  if (!out.data.some((e) => e.name === 'PG_VERSION' && e.type === 'file'))
    throw new BackupFileError('no data directory in the backup (pgdata/PG_VERSION missing)');
  if (out.secrets !== undefined) {
    try {
      JSON.parse(out.secrets);
    } catch {
      throw new BackupFileError(`${SECRETS_MEMBER} in the backup is not JSON`);
    }
  }
  return out;
}
