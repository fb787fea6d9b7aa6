// A Tolem server started as `npm start` starts it (src/main.ts start, on a fresh embedded store in a
// temporary folder), listening on a free port of 127.0.0.1: for the tests that run documented shell
// walk-throughs against a real process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  base: string;
  /** a temporary folder of its own (the data directory is inside), removed by stop() */
  dir: string;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tolem-server-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  server.stdout!.on('data', (c) => (out += c));
  server.stderr!.on('data', (c) => (out += c));
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((ok) => server.once('exit', ok));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // A minute: tsx compiles the server at start, which takes long on a loaded 2-core machine.
  const end = Date.now() + 60_000;
  for (;;) {
    const up = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > end || server.exitCode !== null) {
      await stop();
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, dir, stop };
}

/** The shell block between `<!-- name -->` and `<!-- /name -->` of a document. */
export function shellBlock(doc: string, name: string): string {
  const m = new RegExp(`<!-- ${name} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\s*<!-- /${name} -->`).exec(doc);
  if (!m) throw new Error(`no ${name} block`);
  return m[1];
}
