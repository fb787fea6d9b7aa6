// Environment parsed once, typed. Everything is optional for a local run (decisions 14).

import { readFileSync } from 'node:fs';
import { parseTimezone } from './providers/qrapi/dates.ts';

export type ProcessRole = 'all' | 'api' | 'worker';

export interface OidcIssuer {
  /** the `provider` value clients send in register/login */
  name: string;
  issuer: string;
  audience: string;
  jwks_uri: string;
}

export interface RateLimits {
  live: number;
  test: number;
  enterprise: number;
  auth: number;
  /**
   * token refreshes per minute per refresh-token family (decisions 30): one signed-in browser, however many
   * tabs and page loads; a token nobody issued counts against `auth` of its address instead
   */
  refresh: number;
  /** login attempts per minute per e-mail and address (an IPv6 /64 is one address): what one address may try */
  login_email: number;
  /**
   * login attempts per hour (not per minute) per e-mail from every address that has not signed in to it
   * lately, together (src/http/auth/routes.ts)
   */
  login_email_hourly: number;
  cabinet: number;
  partner: number;
  anonymous: number;
  checkout_get: number;
  checkout_status: number;
  checkout_refresh: number;
  checkout_email: number;
}

export interface Config {
  port: number;
  host: string;
  publicBaseUrl: string;
  databaseUrl?: string;
  dataDir: string;
  /** where generated secrets are kept on disk: SECRETS_FILE, else DATA_DIR/secrets.json (src/secrets.ts) */
  secretsFile?: string;
  redisUrl?: string;
  appSecret?: string;
  /** earlier APP_SECRETs: they still open what they sealed until `reseal` has run (rotation) */
  appSecretPrevious: string[];
  jwtPrivateKey?: string;
  jwtIssuer: string;
  jwtAudience: string;
  role: ProcessRole;
  /** ROLE=worker touches this file every 5 s while its store answers (a container's health check reads it) */
  heartbeatFile?: string;
  webhooksAllowPrivate: boolean;
  webhookRetrySchedule: number[];
  webhookTimeoutMs: number;
  /** deliveries a worker keeps in flight; unset: 50 on PostgreSQL, 500 on the embedded store (docs/performance.md) */
  webhookConcurrency: number | undefined;
  providerDriver: 'sandbox' | 'gateway' | 'qrapi';
  /** the qrapi driver (decisions 24, 25) */
  qrapi: QrapiConfig;
  providerGatewayUrl?: string;
  /** how long a gateway call may take before its outcome is treated as unknown */
  providerTimeoutMs: number;
  adminEmails: string[];
  /** bearer token that /metrics then requires; unset: /metrics is open (decisions 25) */
  metricsToken?: string;
  /**
   * a second listener for /metrics, /healthz and /readyz only (http/metrics-listener.ts): how a ROLE=worker
   * process, which has no HTTP listener, is scraped and health-checked; unset: none
   */
  metricsPort?: number;
  /** traces over OTLP (decisions 29); no endpoint: tracing off and its packages never loaded */
  otel: OtelConfig;
  partnerAutoApprove: boolean;
  rateLimits: RateLimits;
  trustProxy: boolean | string;
  oidcIssuers: OidcIssuer[];
  v1SunsetAt: Date;
  pgPoolMax: number;
  nodeEnv: string;
  logLevel: string;
  amountMax: number;
  /** base of links into the web dashboard (invites, login links); decisions 25 */
  dashboardUrl: string;
  /** the operator's requisites printed on partner acts (decisions 25); unset: the act says so */
  operator: { name?: string; bin?: string; address?: string; iban?: string; bank?: string };
  /** days a partner's commission stays pending before it can be withdrawn (decisions 21) */
  partnerCommissionHoldDays: number;
  /** tenge per 30 days of each plan that can be bought (decisions 20) */
  planPrices: Record<string, number>;
  /** the three channels (decisions 18): each unset is the `log` driver */
  channels: ChannelConfig;
  /** cloud cash registers (decisions 27) */
  fiscal: FiscalConfig;
}

/** Where the fiscal drivers reach their services; the merchant's own credentials live on each register. */
export interface FiscalConfig {
  /** Webkassa API v4 (FISCAL_WEBKASSA_URL; its production host by default) */
  webkassaUrl: string;
  /** the integrating system's x-api-key Webkassa issues (FISCAL_WEBKASSA_API_KEY); a register's own wins */
  webkassaApiKey?: string;
  /** reKassa's partner API, without its /api (FISCAL_REKASSA_URL; production by default) */
  rekassaUrl: string;
  /** reKassa's partner apiKey (FISCAL_REKASSA_API_KEY); a register's own wins */
  rekassaApiKey?: string;
  /** PEM of an extra CA to trust beside the system's (FISCAL_CA_FILE: the fiscal emulator's), read at start */
  caFile?: string;
  /** how long a call may take before its outcome is unknown (FISCAL_TIMEOUT_MS) */
  timeoutMs: number;
  /** local time (UTC+5) each register's shift is closed daily (FISCAL_SHIFT_CLOSE_AT, HH:MM) */
  shiftCloseAt: { hour: number; minute: number };
}

