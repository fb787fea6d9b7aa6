// `node dist/main.js backup <file>`: a consistent backup of the embedded store, running or not.
// Running: the instance takes the snapshot itself, asked over its admin socket (admin-socket.ts), and
// sends the bytes back; writes go on around it. Stopped: the command opens the store itself, holding
// the socket meanwhile so that no instance starts on it. The file is checked whole before it is put in
// place (written beside it, then renamed), so a half or damaged file never carries the name.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { connectPglite } from '../db/db.ts';
import { secretsFile } from '../secrets.ts';
import { AdminSocketError, askHolder, holdDataDir } from './admin-socket.ts';
import { unpackBackup, type Manifest } from './backup-archive.ts';
import { takeBackup } from './snapshot.ts';

export const BACKUP_USAGE = 'backup <file> [--no-secrets] [--force] [--offline] [--timeout <seconds>]';

export interface CommandResult {
  message: string;
  exitCode: number;
}

const fail = (message: string, exitCode = 1): CommandResult => ({ message: `backup: ${message}`, exitCode });

/** The APP_SECRET a stopped store's values were sealed with: the environment's, else the secrets file's. */
export function configuredAppSecret(config: Config): string | undefined {
  if (config.appSecret) return config.appSecret;
  const file = secretsFile(config);
  if (!file || !existsSync(file)) return undefined;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { app_secret?: string }).app_secret;
  } catch {
    return undefined;
  }
}

export async function backup(config: Config, argv: string[]): Promise<CommandResult> {
  let values: { 'no-secrets'?: boolean; force?: boolean; offline?: boolean; timeout?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'no-secrets': { type: 'boolean' },
        force: { type: 'boolean' },
        offline: { type: 'boolean' },
        timeout: { type: 'string' },
      },
    }));
  } catch (err) {
    return fail(`${(err as Error).message}\nusage: ${BACKUP_USAGE}`, 2);
  }
  if (positionals.length !== 1) return fail(`one file name expected\nusage: ${BACKUP_USAGE}`, 2);
  const timeoutS = values.timeout === undefined ? 120 : Number(values.timeout);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0) return fail('--timeout takes a number of seconds', 2);
  if (config.databaseUrl)
    return fail('DATABASE_URL is set: back PostgreSQL up with its own tools (docs/operations.md, Backups)');
  if (config.dataDir.startsWith('memory://')) return fail('DATA_DIR is in memory: there is nothing on disk to back up');
  const file = path.resolve(positionals[0]);
  if (existsSync(file) && !values.force) return fail(`${file} exists; give another name, or --force to replace it`);
  const includeSecrets = !values['no-secrets'];

  let bytes: Uint8Array;
  try {
    const asked = await askHolder(config.dataDir, { op: 'backup', secrets: includeSecrets }, timeoutS * 1000);
    if (asked) {
      if (!asked.answer.ok) return fail(`the instance (pid ${asked.answer.pid}) refused: ${asked.answer.error}`);
      bytes = asked.body;
    } else {
      const stopped = await fromStoppedStore(config, includeSecrets, values.offline === true);
      if ('exitCode' in stopped) return stopped;
      bytes = stopped.bytes;
    }
  } catch (err) {
    if (err instanceof AdminSocketError) return fail(err.message);
    throw err;
  }
  // Read back before it gets the name: what is written is what a restore will accept.
  const { manifest } = await unpackBackup(bytes);
  writeInPlace(file, bytes);
  return { message: report(file, bytes.length, manifest, config), exitCode: 0 };
}

async function fromStoppedStore(
  config: Config,
  includeSecrets: boolean,
  offline: boolean,
): Promise<{ bytes: Uint8Array } | CommandResult> {
  const dir = path.resolve(config.dataDir);
  if (!existsSync(path.join(dir, 'PG_VERSION'))) return fail(`no embedded store in ${dir} (DATA_DIR)`);
  // PGlite writes postmaster.pid while open and removes it on close: present with nobody answering on the
  // socket means an instance that was killed, or one this command cannot reach; opening the store under
  // a live one would corrupt it, so only the operator can say which.
  if (existsSync(path.join(dir, 'postmaster.pid')) && !offline)
    return fail(
      `${dir} looks open (postmaster.pid is there) but no instance answers on its admin socket. ` +
        'If no Tolem process uses it (one was killed), run again with --offline; otherwise start the ' +
        'instance with this build, whose admin socket takes backups while it runs.',
    );
  const held = await holdDataDir(dir, 'backup');
  try {
    const db = await connectPglite(dir, undefined, { autovacuumEveryMs: 0 });
    try {
      const bytes = await takeBackup(db, {
        dataDir: dir,
        secretsFile: secretsFile(config),
        includeSecrets,
        appSecret: configuredAppSecret(config),
        takenFrom: 'stopped',
      });
      return { bytes };
    } finally {
      await db.close();
    }
  } finally {
    await held.close();
  }
}

/** Owner-only from its first byte, flushed, then renamed over the name: never a partial file under it. */
function writeInPlace(file: string, bytes: Uint8Array): void {
  const tmp = `${file}.${process.pid}.partial`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(tmp);
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, file);
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

function report(file: string, size: number, m: Manifest, config: Config): string {
  const lines = [
    `backup written: ${file} (${(size / 1024 / 1024).toFixed(1)} MiB, mode 0600)`,
    `taken from the ${m.taken_from} store at ${m.created_at}: ${Object.keys(m.counts).length} tables, ` +
      `${sum(m.counts)} rows (${['clients', 'operations', 'events', 'webhooks']
        .filter((t) => t in m.counts)
        .map((t) => `${t} ${m.counts[t]}`)
        .join(', ')}); migration ${m.migration}`,
  ];
  if (m.secrets === 'included') {
    lines.push(
      `!! THE SECRETS FILE IS INSIDE (${secretsFile(config)}): whoever has this backup can open every sealed ` +
        'value (webhook secrets, provider credentials, bank details) and sign access tokens. ' +
        'Keep it like the secrets themselves, or take it with --no-secrets.',
    );
  } else {
    lines.push(
      `!! NO SECRETS FILE INSIDE (${m.secrets}): a restore opens the sealed values (webhook secrets, provider ` +
        `credentials) only with the APP_SECRET whose key id is ${m.app_secret_key_id ?? 'unknown'}; keep that ` +
        `secret (SECRETS_FILE ${secretsFile(config) ?? 'unset'}, or APP_SECRET) safe apart from this file.`,
    );
  }
  if (config.appSecret)
    lines.push('APP_SECRET comes from the environment: it is never in a backup; your secret store keeps it.');
  return lines.join('\n');
}
