// What a surface's handler reads of a request and what it answers; the server does the rest (faults,
// latency, the per-register queue, sending).
import type { Obj } from './jsonc.ts';

export interface ApiRequest {
  method: string;
  /** the path as sent */
  path: string;
  query: URLSearchParams;
  /** the body as an object (comments allowed); undefined when it is not JSON */
  body: Obj | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** https://<Host header>: the base of links the answer carries */
  base: string;
}

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** sent as text/plain instead of `body` as JSON */
  text?: string;
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): Answer => ({
  status,
  body,
  headers,
});
