// A second, small HTTP listener (METRICS_PORT) that answers GET /metrics, /healthz and /readyz only. A
// ROLE=worker process has no HTTP listener of its own, yet its webhook attempts, outbox sends and provider
// breakers are counted in its own memory: this is where Prometheus reads them, and where a container's
// health check asks. On an API process it keeps the scrape off the public port. The answers are the app's
// own (through inject), so METRICS_TOKEN guards /metrics here as it does there.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

const PATHS = new Set(['/metrics', '/healthz', '/readyz']);

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

export async function listenForMetrics(app: FastifyInstance, port: number, host: string): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || !PATHS.has(path)) {
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end('not found: this port serves /metrics, /healthz, /readyz');
      return;
    }
    const authorization = req.headers.authorization;
    app
      .inject({ method: 'GET', url: path, headers: authorization ? { authorization } : {} })
      .then((r) => {
        const type = r.headers['content-type'];
        res.writeHead(r.statusCode, type ? { 'content-type': String(type) } : {}).end(r.rawPayload);
      })
      .catch(() => res.writeHead(503).end());
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
