// Background jobs of ROLE worker|all. Each job is a loop over rows it claims; stop() lets the current
// pass finish and releases its leases.
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { JobLoop } from './loop.ts';

export interface Jobs {
  stop(): Promise<void>;
}

export function startJobs(deps: Deps, log: FastifyBaseLogger): Jobs {
  const loops: JobLoop[] = [
    new JobLoop('request-log-retention', 3600_000, log, async () => {
      await deps.db.query(`DELETE FROM request_logs WHERE created_at < now() - interval '30 days'`);
      return 0;
    }),
  ];
  for (const l of loops) l.start();
  return { stop: async () => void (await Promise.all(loops.map((l) => l.stop()))) };
}
