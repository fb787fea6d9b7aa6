// Starting and stopping the servers under test, pinned to CPU 0 where taskset exists.
import { spawn, execSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

export const hasTaskset = existsSync('/usr/bin/taskset');

export interface Server {
  proc: ChildProcess;
  url: string;
  startedMs: number;
  stop(): Promise<void>;
  peakRssMb(): number;
}

async function waitReady(url: string, path: string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const r = await fetch(url + path);
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} not ready`);
}

export async function startServer(
  script: string[],
  env: Record<string, string>,
  port: number,
  readyPath: string,
): Promise<Server> {
  const t0 = Date.now();
  const cmd = hasTaskset ? ['taskset', '-c', '0', 'node', ...script] : ['node', ...script];
  const proc = spawn(cmd[0], cmd.slice(1), {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, readyPath);
  return {
    proc,
    url,
    startedMs: Date.now() - t0,
    peakRssMb() {
      const s = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(s)?.[1] ?? 0);
      return Math.round(kb / 1024);
    },
    async stop() {
      if (proc.exitCode !== null) return;
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}

/** Pins the PostgreSQL server's processes to CPU 0 beside the app; returns a function that undoes it. */
export function pinPostgres(): () => void {
  if (!hasTaskset) return () => {};
  const pids = execSync("pgrep -x postgres || pgrep -f 'postgres:' || true").toString().split(/\s+/).filter(Boolean);
  for (const pid of pids) execSync(`taskset -a -p -c 0 ${pid} >/dev/null 2>&1 || true`);
  return () => {
    for (const pid of pids) execSync(`taskset -a -p -c 0-1 ${pid} >/dev/null 2>&1 || true`);
  };
}

/**
 * An emulator (`emulator/main.ts`, `fiscal-emulator/main.ts`) as a child process on CPU 0 (the bench itself
 * runs on CPU 1), once it has printed its ready line: that line's JSON, and a stop that also runs if the
 * bench fails before its own close.
 */
export async function spawnEmulatorProcess<R>(script: string, dir: string): Promise<{ ready: R; stop(): void }> {
  const args = [
    ...(hasTaskset ? ['taskset', '-c', '0'] : []),
    process.execPath,
    '--import',
    'tsx',
    script,
    '--port',
    '0',
    '--dir',
    dir,
  ];
  const proc = spawn(args[0], args.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] });
  const kill = () => proc.kill('SIGTERM');
  process.once('exit', kill);
  const line = await new Promise<string>((ok, fail) => {
    proc.once('exit', (code) => fail(new Error(`${script} exited (${code}) before it was ready`)));
    createInterface({ input: proc.stdout! }).once('line', ok);
  });
  return {
    ready: JSON.parse(line) as R,
    stop: () => {
      process.off('exit', kill);
      kill();
    },
  };
}
