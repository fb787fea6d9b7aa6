// CPU time of the processes under test, read from /proc (Linux only; elsewhere nothing is reported): the
// server's own and all of PostgreSQL's, so a request's cost can be split between the two. With both on one
// core, this is what an absolute latency target at c=10 has to fit into (Little's law).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const available = existsSync('/proc/self/stat');
const tickMs = available ? 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString()) : 0;

/** utime + stime of one process, in ms; 0 once it is gone. */
function processMs(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * tickMs;
  } catch {
    return 0;
  }
}

/** Every PostgreSQL process's CPU, backends and background workers alike, in ms. */
function postgresMs(): number {
  let ms = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith('postgres')) ms += processMs(pid);
    } catch {
      /* gone meanwhile */
    }
  }
  return ms;
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
