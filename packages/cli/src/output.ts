// What a command prints: JSON (--json) for scripts, a short table or line for people; progress on stderr
// so that stdout stays the result; errors with the API's code and request id.
import { TolemError } from '@tolem/sdk';

export interface Out {
  json: boolean;
  result(value: unknown, human: () => string): void;
  progress(line: string): void;
}

export function output(json: boolean): Out {
  return {
    json,
    result(value, human) {
      process.stdout.write(`${json ? JSON.stringify(value) : human()}\n`);
    },
    progress(line) {
      if (!json) process.stderr.write(`${line}\n`);
    },
  };
}

export const tenge = (n: number) => `${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} ₸`;

export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (!rows.length) return '(none)';
  const cell = (v: unknown) => (v === null || v === undefined ? '—' : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}

/** Prints a failure and exits 1: the API's error with its request id, or what went wrong locally. */
export function fail(err: unknown, json: boolean): never {
  if (err instanceof TolemError) {
    if (json) process.stdout.write(`${JSON.stringify({ error: err.body, status: err.status })}\n`);
    else
      process.stderr.write(
        `Error: ${err.code}: ${err.body.message}${err.requestId ? ` (request ${err.requestId})` : ''}\n`,
      );
  } else {
    const message = err instanceof Error ? err.message : String(err);
    if (json) process.stdout.write(`${JSON.stringify({ error: { type: 'cli_error', code: 'cli_error', message } })}\n`);
    else process.stderr.write(`Error: ${message}\n`);
  }
  process.exit(1);
}