export interface QrapiConfig {
  r1?: string;
  r2?: string;
  r3?: string;
  /** PEM of the provider's CA (QRAPI_CA_FILE), read at start */
  caFile?: string;
  operatorPfxFile?: string;
  operatorPfxPassword?: string;
  egressProxy?: string;
  /** the watcher's ceiling of status calls per second per provider account */
  watchCallsPerSecond: number;
  /** first retry delay of safe calls, ms */
  retryBaseMs: number;
  /** how long an account's breaker stays open after 5 failures in a row, ms */
  breakerOpenMs: number;
  /** payment/status version: v02 (the default; adds the transaction id) or v01 (the integration document's) */
  statusVersion: 'v01' | 'v02';
  /** minutes east of UTC of the provider's times written without an offset (QRAPI_TIMEZONE; UTC+5) */
  localOffset: number;
  /** phones to the provider as 8XXXXXXXXXX (the document's form, default) or 7XXXXXXXXXX (QRAPI_PHONE_FORMAT=7) */
  phoneFormat: '8' | '7';
}

/**
 * The standard OpenTelemetry variables that decide whether traces are exported and how. The SDK reads the
 * rest of them itself (headers, time-out, compression, certificates, OTEL_BSP_*, sampler, resource).
 */
export interface OtelConfig {
  /** where spans go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces */
  endpoint?: string;
  /** OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL: http/protobuf (default) or http/json */
  protocol: 'http/protobuf' | 'http/json';
}

export interface ChannelConfig {
  messenger?: { botToken: string; apiUrl: string };
  /** deep links of the bot: <linkBase>/<botUsername>?start=<token> */
  messengerLinkBase: string;
  messengerBotUsername: string;
  /** the secret-token header every inbound bot update must carry; unset: inbound updates are refused */
  messengerWebhookSecret?: string;
  smtpUrl?: string;
  mailFrom: string;
  smsUrl?: string;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  live: 60,
  test: 6000,
  enterprise: 6000,
  auth: 10,
  refresh: 60,
  login_email: 10,
  login_email_hourly: 60,
  cabinet: 300,
  partner: 120,
  anonymous: 300,
  checkout_get: 60,
  checkout_status: 120,
  checkout_refresh: 10,
  checkout_email: 20,
};

function bool(v: string | undefined, dflt = false): boolean {
  if (v === undefined || v === '') return dflt;
  return ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
}

/**
 * A secret given either in the variable itself or, as container platforms hand secrets over, in a file named
 * by `<NAME>_FILE` (compose and Kubernetes secrets; a PEM key does not fit an env file's one line).
 */
function secret(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const file = env[`${name}_FILE`];
  if (env[name] && file) throw new Error(`set ${name} or ${name}_FILE, not both`);
  if (!file) return env[name] || undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`${name}_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const value = text.trim();
  if (!value) throw new Error(`${name}_FILE: ${file} is empty`);
  return value;
}

function int(name: string, v: string | undefined, dflt: number): number {
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got "${v}"`);
  return n;
}

function json<T>(name: string, v: string | undefined, dflt: T): T {
  if (v === undefined || v === '') return dflt;
  try {
    return JSON.parse(v) as T;
  } catch {
    throw new Error(`${name} must be JSON`);
  }
}

