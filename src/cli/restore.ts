// `node dist/main.js restore <file>`: a backup into DATA_DIR, for an instance started on it afterwards.
// In order, stopping at the first refusal with nothing changed:
//   1. the whole file is checked (backup-archive.ts), and its migrations must be known to this build;
//   2. no process may hold DATA_DIR (its admin socket answers): a running instance is stopped first;
//   3. DATA_DIR must be empty or absent, and an existing SECRETS_FILE the same as the backup's, unless
//      --force;
//   4. the data is written into a staging folder inside DATA_DIR and opened: every table must count the
//      rows the manifest recorded at the backup's instant;
// and only then the old contents go (with --force), the staged ones take their place, and the secrets
// file is written (0600). The restored APP_SECRET is checked against the key id the backup names.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { appSecretKeyId } from '../crypto.ts';
import { connectPglite } from '../db/db.ts';
import { migrationFiles } from '../db/migrate.ts';
import { secretsFile } from '../secrets.ts';
import { ADMIN_SOCKET, AdminSocketError, askHolder, heldBy, holdDataDir } from './admin-socket.ts';
import { BackupFileError, SECRETS_MEMBER, unpackBackup, type Backup } from './backup-archive.ts';
import { configuredAppSecret, type CommandResult } from './backup.ts';
import { countRows } from './snapshot.ts';

export const RESTORE_USAGE = 'restore <file> [--force] [--no-secrets]';

const fail = (message: string, exitCode = 1): CommandResult => ({ message: `restore: ${message}`, exitCode });
const NOTHING_CHANGED = '; nothing was changed';

export async function restore(config: Config, argv: string[]): Promise<CommandResult> {
  let values: { force?: boolean; 'no-secrets'?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { force: { type: 'boolean' }, 'no-secrets': { type: 'boolean' } },
    }));
  } catch (err) {
    return fail(`${(err as Error).message}\nusage: ${RESTORE_USAGE}`, 2);
  }
  if (positionals.length !== 1) return fail(`one file name expected\nusage: ${RESTORE_USAGE}`, 2);
  if (config.databaseUrl)
    return fail('DATABASE_URL is set: restore PostgreSQL with its own tools (docs/operations.md, Backups)');
  if (config.dataDir.startsWith('memory://')) return fail('DATA_DIR is in memory: there is nowhere to restore to');
  const file = path.resolve(positionals[0]);
  if (!existsSync(file)) return fail(`${file} does not exist`);
  const dir = path.resolve(config.dataDir);
  const force = values.force === true;
  const withSecrets = !values['no-secrets'];

  let b: Backup;
  try {
    b = await unpackBackup(readFileSync(file));
  } catch (err) {
    if (err instanceof BackupFileError) return fail(`${file}: ${err.message}${NOTHING_CHANGED}`);
    throw err;
  }
  const known = Math.max(0, ...migrationFiles().map((m) => m.version));
  if (b.manifest.migration > known)
    return fail(
      `the backup's store has migration ${b.manifest.migration}; this build knows up to ${known}: ` +
        `restore it with the release that took it, or a newer one${NOTHING_CHANGED}`,
    );

  try {
    const holder = existsSync(dir) ? await askHolder(dir, { op: 'hello' }, 5000) : null;
    if (holder) return fail(`${heldBy(dir, holder.answer).message}: stop it first${NOTHING_CHANGED}`);
  } catch (err) {
    if (err instanceof AdminSocketError) return fail(`${err.message}${NOTHING_CHANGED}`);
    throw err;
  }
  const present = existsSync(dir) ? readdirSync(dir).filter((n) => n !== ADMIN_SOCKET) : [];
  if (present.length && !force)
    return fail(
      `${dir} (DATA_DIR) is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', ...' : ''}): ` +
        `restore into an empty folder, or give --force to replace what is there${NOTHING_CHANGED}`,
    );
  const secretsTarget = secretsFile(config)!;
  const writeSecrets = withSecrets && b.secrets !== undefined;
  if (writeSecrets && existsSync(secretsTarget) && readFileSync(secretsTarget, 'utf8') !== b.secrets && !force)
    return fail(
      `${secretsTarget} holds other secrets than the backup's: give --force to replace it, or --no-secrets to ` +
        `keep it (the backup's sealed values then open only if it has their APP_SECRET)${NOTHING_CHANGED}`,
    );

  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let held: Awaited<ReturnType<typeof holdDataDir>>;
  try {
    held = await holdDataDir(dir, 'restore');
  } catch (err) {
    if (err instanceof AdminSocketError) return fail(`${err.message}${NOTHING_CHANGED}`);
    throw err;
  }
  const stage = path.join(dir, `.restore-${process.pid}`);
  try {
    rmSync(stage, { recursive: true, force: true });
    stageData(stage, b);
    const counted = await openAndCount(stage);
    const differ = Object.keys({ ...counted, ...b.manifest.counts }).filter((t) => counted[t] !== b.manifest.counts[t]);
    if (differ.length)
      throw new BackupFileError(
        `the restored store does not hold what the backup recorded (${differ
          .slice(0, 3)
          .map((t) => `${t}: ${counted[t] ?? 'missing'} rows, recorded ${b.manifest.counts[t] ?? 'none'}`)
          .join('; ')})`,
      );
    // The point of no return: the old contents go, the checked ones take their place.
    const keep = new Set([path.basename(stage), ADMIN_SOCKET]);
    if (!writeSecrets && path.dirname(secretsTarget) === dir) keep.add(path.basename(secretsTarget));
    for (const name of readdirSync(dir)) if (!keep.has(name)) rmSync(path.join(dir, name), { recursive: true });
    for (const name of readdirSync(stage)) renameSync(path.join(stage, name), path.join(dir, name));
    rmSync(stage, { recursive: true, force: true });
    if (writeSecrets) writeSecretsFile(secretsTarget, b.secrets!);
  } catch (err) {
    rmSync(stage, { recursive: true, force: true });
    if (err instanceof BackupFileError) return fail(`${file}: ${err.message}${NOTHING_CHANGED}`);
    throw err;
  } finally {
    await held.close();
  }
  return { message: report(file, dir, b, config, writeSecrets ? secretsTarget : undefined), exitCode: 0 };
}

