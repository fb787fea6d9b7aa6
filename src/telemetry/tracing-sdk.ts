// Starts the OpenTelemetry SDK when traces are configured (Config.otel: OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). Its packages are imported here, dynamically, and only then: without
// an endpoint none of them is loaded. The exporter and the batch processor read the other standard
// variables themselves (OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, _COMPRESSION, _CERTIFICATE, OTEL_BSP_*), the
// sampler reads OTEL_TRACES_SAMPLER(_ARG), and the resource OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
import { installTracing } from './tracing.ts';

/** Config.otel's shape (telemetry/ imports nothing of the application: every layer uses it). */
export interface OtelSettings {
  /** the traces URL (…/v1/traces) */
  endpoint?: string;
  protocol: 'http/protobuf' | 'http/json';
}

export interface TracingHandle {
  /** exports every span ended so far (tests, and before a process exits) */
  flush(): Promise<void>;
  /** flushes, then stops exporting; the helpers of tracing.ts run plain again */
  shutdown(): Promise<void>;
}

export async function startTracing(
  otel: OtelSettings,
  about: { role: string; version?: string },
): Promise<TracingHandle | undefined> {
  if (!otel.endpoint) return undefined;
  const [api, sdk, resources, exporter] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
    otel.protocol === 'http/json'
      ? import('@opentelemetry/exporter-trace-otlp-http')
      : import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  // The variables (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) win over these defaults.
  const resource = resources
    .resourceFromAttributes({
      'service.name': 'tolem',
      'service.version': about.version ?? '',
      'tolem.role': about.role,
    })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new sdk.NodeTracerProvider({
    resource,
    spanProcessors: [new sdk.BatchSpanProcessor(new exporter.OTLPTraceExporter({ url: otel.endpoint }))],
  });
  // The context manager (AsyncLocalStorage) and the W3C trace-context propagator.
  provider.register();
  installTracing(api, provider.getTracer('tolem', about.version));
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      installTracing(undefined);
      await provider.shutdown();
      api.trace.disable();
      api.context.disable();
      api.propagation.disable();
    },
  };
}
