// The fiscal drivers made as the registry makes them (their DriverSpec's factory), pointed at a fiscal
// emulator started in-process for one test file, and the receipts the tests send.
import { afterAll, expect } from 'vitest';
import type { FiscalConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/db.ts';
import { closeFiscalPools } from '../../src/fiscal/http.ts';
import type { DriverContext, DriverSpec } from '../../src/fiscal/registry.ts';
import {
  FiscalError,
  type FiscalDriver,
  type FiscalErrorKind,
  type FiscalLine,
  type FiscalReceiptRequest,
  type IssuedFiscalReceipt,
} from '../../src/fiscal/types.ts';
import type { RunningFiscalEmulator } from '../../fiscal-emulator/server.ts';

export function fiscalConfig(e: RunningFiscalEmulator, over: Partial<FiscalConfig> = {}): FiscalConfig {
  return {
    webkassaUrl: e.url,
    webkassaApiKey: e.webkassa.apiKey,
    rekassaUrl: e.url,
    rekassaApiKey: e.rekassa.apiKey,
    timeoutMs: 5_000,
    shiftCloseAt: { hour: 23, minute: 50 },
    ...over,
  };
}

/** The registry's context: the emulator's CA as the extra one, and its virtual clock (tests pass 24 hours). */
export function driverContext(e: RunningFiscalEmulator, over: Partial<FiscalConfig> = {}): DriverContext {
  return {
    config: fiscalConfig(e, over),
    ca: e.caPem,
    // The HTTP drivers keep nothing in the store: no database is opened for them.
    db: undefined as unknown as Db,
    clock: { now: () => new Date(e.state.now()) },
    publicUrl: 'http://localhost:3000',
  };
}

export function makeDriver(
  spec: DriverSpec,
  e: RunningFiscalEmulator,
  registerNumber: string,
  credentials: Record<string, string>,
  over: Partial<FiscalConfig> = {},
): FiscalDriver {
  for (const name of spec.credentials.required) expect(credentials, name).toHaveProperty(name);
  return spec.factory(driverContext(e, over), { registerId: 'fr_test', registerNumber, credentials });
}

/** Closes the drivers' shared connection pools after the file (they are per process otherwise). */
export function closePoolsAfterAll(): void {
  afterAll(closeFiscalPools);
}

export const line = (over: Partial<FiscalLine> = {}): FiscalLine => ({
  name: 'Оплата заказа',
  price: 500,
  quantity: 1,
  total: 500,
  unitCode: 796,
  sectionCode: null,
  ntin: null,
  gtin: null,
  vatRateBps: 1600,
  positionType: 'goods',
  ...over,
});

/** A sale of two lines (VAT 16% and none), 2,000 tenge in all, paid by mobile payment. */
export function saleRequest(externalNumber: string, over: Partial<FiscalReceiptRequest> = {}): FiscalReceiptRequest {
  return {
    externalNumber,
    kind: 'sale',
    lines: [
      line({ price: 500, quantity: 3, total: 1500 }),
      line({ name: 'Доставка', price: 500, vatRateBps: null, positionType: 'service', unitCode: 5114 }),
    ],
    total: 2000,
    paymentType: 'mobile',
    basis: null,
    customerEmail: null,
    customerPhone: null,
    at: new Date(),
    ...over,
  };
}

/** A return of the sale's first line in full, with the sale as its basis. */
export function returnRequest(
  externalNumber: string,
  sale: IssuedFiscalReceipt,
  saleTotal = 2000,
): FiscalReceiptRequest {
  return {
    ...saleRequest(externalNumber),
    kind: 'return',
    lines: [line({ price: 500, quantity: 3, total: 1500 })],
    total: 1500,
    basis: {
      fiscalSign: sale.fiscalSign,
      registrationNumber: sale.registrationNumber,
      issuedAt: sale.issuedAt,
      total: saleTotal,
      offline: sale.offline,
      ref: sale.ref,
    },
  };
}

/** The FiscalError kind a promise rejects with (fails the test when it resolves or throws something else). */
export async function kindOf(p: Promise<unknown>): Promise<FiscalErrorKind> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(FiscalError);
    return (err as FiscalError).kind;
  }
  throw new Error('expected a FiscalError, the call succeeded');
}
