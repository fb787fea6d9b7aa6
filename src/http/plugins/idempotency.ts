// Idempotency (decisions 6) for every route that declares it: the key is scoped to client, mode, method
// and path, and fingerprinted with the body. The first request claims the key ('running', with a lease);
// a replay gets the stored response with Idempotent-Replayed: true; a different body, or a request while
// the first still runs, is 409 idempotency_conflict. 5xx and 429 are not stored, so the key can be
// retried. Routes that create something save their response inside the creating transaction
// (`saveInTx`), so an operation and its stored response commit together: a crash cannot leave an
// operation whose key would create a second one.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, onSendHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { createHash } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError, errorBody } from '../../errors.ts';
import type { RouteConfig } from '../route.ts';
import { addRouteHook } from '../route-hooks.ts';
import { isTenantPrincipal } from '../../domain/access/principal.ts';
import type { Receipt } from '../../domain/receipt.ts';
import { ClaimReleases } from './idempotency-release.ts';

const LEASE_S = 60;

export interface IdempotencyHandle {
  /** The key with the method and path it is scoped to, for records that must know which request made them. */
  readonly requestKey: string;
  /**
   * A stable id of this request (same client, mode, path, key and body) for the provider, which answers a
   * repeated id with what the first made: a retry after a lost answer gets that QR or invoice, not a second.
   */
  readonly requestId: string;
  /** Stores the final response in the caller's transaction. */
  saveInTx(tx: Queryable, status: number, body: unknown): Promise<void>;
  /** The same, as one statement to embed (a CTE) in the caller's own statement; placeholders start after `offset`. */
  saveStatement(offset: number, status: number, body: unknown): { sql: string; params: unknown[] };
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: IdempotencyHandle & { scope: unknown[]; saved: boolean; claimedAt: number };
  }
}

/** JSON with sorted keys, so that {a,b} and {b,a} are the same request. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export const requestFingerprint = (account: unknown, body: unknown) =>
  createHash('sha256')
    .update(`${account ?? ''}|${canonical(body ?? {})}`)
    .digest('hex');

const fingerprint = (req: FastifyRequest) => requestFingerprint(req.headers['x-provider-account'], req.body);

const SCOPE = 'client_id = $1 AND mode = $2 AND method = $3 AND path = $4 AND key = $5';

const CLAIM = `INSERT INTO idempotency_keys (client_id, mode, method, path, key, fingerprint, state, locked_until)
               VALUES ($1, $2, $3, $4, $5, $6, 'running', now() + make_interval(secs => ${LEASE_S}))
               ON CONFLICT DO NOTHING`;

// The save statement's text per parameter offset, made once (see Receipt.saveStatement).
const saveTexts = new Map<number, string>();
function saveText(offset: number): string {
  let text = saveTexts.get(offset);
  if (!text) {
    const n = (i: number) => `$${offset + i}`;
    text = `UPDATE idempotency_keys SET state = 'done', response_status = ${n(6)}, response_body = ${n(7)}
             WHERE client_id = ${n(1)} AND mode = ${n(2)} AND method = ${n(3)} AND path = ${n(4)} AND key = ${n(5)}`;
    saveTexts.set(offset, text);
  }
  return text;
}

/**
 * The path as the route saw it: its pattern with the decoded parameters put back. `/v2/qr/`, `//v2/qr` or
 * `/v2/invoices/op%5F1/cancel` reach the same route as their plain spelling, so they are the same request.
 */
function canonicalPath(req: FastifyRequest): string {
  const params = (req.params ?? {}) as Record<string, string>;
  return req.routeOptions.url!.replace(/:(\w+)/g, (_, name: string) => params[name] ?? '');
}

/**
 * Deletes a claim left 'running' by a request that failed, while the claim's lease holds: after it, the
 * key may be another request's (ClaimReleases, idempotency-release.ts).
 */
export function releaseHeldClaim(db: Queryable, scope: unknown[]): Promise<unknown> {
  return db.query(`DELETE FROM idempotency_keys WHERE ${SCOPE} AND state = 'running' AND locked_until > now()`, scope);
}

