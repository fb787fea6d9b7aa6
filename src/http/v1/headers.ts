// The deprecation headers of every v1 answer (decisions 11): where each v1 call lives in v2, for
// `Link: <...>; rel="successor-version"` (RFC 8288), keyed by method and route pattern.
import type { FastifyReply } from 'fastify';

export const SUCCESSOR: Record<string, string> = {
  'POST /v1/qr/create': '/v2/qr',
  'GET /v1/qr/status/:operationId': '/v2/qr',
  'POST /v1/invoice/create': '/v2/invoices',
  'POST /v1/invoice/cancel': '/v2/invoices',
  'POST /v1/history': '/v2/payments',
  'POST /v1/refund': '/v2/refunds',
  'GET /v1/client/:phone': '/v2/client',
  // No v2 twin (spec, Versioning 4): the cabinet's profile and usage carry the same facts.
  'GET /v1/status': '/me',
};

/** Unknown v1 paths have no successor; the API description lists every v2 path. */
export const NO_SUCCESSOR = '/openapi.json';

export const successorLink = (path: string) => `<${path}>; rel="successor-version"`;

/** Lets a handler name the exact v2 resource of its operation (/v2/qr/op_...), not just the collection. */
export function setSuccessor(reply: FastifyReply, path: string): void {
  reply.header('Link', successorLink(path));
}
