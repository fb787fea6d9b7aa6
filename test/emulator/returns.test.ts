// r2's refund with the customer present (document p.22-25): a return QR, the customer's scan, their
// purchases, and one payment/return per return QR; and the same flow on r3, whose return without the
// customer keeps working.
import { beforeAll, describe, expect, it } from 'vitest';
import { formOf, useEmulator, type EmulatorClient } from './harness.ts';
import type { RunningEmulator } from '../../emulator/server.ts';

const world = useEmulator('returns');
/** the emulator and a client of it from 127.0.0.1 (set before the tests run) */
let e: RunningEmulator;
let c: EmulatorClient;
beforeAll(() => {
  e = world.emulator();
  c = world.client();
});

const create = async (token: string, scheme: 'r2' | 'r3' = 'r2') =>
  (scheme === 'r2'
    ? await c.r2('return/create', { DeviceToken: token, ExternalId: 'ret-1' })
    : await c.r3('return/create', { DeviceToken: token })
  ).json;
const statusOf = async (id: number) => (await c.call(`/r2/v01/return/status/${id}`)).json;
const scan = async (body: object, action: 'scan' | 'scanerror' = 'scan') =>
  (await c.call(`/r2/v01/test/return/${action}`, { body })).json;
const operations = async (token: string, id: number, max: unknown = 10) =>
  (await c.r2('return/operations', { DeviceToken: token, QrReturnId: id, MaxResult: max })).json;
const giveBack = async (token: string, payment: number, ret: number | undefined, amount: number) =>
  (
    await c.r2('payment/return', {
      DeviceToken: token,
      QrPaymentId: payment,
      ...(ret === undefined ? {} : { QrReturnId: ret }),
      Amount: amount,
    })
  ).json;

