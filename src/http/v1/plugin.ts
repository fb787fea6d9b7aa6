// The v1 surface as one encapsulated Fastify context under /v1. Encapsulation is what lets v1 keep its own
// failure envelope: Fastify hands an error to the error handler of the *route's* context, so failures
// raised by the global hooks (401 and 429 from the auth hook, 409 and 400 from idempotency), by schema
// validation and by the domain all come here, while the rest of the API keeps the v2 envelope.
import FindMyWay from 'find-my-way';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { toAppError } from '../plugins/errors.ts';
import type { App } from '../route.ts';
import { v1PaymentRoutes } from './payments.ts';
import { v1AccountRoutes } from './account.ts';
import { NO_SUCCESSOR, SUCCESSOR, successorLink } from './headers.ts';

/**
 * AppError -> (HTTP status, v1 StatusCode). StatusCode is minus the HTTP status, except the provider
 * session (-999, HTTP 503). v1 knows one provider code (-503), so v2's 502 provider_error answers 503
 * too, and its one input code (-400) covers v2's 413 and 415. Codes v1 never listed (-403, -405, -409,
 * -410, -500) follow the same minus-the-status rule.
 */
export function v1Failure(err: AppError): { http: number; code: number } {
  if (err.code === 'session_expired') return { http: 503, code: -999 };
  if (err.status === 502 || err.status === 503) return { http: 503, code: -503 };
  if (err.status === 413 || err.status === 415) return { http: 400, code: -400 };
  return { http: err.status, code: -err.status };
}

export function v1Routes(app: App, deps: Deps): void {
  app.register(
    async (v1: FastifyInstance) => {
      const sunset = deps.config.v1SunsetAt;
      const sunsetHttp = sunset.toUTCString(); // e.g. Thu, 31 Dec 2026 23:59:59 GMT
      const over = () => deps.clock.now().getTime() > sunset.getTime();
      const gone = () =>
        new AppError('gone', `v1 was switched off on ${sunsetHttp}; use v2 (see docs/migration-v1-to-v2.md)`);

      const send = (reply: FastifyReply, err: AppError) => {
        const { http, code } = v1Failure(err);
        if (err.headers) reply.headers(err.headers);
        return reply
          .status(http)
          .type('application/json; charset=utf-8')
          .send({ Data: null, StatusCode: code, Message: err.message });
      };

      // /v1/subscription/* are cabinet calls under the old prefix (decisions 20), registered outside this
      // context; their unknown paths and methods land here and are answered as the rest of the API is,
      // whatever v1's sunset.
      const outsideV1 = (req: FastifyRequest) => req.url.startsWith('/v1/subscription/');

      // A path router of the v1 routes, to answer 405 (path known, method not) rather than 404.
      const known = FindMyWay();
      v1.addHook('onRoute', (r) => {
        for (const m of [r.method].flat()) if (m !== 'HEAD') known.on(m as never, r.url, () => {});
      });

      // Global onRequest hooks (auth, rate limit) run before this one, so a refused credential after the
      // sunset is turned into 410 by the error handler below instead.
      v1.addHook('onRequest', async (req) => {
        if (over() && !outsideV1(req)) throw gone();
      });

      // Every v1 answer, success, failure, replay or 404, says it is deprecated and where to go.
      v1.addHook('onSend', async (req: FastifyRequest, reply, payload) => {
        if (outsideV1(req)) return payload;
        reply.header('Deprecation', 'true');
        reply.header('Sunset', sunsetHttp);
        if (!reply.hasHeader('Link')) {
          const path = SUCCESSOR[`${req.method === 'HEAD' ? 'GET' : req.method} ${req.routeOptions.url}`];
          reply.header('Link', successorLink(path ?? NO_SUCCESSOR));
        }
        return payload;
      });

      v1.setErrorHandler((err: FastifyError, req, reply) => {
        if (over()) return send(reply, gone());
        const appErr = toAppError(err);
        if (appErr) return send(reply, appErr);
        req.log.error({ err }, 'unhandled error in v1');
        return send(reply, new AppError('internal_error', 'internal error'));
      });

      // Unknown /v1/... paths answer in the v1 envelope too: a v1 client parses only that.
      v1.setNotFoundHandler((req, reply) => {
        const path = req.url.split('?')[0];
        if (outsideV1(req)) return v1.answerNotFound(req, reply);
        if (over()) return send(reply, gone());
        const allowed = ['GET', 'POST'].filter((m) => m !== req.method && known.find(m as never, path));
        if (allowed.length) {
          reply.header('Allow', allowed.join(', '));
          return send(reply, new AppError('method_not_allowed', `${req.method} is not allowed on ${path}`));
        }
        return send(reply, new AppError('not_found', `no v1 route ${req.method} ${path}`));
      });

      v1PaymentRoutes(v1 as unknown as App, deps);
      v1AccountRoutes(v1 as unknown as App, deps);
    },
    { prefix: '/v1' },
  );
}
