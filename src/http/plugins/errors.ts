// Every failure leaves as the error envelope: domain errors, schema violations, parser errors, unknown
// routes (404), known paths with another method (405), and anything unexpected (500, no detail).
import fp from 'fastify-plugin';
import FindMyWay from 'find-my-way';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody } from '../../errors.ts';
import { storeUnavailable } from '../../db/unavailable.ts';

/** Seconds a client is asked to wait when the database cannot be reached: about a restart's length. */
export const STORE_RETRY_AFTER_S = 2;

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

function paramOf(e: AjvError): string | undefined {
  const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const extra = (e.params.missingProperty ?? e.params.additionalProperty) as string | undefined;
  if (extra) return path ? `${path}.${extra}` : extra;
  return path || undefined;
}

function fromValidation(err: FastifyError): AppError {
  const e = (err.validation as AjvError[] | undefined)?.[0];
  const where = err.validationContext;
  if (!e) return new AppError('invalid_parameter', err.message);
  const param = paramOf(e);
  if (where === 'headers' && param === 'idempotency-key') {
    if (e.keyword === 'required')
      return new AppError('idempotency_key_required', 'Idempotency-Key header is required', {
        param: 'Idempotency-Key',
      });
    return new AppError('invalid_parameter', 'Idempotency-Key must be 1 to 255 printable characters', {
      param: 'Idempotency-Key',
    });
  }
  if (where === 'querystring' && param === 'limit')
    return new AppError('invalid_limit', 'limit must be an integer from 1 to 100', { param: 'limit' });
  if (e.keyword === 'additionalProperties')
    return new AppError('invalid_parameter', `unknown field "${param}"`, { param });
  if (e.keyword === 'required') return new AppError('invalid_parameter', `${param} is required`, { param });
  if (where === 'body' && !param) return new AppError('invalid_parameter', 'request body must be a JSON object');
  return new AppError('invalid_parameter', `${param ?? where} ${e.message ?? 'is invalid'}`, { param });
}

export function toAppError(err: FastifyError | AppError | Error): AppError | undefined {
  if (err instanceof AppError) return err;
  // Not the request's fault nor a final answer: the client sends it again (same Idempotency-Key).
  if (storeUnavailable(err))
    return new AppError('service_unavailable', 'the service is briefly unavailable; retry the request', {
      headers: { 'Retry-After': STORE_RETRY_AFTER_S },
      cause: err,
    });
  const fe = err as FastifyError;
  if (fe.validation) return fromValidation(fe);
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'request body must be application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'request body is over 1 MiB');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json', 'request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('invalid_parameter', 'Content-Length does not match the body');
  }
  if (err instanceof SyntaxError && fe.statusCode === 400)
    return new AppError('invalid_json', 'request body is not valid JSON');
  if (fe.statusCode === 413) return new AppError('payload_too_large', 'request body is over 1 MiB');
  if (fe.statusCode === 415) return new AppError('unsupported_media_type', 'request body must be application/json');
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500)
    return new AppError('invalid_parameter', 'the request is not valid');
  return undefined;
}

export function sendError(reply: FastifyReply, req: FastifyRequest, err: AppError): FastifyReply {
  if (err.headers) reply.headers(err.headers);
  return reply
    .status(err.status)
    .type('application/json')
    .send(errorBody(err.code, err.status, err.message, req.id, err.param, err.extra));
}

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  // A router with every path and method, to tell 405 (path known, method not) from 404.
  const known = FindMyWay();
  app.addHook('onRoute', (r) => {
    for (const m of [r.method].flat()) {
      if (m === 'HEAD') continue;
      try {
        known.on(m as never, r.url, () => {});
      } catch {
        /* duplicate registrations (HEAD twins) are fine */
      }
    }
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const appErr = toAppError(err);
    if (appErr?.code === 'service_unavailable') req.log.warn({ err }, 'the store is not reachable');
    if (appErr) return sendError(reply, req, appErr);
    req.log.error({ err }, 'unhandled error');
    return sendError(reply, req, new AppError('internal_error', 'internal error'));
  });

  const answerNotFound = (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0];
    const allowed = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter(
      (m) => m !== req.method && known.find(m as never, path),
    );
    if (allowed.length) {
      reply.header('Allow', allowed.join(', '));
      return sendError(reply, req, new AppError('method_not_allowed', `${req.method} is not allowed on ${path}`));
    }
    return sendError(reply, req, new AppError('not_found', `no route ${req.method} ${path}`));
  };
  app.setNotFoundHandler(answerNotFound);
  // For contexts with their own not-found answer (v1) to hand back paths that are not theirs.
  app.decorate('answerNotFound', answerNotFound);
});

declare module 'fastify' {
  interface FastifyInstance {
    answerNotFound(req: FastifyRequest, reply: FastifyReply): FastifyReply;
  }
}