describe('the r2 return flow', () => {
  it(
    'create -> QrTokenCreated -> scan -> CustomerIdentityObtained -> ' + 'operations -> one payment/return per QR',
    async () => {
      const token = await c.device('r2');
      const older = await c.paid(token, 100, 'alice', 'r2');
      await c.control('clock/advance', { seconds: 10 });
      const newer = await c.paid(token, 300, 'alice', 'r2');
      const bobs = await c.paid(token, 200, 'bob', 'r2');

      const ret = await create(token);
      expect(ret).toMatchObject({
        StatusCode: 0,
        Data: {
          QrToken: expect.stringMatching(/^\d{40}$/),
          QrReturnId: expect.any(Number),
          QrReturnBehaviorOptions: { QrCodeScanEventPollingInterval: 5, QrCodeScanWaitTimeout: 180 },
        },
      });
      expect(formOf(ret.Data.ExpireDate)).toBe('offset');
      const id = ret.Data.QrReturnId as number;
      expect(Number.isInteger(id)).toBe(true);
      expect((await statusOf(id)).Data).toEqual({ Status: 'QrTokenCreated' });
      // Before the customer is known: operations -1601, payment/return -99000011.
      expect((await operations(token, id)).StatusCode).toBe(-1601);
      expect((await giveBack(token, newer, id, 50)).StatusCode).toBe(-99000011);

      expect(await scan({ qrReturnId: String(id), qrPaymentId: String(newer) })).toEqual({
        StatusCode: 0,
        Message: 'OK',
      });
      expect((await statusOf(id)).Data).toEqual({ Status: 'CustomerIdentityObtained' });
      // Final: a second scan is refused.
      expect((await scan({ qrReturnId: String(id) })).StatusCode).toBe(-1601);

      const listed = (await operations(token, id)).Data;
      expect(listed.map((o: { QrPaymentId: number }) => o.QrPaymentId)).toEqual([newer, older]);
      expect(listed[0]).toEqual({ QrPaymentId: newer, Amount: 300, TransactionDate: expect.any(String) });
      expect(formOf(listed[0].TransactionDate)).toBe('offset');
      expect((await operations(token, id, 1)).Data.map((o: { QrPaymentId: number }) => o.QrPaymentId)).toEqual([newer]);
      expect((await operations(token, id, 50)).Data).toHaveLength(2); // at most 10, never more than there are

      // Bob's purchase is none of Alice's.
      expect((await giveBack(token, bobs, id, 10)).StatusCode).toBe(-99000001);
      expect((await giveBack(token, newer, id, 301)).StatusCode).toBe(-99000005);
      expect(await giveBack(token, newer, id, 120)).toMatchObject({
        StatusCode: 0,
        Data: { ReturnOperationId: expect.any(Number) },
      });
      // The return QR has served its return.
      expect((await giveBack(token, newer, id, 10)).StatusCode).toBe(-99000011);
      expect((await giveBack(token, older, id, 10)).StatusCode).toBe(-99000011);
      expect(e.state().payments.get(newer)?.ReturnedAmount).toBe(120);
      expect(
        (await c.call(`/r2/v01/payment/details?QrPaymentId=${newer}&DeviceToken=${token}`)).json.Data
          .AvailableReturnAmount,
      ).toBe(180);

      const { returns } = (await c.control('state')).json;
      expect(returns).toEqual([
        { QrReturnId: id, Status: 'CustomerIdentityObtained', DeviceToken: token, customer: 'alice', used: true },
      ]);
    },
  );

  it('the scan wait runs out on the virtual clock -> Error (final); the timing control shortens it', async () => {
    const token = await c.device('r2');
    const id = (await create(token)).Data.QrReturnId;
    await c.control('clock/advance', { seconds: 179 });
    expect((await statusOf(id)).Data.Status).toBe('QrTokenCreated');
    await c.control('clock/advance', { seconds: 2 });
    expect((await statusOf(id)).Data.Status).toBe('Error');
    expect((await scan({ qrReturnId: String(id) })).StatusCode).toBe(-1601);
    expect((await operations(token, id)).StatusCode).toBe(-1601);

    await c.control('timing', { ReturnScanWaitTimeout: 2, QrCodeScanEventPollingInterval: 1 });
    const short = (await create(token)).Data;
    expect(short.QrReturnBehaviorOptions).toEqual({ QrCodeScanEventPollingInterval: 1, QrCodeScanWaitTimeout: 2 });
    await c.control('clock/advance', { seconds: 2 });
    expect((await statusOf(short.QrReturnId)).Data.Status).toBe('Error');
  });

  it('scanerror -> Error; unknown returns -1601', async () => {
    const token = await c.device('r2');
    const id = (await create(token)).Data.QrReturnId;
    expect((await scan({ qrReturnId: String(id) }, 'scanerror')).StatusCode).toBe(0);
    expect((await statusOf(id)).Data.Status).toBe('Error');
    expect((await statusOf(999_999)).StatusCode).toBe(-1601);
    expect((await scan({ qrReturnId: '999999' })).StatusCode).toBe(-1601);
    expect((await giveBack(token, 1, 999_999, 1)).StatusCode).toBe(-99000011);
  });

  it(
    'who scans: `customer`, else the payer of qrPaymentId, else customer-1 ' +
      '(who also pays when confirm names nobody)',
    async () => {
      const token = await c.device('r2');
      const plain = await c.paid(token, 100, undefined, 'r2');
      const carols = await c.paid(token, 100, 'carol', 'r2');
      const ids = await Promise.all([create(token), create(token), create(token)]).then((r) =>
        r.map((x) => x.Data.QrReturnId as number),
      );
      await scan({ qrReturnId: String(ids[0]) });
      await scan({ qrReturnId: String(ids[1]), qrPaymentId: String(carols) });
      await scan({ qrReturnId: String(ids[2]), customer: 'carol', qrPaymentId: String(plain) });
      const listed = async (id: number) =>
        (await operations(token, id)).Data.map((o: { QrPaymentId: number }) => o.QrPaymentId);
      expect(await listed(ids[0])).toEqual([plain]);
      expect(await listed(ids[1])).toEqual([carols]);
      expect(await listed(ids[2])).toEqual([carols]);
      // A purchase not paid has no customer to take.
      const unpaid = (await c.qr(token, 5, 'r2')).QrPaymentId;
      const fourth = (await create(token)).Data.QrReturnId;
      expect((await scan({ qrReturnId: String(fourth), qrPaymentId: String(unpaid) })).StatusCode).toBe(-1601);
    },
  );

  it("operations list this trade point's purchases only; a return QR of another trade point is none here", async () => {
    const tp1 = await c.device('r2', 1);
    const tp2 = await c.device('r2', 2);
    const here = await c.paid(tp1, 100, 'dave', 'r2');
    await c.paid(tp2, 100, 'dave', 'r2');
    const id = (await create(tp1)).Data.QrReturnId;
    await scan({ qrReturnId: String(id), customer: 'dave' });
    expect((await operations(tp1, id)).Data.map((o: { QrPaymentId: number }) => o.QrPaymentId)).toEqual([here]);
    expect((await operations(tp2, id)).StatusCode).toBe(-1601);
    expect((await giveBack(tp2, here, id, 1)).StatusCode).toBe(-99000011);
  });
});

describe('on r3', () => {
  it('the return flow works, and a return without the customer still does', async () => {
    const token = await c.device('r3');
    const id = await c.paid(token, 500, 'erin');
    const ret = (await create(token, 'r3')).Data.QrReturnId;
    await c.call('/r3/v01/test/return/scan', { body: { qrReturnId: String(ret), qrPaymentId: String(id) } });
    expect((await c.call(`/r3/v01/return/status/${ret}`)).json.Data.Status).toBe('CustomerIdentityObtained');
    expect(
      (await c.r3('return/operations', { DeviceToken: token, QrReturnId: ret, MaxResult: 5 })).json.Data,
    ).toHaveLength(1);
    expect(
      (await c.r3('payment/return', { DeviceToken: token, QrPaymentId: id, QrReturnId: ret, Amount: 100 })).json
        .StatusCode,
    ).toBe(0);
    expect(
      (await c.r3('payment/return', { DeviceToken: token, QrPaymentId: id, QrReturnId: ret, Amount: 100 })).json
        .StatusCode,
    ).toBe(-99000011);
    expect((await c.r3('payment/return', { DeviceToken: token, QrPaymentId: id, Amount: 100 })).json.StatusCode).toBe(
      0,
    );
    expect(e.state().payments.get(id)?.ReturnedAmount).toBe(200);
  });
});
