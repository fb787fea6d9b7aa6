// The fiscal drivers this build has, by name (decisions 27): sandbox for test mode, webkassa and rekassa for
// live registers. A new service is a DriverSpec added here.
import type { FiscalConfig } from '../config.ts';
import type { Db } from '../db/db.ts';
import { FiscalDrivers } from './registry.ts';
import { sandboxSpec } from './sandbox.ts';
import { webkassaSpec } from './webkassa/driver.ts';
import { rekassaSpec } from './rekassa/driver.ts';

export function createFiscalDrivers(
  config: FiscalConfig,
  db: Db,
  clock: { now(): Date },
  publicUrl: string,
): FiscalDrivers {
  return new FiscalDrivers(config, db, clock, publicUrl, {
    sandbox: sandboxSpec,
    webkassa: webkassaSpec,
    rekassa: rekassaSpec,
  });
}
