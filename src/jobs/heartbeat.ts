// A worker (ROLE=worker) has no HTTP listener for a container's health check to ask, so it says it is alive
// through a file: every few seconds, once the store has answered, the file's time is set to now. The image's
// health check (deploy/healthcheck.mjs) calls the worker unhealthy when the file is older than 30 s.
import { writeFile } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { DbDeps } from '../deps.ts';

export function startHeartbeat(deps: DbDeps, file: string, log: FastifyBaseLogger, everyMs = 5000): () => void {
  let failing = false;
  const beat = async () => {
    try {
      await deps.db.query('SELECT 1');
      await writeFile(file, `${new Date().toISOString()}\n`);
      failing = false;
    } catch (err) {
      // Said once per failure series, not every beat; the stale file is what the health check sees.
      if (!failing) log.warn({ err, file }, 'worker heartbeat failed: the store or the file is not reachable');
      failing = true;
    }
  };
  void beat();
  const timer = setInterval(beat, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
