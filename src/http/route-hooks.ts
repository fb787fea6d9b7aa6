// Hooks that only some routes need are added to those routes alone (from an onRoute hook), not to the
// app: every app-level hook costs each request of every route a call (and an async one a promise and a
// microtask), which showed in the CPU of the busiest public reads (docs/performance.md).
import type { onSendHookHandler, preHandlerHookHandler, RouteOptions } from 'fastify';

type Hooks = { preHandler: preHandlerHookHandler; onSend: onSendHookHandler };

/** Appends `hook` to the route's own hooks of that name (after the app's, as route hooks always run). */
export function addRouteHook<K extends keyof Hooks>(route: RouteOptions, name: K, hook: Hooks[K]): void {
  const hooks = route as unknown as Record<K, unknown>;
  const existing = hooks[name];
  hooks[name] = existing === undefined ? [hook] : [...[existing].flat(), hook];
}
