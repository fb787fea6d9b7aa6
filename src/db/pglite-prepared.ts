// Prepared statements on the embedded store. PGlite's query() parses, describes and plans every
// statement anew in five calls into the WASM module; PostgreSQL through `pg` gets named statements from
// connectPg (parsed and planned once per connection). This gives PGlite the same: the first run of a
// text prepares it under a name and remembers its parameter types and result columns, every later run
// is one call (Bind, Execute, Sync). Measured on the sandbox ledger insert: 283 µs through query(),
// 72 µs prepared; a one-parameter SELECT: 98 µs and 24 µs.
//
// It takes PGlite's own locks exactly as query() does (transaction lock outside a transaction, query
// lock always), so a statement never lands inside another caller's open transaction.
import { protocol, type PGlite } from '@electric-sql/pglite';
import type { QueryResult } from './query-result.ts';

type Message = { name: string } & Record<string, unknown>;
interface Prepared {
  name: string;
  paramTypes: number[];
  fields: { name: string; dataTypeID: number }[];
}

/** Distinct statement texts kept prepared; beyond that, texts run unprepared (still correct, slower). */
export const MAX_PREPARED = 1000;

const { serialize } = protocol;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function preparedRunner(lite: PGlite) {
  const statements = new Map<string, Prepared>();
  const send = (parts: Uint8Array[]) =>
    lite.execProtocolStream(concat(parts), { syncToFs: false }) as Promise<Message[]>;

  async function prepare(sql: string, name: string): Promise<Prepared> {
    const messages = await send([
      serialize.parse({ name, text: sql }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ]);
    const params = messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs: number[] } | undefined;
    const rows = messages.find((m) => m.name === 'rowDescription') as { fields: Prepared['fields'] } | undefined;
    const st = {
      name,
      paramTypes: params?.dataTypeIDs ?? [],
      fields: rows?.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })) ?? [],
    };
    if (name) statements.set(sql, st);
    return st;
  }

  /** Runs one statement; the caller holds PGlite's query lock. */
  async function run<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
    // Over the bound, the text goes to the unnamed statement, replaced by the next one.
    const st = statements.get(sql) ?? (await prepare(sql, statements.size < MAX_PREPARED ? `t${statements.size}` : ''));
    // The same serialization query() applies: by the parameter's type as PostgreSQL inferred it.
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const ser = lite.serializers[st.paramTypes[i]];
      return ser ? ser(v) : String(v);
    });
    const messages = await send([
      serialize.bind({ statement: st.name, values: values as string[] }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    const rows: T[] = [];
    let rowCount = 0;
    for (const m of messages) {
      if (m.name === 'dataRow') {
        const fields = m.fields as (string | null)[];
        const row: Record<string, unknown> = {};
        for (let i = 0; i < st.fields.length; i++) {
          const f = st.fields[i];
          const raw = fields[i];
          const parse = lite.parsers[f.dataTypeID];
          row[f.name] = raw === null ? null : parse ? parse(raw, f.dataTypeID) : raw;
        }
        rows.push(row as T);
      } else if (m.name === 'commandComplete') {
        // "INSERT 0 3", "UPDATE 2", "SELECT 5": the last word counts the rows touched or returned.
        const n = Number((m.text as string).split(' ').pop());
        if (Number.isFinite(n)) rowCount = n;
      }
    }
    return { rows, rowCount };
  }

  return {
    /** Outside a transaction: waits for any open one, as query() does. */
    query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      return lite._runExclusiveTransaction(() =>
        lite._runExclusiveQuery(async () => {
          const r = await run<T>(sql, params);
          await lite.syncToFs(); // as query() does; a no-op on the file and memory stores used here
          return r;
        }),
      );
    },
    /** Inside lite.transaction(): the transaction lock is already ours. */
    queryInTx<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      return lite._runExclusiveQuery(() => run<T>(sql, params));
    },
  };
}
