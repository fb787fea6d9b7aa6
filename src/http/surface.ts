// An HTTP surface (http/<surface>/index.ts) is one Fastify plugin that declares all of its routes; app.ts
// registers the list. Each is wrapped in fastify-plugin, so its routes live in the root context as they
// did when app.ts declared them one by one: the app's hooks (onRoute included), error handler, not-found
// answer, content-type parsers and decorators apply to them unchanged. A surface that needs a context of
// its own (v1's envelope, a page's form parser) registers a child inside, as before.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Registry } from 'prom-client';
import type { Deps } from '../deps.ts';
import type { RequestLogWriter } from './plugins/request-log.ts';
import type { App } from './route.ts';

/** What app.ts hands every surface: the dependencies, the request log (read back by /me/logs), metrics. */
export interface SurfaceOptions {
  deps: Deps;
  requestLog: RequestLogWriter;
  registry: Registry;
}

/** A surface's plugin, named `<name>-surface` (as Fastify's plugin tree and its errors show it). */
export function surface(
  name: string,
  declare: (app: App, opts: SurfaceOptions) => void,
): FastifyPluginAsync<SurfaceOptions> {
  return fp(async (app: FastifyInstance, opts: SurfaceOptions) => declare(app as unknown as App, opts), {
    name: `${name}-surface`,
  });
}
