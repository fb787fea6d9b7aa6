// Traces (decisions 29): the few calls the store, the providers, the HTTP layer and the jobs make to mark
// their work as spans. Nothing of OpenTelemetry is imported here at run time: tracing-sdk.ts loads the SDK
// and installs it only when OTEL_EXPORTER_OTLP_ENDPOINT is set. Until then every helper below runs its
// function as it is, so an installation without a collector loads and pays for nothing.
import type * as OtelApi from '@opentelemetry/api';

type Api = typeof OtelApi;
export type Span = OtelApi.Span;
export type Attributes = OtelApi.Attributes;

let installed: { api: Api; tracer: OtelApi.Tracer } | undefined;

/** Called by tracing-sdk.ts once the SDK is registered (and with undefined when it shuts down). */
export function installTracing(api: Api | undefined, tracer?: OtelApi.Tracer): void {
  installed = api && tracer ? { api, tracer } : undefined;
}

export const tracingOn = (): boolean => installed !== undefined;

/** The API when tracing is on: for the HTTP plugin, which manages its request span itself. */
export function tracingApi(): { api: Api; tracer: OtelApi.Tracer } | undefined {
  return installed;
}

// SpanKind's values, without loading the API to read them.
const KIND = { internal: 0, server: 1, client: 2, producer: 3, consumer: 4 } as const;
const STATUS_ERROR = 2;

export interface SpanOptions {
  kind?: keyof typeof KIND;
  attributes?: Attributes;
  /**
   * A W3C traceparent stored with queued work (a webhook delivery, an outbox message): the span continues
   * the trace of the transaction that queued it, whatever is active now.
   */
  parent?: string | null;
  /**
   * Record only under a span already active. The store's statements take this: a job's idle poll every
   * quarter second would otherwise be a one-span trace of its own, thousands an hour, each saying nothing.
   */
  requireParent?: boolean;
}

/**
 * Runs `fn` inside a new span, the child of the active one (or of `parent`), and ends it when `fn`
 * settles; a throw is recorded on the span and rethrown. Tracing off: `fn(undefined)`.
 */
export function inSpan<T>(name: string, opts: SpanOptions, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
  const t = installed;
  if (!t) return fn(undefined);
  const { api, tracer } = t;
  let parent = api.context.active();
  const stored = opts.parent ? parseTraceparent(opts.parent) : undefined;
  if (stored) parent = api.trace.setSpanContext(api.ROOT_CONTEXT, stored);
  else if (opts.requireParent && !api.trace.getSpan(parent)) return fn(undefined);
  const span = tracer.startSpan(name, { kind: KIND[opts.kind ?? 'internal'], attributes: opts.attributes }, parent);
  return api.context.with(api.trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (err) {
      failSpan(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Marks a span failed with `err` (a thrown error, or a result the caller counts as a failure). */
export function failSpan(span: Span, err: unknown): void {
  const e = err instanceof Error ? err : new Error(String(err));
  span.recordException(e);
  span.setStatus({ code: STATUS_ERROR, message: e.message });
}

/** The active span as a W3C traceparent, to store with work another process continues; null when none. */
export function currentTraceparent(): string | null {
  const span = installed?.api.trace.getActiveSpan();
  if (!span) return null;
  const c = span.spanContext();
  if (!installed!.api.isSpanContextValid(c)) return null;
  return `00-${c.traceId}-${c.spanId}-${(c.traceFlags & 1).toString(16).padStart(2, '0')}`;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A stored traceparent as a remote span context; undefined for anything malformed or all zeros. */
export function parseTraceparent(v: string): OtelApi.SpanContext | undefined {
  const m = TRACEPARENT.exec(v);
  if (!m || /^0+$/.test(m[1]) || /^0+$/.test(m[2])) return undefined;
  return { traceId: m[1], spanId: m[2], traceFlags: Number.parseInt(m[3], 16) & 1, isRemote: true };
}

/**
 * Where a request's logger keeps its request span (set by the HTTP plugin): Fastify writes "incoming
 * request" before any hook can make the span active, so the log mixin reads it from the logger.
 */
export const REQUEST_SPAN = Symbol('tolem.requestSpan');

/**
 * pino's mixin: trace_id and span_id of the active span (else of the logger's request span) on every line
 * written under one. Installed only with tracing on.
 */
export function traceLogFields(_obj: object, _level: number, logger?: object): Record<string, string> {
  const span =
    installed?.api.trace.getActiveSpan() ?? (logger as { [REQUEST_SPAN]?: Span } | undefined)?.[REQUEST_SPAN];
  if (!span) return {};
  const c = span.spanContext();
  return { trace_id: c.traceId, span_id: c.spanId };
}
