// Which variables turn traces on (decisions 29), and that without them nothing of the SDK is loaded: a
// process that loads the whole application and asks for tracing with no endpoint has only the API in
// memory (prom-client's own dependency), no SDK, no exporter.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config.ts';
import { startTracing } from '../../src/telemetry/tracing-sdk.ts';
import { currentTraceparent, inSpan, parseTraceparent, tracingOn } from '../../src/telemetry/tracing.ts';
import { tracedProvider } from '../../src/providers/traced.ts';
import { ROOT } from '../helpers/server.ts';

const otel = (env: Record<string, string>) => loadConfig(env).otel;

/** Modules of OpenTelemetry other than its API that a process has loaded. */
const sdkModules = (cache: Record<string, unknown>) =>
  Object.keys(cache).filter((k) => k.includes('@opentelemetry') && !k.includes('@opentelemetry/api/'));

describe('tracing configuration', () => {
  it('is off without an endpoint, and honours the standard variables', () => {
    expect(otel({})).toEqual({ endpoint: undefined, protocol: 'http/protobuf' });
    expect(otel({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      endpoint: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
    });
    // The signal's own variables win; its endpoint is used as it is.
    expect(
      otel({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/otlp/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }),
    ).toEqual({ endpoint: 'https://b/otlp/traces', protocol: 'http/json' });
    expect(otel({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'true' }).endpoint).toBeUndefined();
    expect(
      otel({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_TRACES_EXPORTER: 'none' }).endpoint,
    ).toBeUndefined();
  });

  it('refuses what it cannot do, naming the variable', () => {
    expect(() => otel({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json, got "grpc"/,
    );
    expect(() => otel({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT must be/,
    );
    expect(() => otel({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER must be otlp or none/);
  });

  it('without an endpoint: the helpers run plain and the drivers are not wrapped', async () => {
    expect(await startTracing({ protocol: 'http/protobuf' }, { role: 'all' })).toBeUndefined();
    expect(tracingOn()).toBe(false);
    expect(await inSpan('x', {}, async (span) => span)).toBeUndefined();
    expect(currentTraceparent()).toBeNull();
    const driver = { getStatus: async () => 'waiting' };
    expect(tracedProvider(driver, 'sandbox')).toBe(driver);
  });

  it('reads a stored traceparent, and nothing that only looks like one', () => {
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toEqual({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
      isRemote: true,
    });
    for (const bad of [
      '',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01',
    ])
      expect(parseTraceparent(bad), bad).toBeUndefined();
  });

  it('loads no SDK module in a process without an endpoint (and does with one)', async () => {
    const probe = [
      "import { createRequire } from 'node:module';",
      "await import('./src/app.ts'); await import('./src/bootstrap.ts'); await import('./src/jobs/index.ts');",
      "const { loadConfig } = await import('./src/config.ts');",
      "const { startTracing } = await import('./src/telemetry/tracing-sdk.ts');",
      "await startTracing(loadConfig().otel, { role: 'all' });",
      'const cache = createRequire(import.meta.url).cache;',
      "console.log(JSON.stringify(Object.keys(cache).filter((k) => k.includes('@opentelemetry'))));",
    ].join('\n');
    const env = { ...process.env };
    delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
    delete env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', probe],
      { cwd: ROOT, env, timeout: 60_000 },
    );
    const loaded = JSON.parse(stdout.trim().split('\n').at(-1)!) as string[];
    expect(sdkModules(Object.fromEntries(loaded.map((k) => [k, true])))).toEqual([]);

    // The same question asked of this process after starting the SDK: the check sees it when it is there.
    const handle = await startTracing(
      { endpoint: 'http://127.0.0.1:9/v1/traces', protocol: 'http/json' },
      { role: 'all' },
    );
    try {
      const seen = sdkModules(createRequire(import.meta.url).cache);
      expect(seen.some((k) => k.includes('@opentelemetry/sdk-trace-node/'))).toBe(true);
      expect(seen.some((k) => k.includes('@opentelemetry/exporter-trace-otlp-http/'))).toBe(true);
    } finally {
      await handle?.shutdown();
    }
  }, 90_000);
});
