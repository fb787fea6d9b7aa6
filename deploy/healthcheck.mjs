// The container's health check (Containerfile HEALTHCHECK). An API process is healthy when its /readyz
// answers 200 (the store answers). A worker (ROLE=worker) has no HTTP listener: it is healthy while the
// heartbeat file it touches after each successful store check is fresh.
import { statSync } from 'node:fs';

const role = process.env.ROLE ?? 'all';
if (role === 'worker') {
  const file = process.env.HEARTBEAT_FILE ?? '/tmp/tolem-worker.heartbeat';
  try {
    const age = Date.now() - statSync(file).mtimeMs;
    process.exit(age < 30_000 ? 0 : 1);
  } catch {
    process.exit(1);
  }
} else {
  const port = process.env.PORT ?? '8080';
  fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2500) }).then(
    (r) => process.exit(r.ok ? 0 : 1),
    () => process.exit(1),
  );
}