/** Every issuer needs all four fields: without `audience` the id_token's audience would go unchecked. */
function checkIssuers(list: OidcIssuer[]): OidcIssuer[] {
  if (!Array.isArray(list)) throw new Error('OIDC_ISSUERS must be a JSON array');
  for (const i of list) {
    for (const f of ['name', 'issuer', 'audience', 'jwks_uri'] as const) {
      if (typeof i?.[f] !== 'string' || !i[f]) throw new Error(`OIDC_ISSUERS: every issuer needs a non-empty "${f}"`);
    }
  }
  return list;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = int('PORT', env.PORT, 8080);
  const role = (env.ROLE ?? 'all') as ProcessRole;
  if (!['all', 'api', 'worker'].includes(role)) throw new Error(`ROLE must be all, api or worker`);
  const driver = (env.PROVIDER_DRIVER ?? 'sandbox') as Config['providerDriver'];
  if (!['sandbox', 'gateway', 'qrapi'].includes(driver))
    throw new Error('PROVIDER_DRIVER must be sandbox, gateway or qrapi');
  const schedule = (env.WEBHOOK_RETRY_SCHEDULE ?? '0,60,300,1800,7200').split(',').map((s) => Number(s.trim()));
  if (schedule.some((n) => !Number.isFinite(n) || n < 0))
    throw new Error('WEBHOOK_RETRY_SCHEDULE must be seconds, comma-separated');
  const sunset = new Date(env.V1_SUNSET_AT ?? '2026-12-31T23:59:59Z');
  if (Number.isNaN(sunset.getTime())) throw new Error('V1_SUNSET_AT must be an ISO timestamp');
  const publicBaseUrl = (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const trust = env.TRUST_PROXY;
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    publicBaseUrl,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR ?? './data',
    secretsFile: env.SECRETS_FILE || undefined,
    redisUrl: env.REDIS_URL || undefined,
    appSecret: secret(env, 'APP_SECRET'),
    appSecretPrevious: (env.APP_SECRET_PREVIOUS ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
    jwtPrivateKey: secret(env, 'JWT_PRIVATE_KEY'),
    // Not the port-derived default base URL: instances on different ports must accept each other's tokens.
    jwtIssuer: env.JWT_ISSUER || env.PUBLIC_BASE_URL || 'tolem',
    jwtAudience: env.JWT_AUDIENCE ?? 'tolem',
    role,
    heartbeatFile: env.HEARTBEAT_FILE || undefined,
    webhooksAllowPrivate: bool(env.WEBHOOKS_ALLOW_PRIVATE),
    webhookRetrySchedule: schedule,
    webhookTimeoutMs: int('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS, 5000),
    webhookConcurrency: env.WEBHOOK_CONCURRENCY ? int('WEBHOOK_CONCURRENCY', env.WEBHOOK_CONCURRENCY, 50) : undefined,
    providerDriver: driver,
    providerGatewayUrl: env.PROVIDER_GATEWAY_URL || undefined,
    providerTimeoutMs: int('PROVIDER_TIMEOUT_MS', env.PROVIDER_TIMEOUT_MS, 10_000),
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: metricsPort(env.METRICS_PORT),
    otel: otelConfig(env),
    adminEmails: (env.ADMIN_EMAILS ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    partnerAutoApprove: bool(env.PARTNER_AUTO_APPROVE),
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...json<Partial<RateLimits>>('RATE_LIMITS', env.RATE_LIMITS, {}) },
    trustProxy: trust === undefined || trust === '' || trust === 'false' ? false : trust === 'true' ? true : trust,
    oidcIssuers: checkIssuers(json<OidcIssuer[]>('OIDC_ISSUERS', env.OIDC_ISSUERS, [])),
    v1SunsetAt: sunset,
    pgPoolMax: int('PG_POOL_MAX', env.PG_POOL_MAX, 10),
    nodeEnv: env.NODE_ENV ?? 'development',
    logLevel: env.LOG_LEVEL ?? 'info',
    amountMax: int('AMOUNT_MAX', env.AMOUNT_MAX, 10_000_000),
    dashboardUrl: (env.DASHBOARD_URL || `${publicBaseUrl}/dashboard`).replace(/\/+$/, ''),
    channels: channelConfig(env, publicBaseUrl),
    qrapi: qrapiConfig(env),
    fiscal: fiscalConfig(env),
    operator: {
      name: env.OPERATOR_NAME || undefined,
      bin: env.OPERATOR_BIN || undefined,
      address: env.OPERATOR_ADDRESS || undefined,
      iban: env.OPERATOR_IBAN || undefined,
      bank: env.OPERATOR_BANK || undefined,
    },
    partnerCommissionHoldDays: int('PARTNER_COMMISSION_HOLD_DAYS', env.PARTNER_COMMISSION_HOLD_DAYS, 14),
    planPrices: json<Record<string, number>>('PLAN_PRICES', env.PLAN_PRICES, { starter: 10000, professional: 30000 }),
    ...overrides,
  };
}

function channelConfig(env: Record<string, string | undefined>, publicBaseUrl: string): ChannelConfig {
  const botToken = env.MESSENGER_BOT_TOKEN || undefined;
  const apiUrl = env.MESSENGER_API_URL || undefined;
  // No default for the bot API's address: the driver talks to whatever messenger the operator names.
  if (botToken && !apiUrl)
    throw new Error('MESSENGER_BOT_TOKEN is set without MESSENGER_API_URL (the bot HTTP API base URL)');
  return {
    messenger: botToken && apiUrl ? { botToken, apiUrl: apiUrl.replace(/\/+$/, '') } : undefined,
    // Unset, deep links point at this server's own description of the binding (the log driver's world).
    messengerLinkBase: (env.MESSENGER_LINK_BASE || `${publicBaseUrl}/messenger`).replace(/\/+$/, ''),
    messengerBotUsername: env.MESSENGER_BOT_USERNAME || 'tolem_bot',
    messengerWebhookSecret: env.MESSENGER_WEBHOOK_SECRET || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Tolem <no-reply@localhost>',
    smsUrl: env.SMS_URL || undefined,
  };
}

function fiscalConfig(env: Record<string, string | undefined>): FiscalConfig {
  const at = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(env.FISCAL_SHIFT_CLOSE_AT ?? '23:50');
  if (!at) throw new Error('FISCAL_SHIFT_CLOSE_AT must be a local time HH:MM, such as 23:50');
  return {
    webkassaUrl: (env.FISCAL_WEBKASSA_URL || 'https://kkm.webkassa.kz').replace(/\/+$/, ''),
    webkassaApiKey: env.FISCAL_WEBKASSA_API_KEY || undefined,
    rekassaUrl: (env.FISCAL_REKASSA_URL || 'https://app.rekassa.kz/partner').replace(/\/+$/, ''),
    rekassaApiKey: env.FISCAL_REKASSA_API_KEY || undefined,
    caFile: env.FISCAL_CA_FILE || undefined,
    timeoutMs: int('FISCAL_TIMEOUT_MS', env.FISCAL_TIMEOUT_MS, 15_000),
    shiftCloseAt: { hour: Number(at[1]), minute: Number(at[2]) },
  };
}

function qrapiConfig(env: Record<string, string | undefined>): QrapiConfig {
  const base = env.QRAPI_BASE_URL?.replace(/\/+$/, '');
  const scheme = (n: 1 | 2 | 3) => env[`QRAPI_R${n}_URL`] || (base ? `${base}/r${n}/v01` : undefined);
  return {
    r1: scheme(1),
    r2: scheme(2),
    r3: scheme(3),
    caFile: env.QRAPI_CA_FILE || undefined,
    operatorPfxFile: env.PROVIDER_OPERATOR_PFX || undefined,
    operatorPfxPassword: env.PROVIDER_OPERATOR_PFX_PASSWORD || undefined,
    egressProxy: env.PROVIDER_EGRESS_PROXY || undefined,
    watchCallsPerSecond: int('QRAPI_WATCH_CALLS_PER_SECOND', env.QRAPI_WATCH_CALLS_PER_SECOND, 5),
    retryBaseMs: int('QRAPI_RETRY_BASE_MS', env.QRAPI_RETRY_BASE_MS, 200),
    breakerOpenMs: int('QRAPI_BREAKER_OPEN_MS', env.QRAPI_BREAKER_OPEN_MS, 30_000),
    statusVersion: statusVersion(env.QRAPI_STATUS_VERSION),
    localOffset: parseTimezone(env.QRAPI_TIMEZONE),
    phoneFormat: phoneFormat(env.QRAPI_PHONE_FORMAT),
  };
}

function metricsPort(v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = int('METRICS_PORT', v, 0);
  if (n < 1 || n > 65535) throw new Error(`METRICS_PORT must be a port number (1-65535), got "${v}"`);
  return n;
}

/** Off when no endpoint is set, when OTEL_SDK_DISABLED=true, or when OTEL_TRACES_EXPORTER says none. */
function otelConfig(env: Record<string, string | undefined>): OtelConfig {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json')
    throw new Error(
      `OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json, got "${protocol}" (grpc is not supported: ` +
        "send to the collector's OTLP/HTTP port, 4318)",
    );
  const exporter = (env.OTEL_TRACES_EXPORTER || 'otlp').trim();
  if (exporter !== 'otlp' && exporter !== 'none')
    throw new Error(`OTEL_TRACES_EXPORTER must be otlp or none, got "${exporter}"`);
  const off = bool(env.OTEL_SDK_DISABLED) || exporter === 'none';
  // As the specification says: the signal's own variable is the URL as is; the shared one is a base.
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const endpoint =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint))
    throw new Error(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL, got "${endpoint}"`);
  return { endpoint: off ? undefined : endpoint, protocol };
}

function phoneFormat(v: string | undefined): '8' | '7' {
  if (v === undefined || v === '') return '8';
  if (v !== '8' && v !== '7')
    throw new Error("QRAPI_PHONE_FORMAT must be 8 (8XXXXXXXXXX, the document's) or 7 (7XXXXXXXXXX)");
  return v;
}

function statusVersion(v: string | undefined): 'v01' | 'v02' {
  if (v === undefined || v === '') return 'v02';
  if (v !== 'v01' && v !== 'v02') throw new Error('QRAPI_STATUS_VERSION must be v01 or v02');
  return v;
}
