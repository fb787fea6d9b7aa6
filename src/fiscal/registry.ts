// The fiscal drivers by name: one driver object per register and call, made from the register's opened
// credentials and the installation's endpoints (FiscalConfig). The HTTP drivers share one connection pool per
// service, so a register's calls reuse its TLS sessions.
import { readFileSync } from 'node:fs';
import type { FiscalConfig } from '../config.ts';
import type { Db } from '../db/db.ts';
import { FiscalError, type FiscalDriver, type FiscalDriverName } from './types.ts';

/** What a driver is made of for one register. */
export interface RegisterBinding {
  /** Tolem's register id (the sandbox keys its own ledger by it) */
  registerId: string;
  /** the service's number of the register: Webkassa's CashboxUniqueNumber, reKassa's login number */
  registerNumber: string;
  /** the register's credentials as the merchant gave them, opened (never logged) */
  credentials: Record<string, string>;
}

export interface DriverContext {
  config: FiscalConfig;
  /** the extra CA (FISCAL_CA_FILE) in PEM, read once */
  ca: string | undefined;
  db: Db;
  clock: { now(): Date };
  /** the installation's public base URL, for pages of Tolem's own (the sandbox's check page) */
  publicUrl: string;
}

export type DriverFactory = (ctx: DriverContext, binding: RegisterBinding) => FiscalDriver;

/** Each driver's credential fields: what POST /me/fiscal/registers requires in `credentials`. */
export interface DriverSpec {
  factory: DriverFactory;
  /** the names of the required credential fields and the optional ones */
  credentials: { required: string[]; optional: string[] };
  /** test mode allows only drivers that make no outside call */
  testMode: boolean;
}

export class FiscalDrivers {
  readonly ctx: DriverContext;
  constructor(
    config: FiscalConfig,
    db: Db,
    clock: { now(): Date },
    publicUrl: string,
    private readonly specs: Partial<Record<FiscalDriverName, DriverSpec>>,
  ) {
    this.ctx = { config, db, clock, publicUrl, ca: config.caFile ? readFileSync(config.caFile, 'utf8') : undefined };
  }

  spec(name: FiscalDriverName): DriverSpec {
    const s = this.specs[name];
    if (!s) throw new FiscalError('rejected', `fiscal driver ${name} is not available in this build`);
    return s;
  }

  has(name: string): name is FiscalDriverName {
    return Object.hasOwn(this.specs, name);
  }

  driver(name: FiscalDriverName, binding: RegisterBinding): FiscalDriver {
    return this.spec(name).factory(this.ctx, binding);
  }
}
