// One qrapi connection per provider account, kept while its credentials stay the same: its TLS connections
// and its circuit breaker live as long as the account does. Built from the account's unsealed
// credentials by the domain (domain/payments/provider-accounts.ts).
import { readFileSync } from 'node:fs';
import type { QrapiConfig } from '../../config.ts';
import type { RateLimiter } from '../../infra/rate-limit-store.ts';
import { QrapiConnection, type QrapiCredentials } from './connection.ts';
import { CLIENT_INFO_PER_MINUTE, QrapiDriver } from './driver.ts';
import { tracedProvider } from '../traced.ts';

export interface QrapiAccountRow {
  id: number;
  /** opened only when no connection is held for this version */
  credentials: () => QrapiCredentials;
  /** a text that changes when the credentials do (their sealed form) */
  version: string;
  orgBin: string | null;
  deviceToken: string | null;
}

export class QrapiRegistry {
  private connections = new Map<number, { version: string; connection: QrapiConnection }>();
  private readonly ca?: string;
  /** the operator's own r3 certificate (PROVIDER_OPERATOR_PFX), which may serve many BINs */
  readonly operatorPfx?: Buffer;

  constructor(
    private readonly config: QrapiConfig,
    private readonly timeoutMs: number,
    private readonly limiter: RateLimiter,
  ) {
    this.ca = config.caFile ? readFileSync(config.caFile, 'utf8') : undefined;
    this.operatorPfx = config.operatorPfxFile ? readFileSync(config.operatorPfxFile) : undefined;
  }

  /** A connection for credentials not stored yet (onboarding's first ping and trade points). */
  connectionFor(credentials: QrapiCredentials): QrapiConnection {
    return new QrapiConnection({ ...this.config, ca: this.ca, timeoutMs: this.timeoutMs }, credentials);
  }

  driver(row: QrapiAccountRow): QrapiDriver {
    let held = this.connections.get(row.id);
    if (!held || held.version !== row.version) {
      void held?.connection.close();
      held = { version: row.version, connection: this.connectionFor(row.credentials()) };
      this.connections.set(row.id, held);
    }
    const driver = new QrapiDriver({
      connection: held.connection,
      orgBin: row.orgBin,
      deviceToken: row.deviceToken,
      statusVersion: this.config.statusVersion,
      localOffset: this.config.localOffset,
      phoneFormat: this.config.phoneFormat,
      allowClientInfo: async (device) =>
        (await this.limiter.consume('qrapi_client_info', CLIENT_INFO_PER_MINUTE, device)).allowed,
    });
    return tracedProvider(driver, 'qrapi');
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.connection.close()));
    this.connections.clear();
  }
}