function stageData(stage: string, b: Backup): void {
  mkdirSync(stage, { mode: 0o700 });
  for (const e of b.data) {
    const to = path.join(stage, e.name);
    if (e.type === 'dir') mkdirSync(to, { recursive: true, mode: 0o700 });
    else {
      mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
      writeFileSync(to, e.data, { mode: 0o600 });
    }
  }
}

/** Opens the staged store as an instance would (recovery included), and counts its rows. */
async function openAndCount(stage: string): Promise<Record<string, number>> {
  let db: Awaited<ReturnType<typeof connectPglite>>;
  try {
    db = await connectPglite(stage, undefined, { autovacuumEveryMs: 0 });
  } catch (err) {
    throw new BackupFileError(`the data directory inside does not open: ${(err as Error).message}`);
  }
  try {
    return await countRows(db);
  } finally {
    await db.close();
  }
}

function writeSecretsFile(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

function report(file: string, dir: string, b: Backup, config: Config, secretsWritten?: string): string {
  const m = b.manifest;
  const rows = Object.values(m.counts).reduce((a, n) => a + n, 0);
  const lines = [
    `restored ${file} into ${dir}: the store as it was at ${m.created_at} ` +
      `(${Object.keys(m.counts).length} tables, ${rows} rows, every count checked)`,
  ];
  if (secretsWritten) lines.push(`secrets file written: ${secretsWritten} (mode 0600)`);
  else if (b.secrets !== undefined) lines.push(`the backup's ${SECRETS_MEMBER} was left out (--no-secrets)`);
  // Which key opens the sealed values now: the environment's APP_SECRET wins over the file at start.
  const secret = configuredAppSecret(config);
  const ids = [secret, ...config.appSecretPrevious].filter(Boolean).map((s) => appSecretKeyId(s!));
  if (!m.app_secret_key_id) {
    lines.push('the backup does not say which APP_SECRET sealed its values: start the instance with the one it used');
  } else if (!secret) {
    lines.push(
      `!! NO APP_SECRET here (environment or ${secretsFile(config)}): the sealed values (webhook secrets, ` +
        `provider credentials) open only with the APP_SECRET of key id ${m.app_secret_key_id}. Set it ` +
        'before starting, or an instance would generate a new one and they would stay closed.',
    );
  } else if (!ids.includes(m.app_secret_key_id)) {
    lines.push(
      `!! APP_SECRET here has key id ${appSecretKeyId(secret)}, the backup's values were sealed with ` +
        `${m.app_secret_key_id}: set that APP_SECRET (or it in APP_SECRET_PREVIOUS) before starting.`,
    );
  } else {
    lines.push(`APP_SECRET here opens the sealed values (key id ${m.app_secret_key_id})`);
  }
  return lines.join('\n');
}
