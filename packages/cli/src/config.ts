// Where the CLI keeps its session: $XDG_CONFIG_HOME/tolem/config.json (else ~/.config/tolem), readable by
// the user alone (0600, in a 0700 folder): the refresh token is a credential.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export interface Stored {
  api_url: string;
  refresh_token?: string;
  access_token?: string;
  /** ms since the epoch */
  access_expires_at?: number;
  email?: string;
}

export const configDir = () => path.join(process.env.XDG_CONFIG_HOME || path.join(homedir(), '.config'), 'tolem');
export const configFile = () => path.join(configDir(), 'config.json');

export function readConfig(): Stored | undefined {
  const f = configFile();
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as Stored) : undefined;
}

/** Written whole to a temporary file and renamed, so a reader never sees half of it. */
export function writeConfig(s: Stored): void {
  mkdirSync(configDir(), { recursive: true, mode: 0o700 });
  chmodSync(configDir(), 0o700);
  const tmp = `${configFile()}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(s, null, 2), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, configFile());
}
