// Tolem as the operator runs it: `node dist/main.js start` (built once by the drills' global set-up), one
// ROLE=api process with an HTTP port and one ROLE=worker process, both on the drill's private PostgreSQL
// and Redis, in production mode with their secrets given. Their output goes to a file of the drill's
// folder, whose tail is printed when a drill fails.
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, sleep } from './services.ts';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The secrets every process of one installation shares (docs/operations.md, Secrets). */
export function installationSecrets(): Record<string, string> {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { APP_SECRET: randomBytes(48).toString('base64'), JWT_PRIVATE_KEY: privateKey };
}

export class TolemProcess {
  private proc?: ChildProcess;
  /** exits nobody asked for (a crash): a drill asserts there are none */
  readonly unexpectedExits: string[] = [];
  private expectExit = false;

  private constructor(
    readonly role: 'api' | 'worker',
    readonly port: number,
    private env: Record<string, string>,
    private logFile: string,
    private heartbeatFile: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  static async create(role: 'api' | 'worker', dir: string, env: Record<string, string>): Promise<TolemProcess> {
    const port = await freePort();
    return new TolemProcess(role, port, env, path.join(dir, `${role}.log`), path.join(dir, `${role}.heartbeat`));
  }

  async start(): Promise<void> {
    rmSync(this.heartbeatFile, { force: true });
    const out = openSync(this.logFile, 'a');
    const proc = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js', 'start'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        ROLE: this.role,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        PUBLIC_BASE_URL: `http://127.0.0.1:${this.port}`,
        HEARTBEAT_FILE: this.heartbeatFile,
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        LOG_LEVEL: 'warn',
        ...this.env,
      },
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    this.proc = proc;
    this.expectExit = false;
    proc.once('exit', (code, signal) => {
      if (!this.expectExit) this.unexpectedExits.push(`${this.role} exited (code ${code}, signal ${signal})`);
    });
    await this.waitReady();
  }

  /** The API: /readyz answers 200. The worker: its heartbeat file is written (the store answered). */
  private async waitReady(): Promise<void> {
    for (let i = 0; i < 600; i++) {
      if (this.proc?.exitCode !== null) break;
      if (this.role === 'worker' ? existsSync(this.heartbeatFile) : await this.ready()) return;
      await sleep(100);
    }
    throw new Error(`${this.role} did not become ready:\n${this.logTail()}`);
  }

  private async ready(): Promise<boolean> {
    try {
      return (await fetch(`${this.url}/readyz`)).ok;
    } catch {
      return false;
    }
  }

  /** SIGKILL: no graceful shutdown, deliveries in flight are abandoned mid-way. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    this.expectExit = true;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill(signal);
    await exited;
  }

  /** Whether the process is still running (it did not exit on a fault). */
  alive(): boolean {
    return this.proc !== undefined && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  logTail(lines = 20): string {
    try {
      // Lines cut at 400 characters: a stack trace per line would bury the message.
      return readFileSync(this.logFile, 'utf8')
        .split('\n')
        .slice(-lines)
        .map((l) => (l.length > 400 ? `${l.slice(0, 400)}…` : l))
        .join('\n');
    } catch {
      return '(no log)';
    }
  }

  stop(): Promise<void> {
    return this.kill('SIGTERM');
  }
}
