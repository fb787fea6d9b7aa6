// The private services of one drill: a PostgreSQL cluster made with initdb in a temporary folder and a
// redis-server, each on a free port of 127.0.0.1, so that a drill may stop, kill and restart them. The
// machine's shared PostgreSQL (5432) and Redis (6379) are never touched. As root (CI, the dev machines),
// PostgreSQL's programs run as the `postgres` user: initdb refuses root.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const PG_BIN = process.env.DRILL_PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const REDIS_SERVER = process.env.DRILL_REDIS_SERVER ?? '/usr/bin/redis-server';
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What is missing to run the drills, or undefined: a clear message instead of a skip (CI must run them). */
export function missingTools(): string | undefined {
  const missing = [`${PG_BIN}/initdb`, `${PG_BIN}/pg_ctl`, REDIS_SERVER].filter((f) => !existsSync(f));
  if (!missing.length) return undefined;
  return (
    `the fault drills need PostgreSQL's server programs and redis-server; missing: ${missing.join(', ')}. ` +
    'Install them (Debian: apt-get install postgresql-15 redis-server) or point DRILL_PG_BIN and ' +
    'DRILL_REDIS_SERVER at them.'
  );
}

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** The uid and gid PostgreSQL's programs run as: the `postgres` user when we are root, else ourselves. */
async function pgUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
  try {
    return { uid: await id('-u'), gid: await id('-g') };
  } catch {
    throw new Error('running as root, PostgreSQL needs a `postgres` user to run initdb and the server as');
  }
}

export class PrivatePostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private user: { uid: number; gid: number } | undefined,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get data(): string {
    return path.join(this.dir, 'data');
  }

  private pg(program: string, args: string[]) {
    return run(path.join(PG_BIN, program), args, { uid: this.user?.uid, gid: this.user?.gid, cwd: this.dir });
  }

  /** initdb (trust authentication, for 127.0.0.1 only) and start on a free port. */
  static async start(): Promise<PrivatePostgres> {
    const dir = mkdtempSync(path.join(tmpdir(), 'tolem-drill-pg-'));
    const user = await pgUser();
    if (user) chownSync(dir, user.uid, user.gid);
    const p = new PrivatePostgres(dir, await freePort(), user);
    try {
      await p.pg('initdb', ['-D', p.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
      await p.startServer();
    } catch (err) {
      await p.destroy();
      throw err;
    }
    return p;
  }

  async startServer(): Promise<void> {
    const opts = [
      `-p ${this.port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${this.dir}`,
      '-c max_connections=200',
      '-c shared_buffers=64MB',
    ].join(' ');
    await this.pg('pg_ctl', ['-D', this.data, '-l', path.join(this.dir, 'server.log'), '-o', opts, '-w', 'start']);
  }

  /** `immediate`: a crash (no checkpoint, recovery at the next start); `fast`: an orderly stop. */
  async stopServer(mode: 'immediate' | 'fast' = 'fast'): Promise<void> {
    await this.pg('pg_ctl', ['-D', this.data, '-m', mode, '-w', 'stop']);
  }

  log(): string {
    try {
      return readFileSync(path.join(this.dir, 'server.log'), 'utf8');
    } catch {
      return '';
    }
  }

  async destroy(): Promise<void> {
    await this.stopServer('immediate').catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export class PrivateRedis {
  private proc?: ChildProcess;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<PrivateRedis> {
    const r = new PrivateRedis(await freePort());
    await r.startServer();
    return r;
  }

  async startServer(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const proc = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    let out = '';
    proc.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    for (let i = 0; i < 100; i++) {
      if (out.includes('Ready to accept connections')) return;
      if (proc.exitCode !== null) break;
      await sleep(50);
    }
    throw new Error(`redis-server did not start on ${this.port}: ${out.slice(-500)}`);
  }

  /** SIGTERM, as an operator's stop (or a container's) sends it, and wait for the exit. */
  async stopServer(): Promise<void> {
    const p = this.proc;
    this.proc = undefined;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGTERM');
    await exited;
  }

  async destroy(): Promise<void> {
    await this.stopServer();
  }
}
