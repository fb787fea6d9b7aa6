// A process started beside its database (a compose stack, a node reboot) may come up first. Instead of
// failing at once and relying on a restart policy, it waits a bounded time for PostgreSQL to accept
// connections, saying so in the log; other errors (a wrong password, a missing database) stop it at once.
import type { Db } from './db.ts';

// Connection refused or reset, a name not resolvable yet, the server starting up or shutting down.
const NOT_YET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', '57P03', '57P01']);

export function notReachableYet(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code;
  return code !== undefined && NOT_YET.has(code);
}

export async function waitForStore(
  db: Db,
  opts: { timeoutMs?: number; everyMs?: number; log?: (message: string) => void } = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (let attempt = 1; ; attempt++) {
    try {
      await db.query('SELECT 1');
      return;
    } catch (err) {
      if (!notReachableYet(err) || Date.now() >= deadline) throw err;
      if (attempt === 1 || attempt % 10 === 0)
        opts.log?.(`the database is not reachable yet (${(err as { code: string }).code}); waiting`);
      await new Promise((r) => setTimeout(r, opts.everyMs ?? 1000));
    }
  }
}
