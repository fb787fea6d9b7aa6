// Spans for the store's statements (decisions 29). Every query of both drivers, PostgreSQL through `pg`
// and the embedded PGlite, goes through the Db interface, so wrapping it here covers them all; the
// auto-instrumentation of `pg` would miss PGlite and the prepared path of pglite-prepared.ts. Applied by
// connect() only when tracing is on: otherwise the Db is the drivers' own, untouched.
import { inSpan, type Attributes } from '../telemetry/tracing.ts';
import type { QueryResult } from './query-result.ts';

// db.ts's Queryable and the part of its Db wrapped here, by shape: db.ts imports this file.
interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}
interface Traceable extends Queryable {
  readonly kind: string;
  readonly relaxed: Queryable;
  tx<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

/** The statement's first keyword (SELECT, INSERT, WITH, ...): the span's name, as the conventions ask. */
function operationOf(sql: string): string {
  const m = /^\s*([A-Za-z]+)/.exec(sql);
  return m ? m[1].toUpperCase() : 'SQL';
}

function traced(q: Queryable, attrs: Attributes): Queryable {
  return {
    query<T>(sql: string, params?: unknown[]) {
      const operation = operationOf(sql);
      return inSpan(
        operation,
        {
          kind: 'client',
          requireParent: true,
          // The statement's text only: its parameters (amounts, phones, secrets sealed or not) never go.
          attributes: { ...attrs, 'db.operation.name': operation, 'db.query.text': sql },
        },
        async (span) => {
          const r = await q.query<T>(sql, params);
          span?.setAttribute('db.response.returned_rows', r.rows.length);
          return r;
        },
      );
    },
  };
}

/** The same store, its statements and transactions as spans; every other member is the store's own. */
export function tracedDb<D extends Traceable>(db: D): D {
  const attrs: Attributes = { 'db.system.name': 'postgresql', 'db.system': 'postgresql', 'tolem.db.store': db.kind };
  const plain = traced(db, attrs);
  return {
    ...db,
    query: plain.query,
    relaxed: traced(db.relaxed, { ...attrs, 'tolem.db.relaxed': true }),
    // One span for the transaction, its statements beneath it (BEGIN and COMMIT are inside its time).
    tx: <T>(fn: (tx: Queryable) => Promise<T>) =>
      inSpan('transaction', { kind: 'client', requireParent: true, attributes: attrs }, () =>
        db.tx((tx) => fn(traced(tx, attrs))),
      ),
  };
}