export const idempotencyPlugin = fp(async (app: FastifyInstance, opts: { deps: Deps }) => {
  const { db } = opts.deps;
  app.decorateRequest('idempotency', undefined);
  const releases = new ClaimReleases((scope) => releaseHeldClaim(db, scope), LEASE_S);
  app.addHook('onClose', async () => releases.stop());

  const claim: preHandlerAsyncHookHandler = async (req, reply) => {
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || !req.principal) return;
    if (!/^[\x20-\x7e]{1,255}$/.test(key)) {
      throw new AppError('invalid_parameter', 'Idempotency-Key must be 1 to 255 printable ASCII characters', {
        param: 'Idempotency-Key',
      });
    }
    const p = req.principal;
    // Keys are scoped to a client and mode (decisions 6); a partner key's to the partner's own client (its
    // paths are its own); a route without either cannot be idempotent.
    const owner = isTenantPrincipal(p)
      ? p
      : p.kind === 'partner_key'
        ? { clientId: p.partnerClientId, mode: p.mode }
        : undefined;
    if (!owner) throw new Error(`${req.routeOptions.url}: idempotency needs a client-bound credential`);
    const scope = [owner.clientId, owner.mode, req.method, canonicalPath(req), key];
    const fp = fingerprint(req);
    const claimedAt = Date.now();
    // Relaxed commit: the claim becomes durable with the request's own final commit (see Db.relaxed);
    // other requests see it at once either way.
    const claimed = await db.relaxed.query(CLAIM, [...scope, fp]);
    if (claimed.rowCount === 0) {
      const r = await db.query<{
        fingerprint: string;
        state: string;
        response_status: number;
        response_body: string;
        lease_over: boolean;
      }>(
        `SELECT fingerprint, state, response_status, response_body, locked_until < now() AS lease_over
           FROM idempotency_keys WHERE ${SCOPE}`,
        scope,
      );
      const row = r.rows[0];
      if (!row)
        throw new AppError('idempotency_conflict', 'the request with this Idempotency-Key is being retried; try again');
      if (row.fingerprint !== fp) {
        throw new AppError('idempotency_conflict', 'this Idempotency-Key was used with a different request');
      }
      if (row.state === 'done') {
        reply.header('Idempotent-Replayed', 'true');
        return reply.status(row.response_status).type('application/json; charset=utf-8').send(row.response_body);
      }
      // Still running: unless its holder died (lease over), this is a concurrent duplicate.
      const taken = row.lease_over
        ? await db.query(
            `UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => ${LEASE_S})
              WHERE ${SCOPE} AND state = 'running' AND locked_until < now()`,
            scope,
          )
        : { rowCount: 0 };
      if (taken.rowCount === 0)
        throw new AppError('idempotency_conflict', 'a request with this Idempotency-Key is still running');
    }
    req.idempotency = {
      scope,
      claimedAt,
      requestKey: `${req.method} ${scope[3]} ${key}`,
      requestId: `rq_${createHash('sha256')
        .update(`${scope.join('|')}|${fp}`)
        .digest('hex')
        .slice(0, 32)}`,
      saved: false,
      saveStatement(offset, status, body) {
        this.saved = true;
        return { sql: saveText(offset), params: [...scope, status, JSON.stringify(body)] };
      },
      async saveInTx(tx, status, body) {
        await tx.query(
          `UPDATE idempotency_keys SET state = 'done', response_status = $6, response_body = $7 WHERE ${SCOPE}`,
          [...scope, status, JSON.stringify(body)],
        );
        this.saved = true;
      },
    };
  };

  const save: onSendHookHandler = async (req, reply, payload) => {
    const h = req.idempotency;
    if (!h || reply.getHeader('Idempotent-Replayed')) return payload;
    const status = reply.statusCode;
    if (status >= 500 || status === 429) {
      // Not stored, so the client may retry with the key. A response saved in a transaction that then
      // failed never committed: the row is still 'running' and goes too.
      // When the store itself is what failed, the delete fails too: the 5xx still goes out, and the claim
      // is released again once the store answers (idempotency-release.ts).
      await db.query(`DELETE FROM idempotency_keys WHERE ${SCOPE} AND state = 'running'`, h.scope).catch((err) => {
        req.log.warn({ err }, 'idempotency claim not released; trying again while the store is back');
        releases.add({ scope: h.scope, claimedAt: h.claimedAt });
      });
    } else if (!h.saved) {
      h.saved = true;
      await db.query(
        `UPDATE idempotency_keys SET state = 'done', response_status = $6, response_body = $7
          WHERE ${SCOPE} AND state = 'running'`,
        [...h.scope, status, typeof payload === 'string' ? payload : JSON.stringify(payload)],
      );
    }
    return payload;
  };

  // Only the routes that declare idempotency carry these hooks (route-hooks.ts).
  app.addHook('onRoute', (r) => {
    if (!(r.config as RouteConfig | undefined)?.idempotent) return;
    addRouteHook(r, 'preHandler', claim);
    addRouteHook(r, 'onSend', save);
  });
});

/**
 * An invoice whose creation's answer was lost (decisions 24): this request's key answers its retries with
 * 409 provider_outcome_unknown (in the v1 envelope on v1) instead of creating again. Saved as done, so the
 * failing answer of the request itself does not free the key.
 */
async function saveOutcomeUnknown(db: Queryable, req: FastifyRequest, envelope: 'v2' | 'v1'): Promise<void> {
  if (!req.idempotency) return;
  const message =
    'the provider may have sent this invoice; its answer was lost. ' +
    "Check the customer's phone before sending another (a new Idempotency-Key)";
  const body =
    envelope === 'v1'
      ? { Data: null, StatusCode: -409, Message: message }
      : errorBody('provider_outcome_unknown', 409, message, req.id);
  await req.idempotency.saveInTx(db, 409, body);
}

export interface ReceiptOptions {
  /**
   * Let the use case save the answer inside its own insert (one statement, no transaction). The answer is
   * then made from the row as inserted, before the database adds `seq` and the timestamps: only for answers
   * that need neither (v2's QrCreated and InvoiceCreated; not v1's, which carry the seq).
   */
  oneStatement?: boolean;
  /** The envelope of the 409 the key answers when the provider's outcome is unknown (invoice creation). */
  outcomeUnknown?: 'v2' | 'v1';
}

/**
 * The request's receipt (domain/receipt.ts): `answer(result)` with `status` stored under its
 * Idempotency-Key in the use case's transaction. Undefined when the request sent no key (a route where the
 * key is optional): the response is then not stored, and nothing else changes.
 */
export function receiptFor<R>(
  deps: Pick<Deps, 'db'>,
  req: FastifyRequest,
  status: number,
  answer: (result: R) => unknown,
  opts: ReceiptOptions = {},
): Receipt<R> | undefined {
  const h = req.idempotency;
  if (!h) return undefined;
  const envelope = opts.outcomeUnknown;
  return {
    requestId: h.requestId,
    requestKey: h.requestKey,
    save: async (tx, result) => h.saveInTx(tx, status, await answer(result)),
    saveStatement: opts.oneStatement ? (result, offset) => h.saveStatement(offset, status, answer(result)) : undefined,
    outcomeUnknown: envelope ? () => saveOutcomeUnknown(deps.db, req, envelope) : undefined,
  };
}
