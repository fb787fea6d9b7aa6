// CPU time of the processes under test, read from /proc (Linux only; elsewhere nothing is reported): the
// server's own and all of PostgreSQL's, so a request's cost can be split between the two. With both on one
// core, this is what an absolute latency target at c=10 has to fit into (Little's law).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const available = existsSync('/proc/self/stat');
const tickMs = available ? 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString()) : 0;

/** The fields of /proc/<pid>/stat after the command name, or undefined once the process is gone. */
function stat(pid: number | string): { comm: string; f: string[] } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return { comm: s.slice(s.indexOf('(') + 1, s.lastIndexOf(')')), f: s.slice(s.lastIndexOf(')') + 2).split(' ') };
  } catch {
    return undefined;
  }
}

/** utime + stime of one process, in ms. */
function processMs(pid: number | string): number {
  const s = stat(pid);
  return s ? (Number(s.f[11]) + Number(s.f[12])) * tickMs : 0;
}

/**
 * All of PostgreSQL's CPU in ms: every live postgres process's own time, plus the time of the backends
 * that have exited, which the postmaster collects as its children's time (cutime + cstime) when it reaps
 * them. So the sum only grows, though pools open and close connections during a measurement.
 */
function postgresMs(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const s = stat(pid);
    if (s?.comm !== 'postgres') continue;
    ticks += Number(s.f[11]) + Number(s.f[12]) + Number(s.f[13]) + Number(s.f[14]);
  }
  return ticks * tickMs;
}

export interface CpuSample {
  server: number;
  db: number;
}

/** A sampler of the server's and (on PostgreSQL) the database's CPU ms; undefined where /proc is missing. */
export function cpuSampler(serverPid: number | undefined, withPostgres: boolean): (() => CpuSample) | undefined {
  if (!available || !serverPid) return undefined;
  return () => ({ server: processMs(serverPid), db: withPostgres ? postgresMs() : 0 });
}
