// The sandbox payer's page in a real browser (#16 item 10): nothing is scanned, the page a test QR carries
// is opened at phone width, the person pays, and the merchant's webhook receives payment.completed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, newMerchant, type Merchant } from '../helpers/factories.ts';
import { createQr } from '../helpers/payments.ts';
import { deliverAllDue } from '../../src/jobs/deliveries.ts';
import { shot, startHarness, type Harness } from './harness.ts';

let h: Harness;
let m: Merchant;
let receiver: Server;
const received: { type: string; data: { operation_id: string } }[] = [];

beforeAll(async () => {
  h = await startHarness({ webhooksAllowPrivate: true });
  m = await newMerchant(h.t.app, { name: 'Бутик «Жібек»' });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push(JSON.parse(body));
      res.end('ok');
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const hook = await h.t.app.inject({
    method: 'POST',
    url: '/me/webhooks?mode=test',
    headers: bearer(m),
    payload: { url, events: ['payment.completed'] },
  });
  expect(hook.statusCode).toBe(201);
});
afterAll(async () => {
  await new Promise((ok) => receiver?.close(ok));
  await h?.close();
});

describe('sandbox payer page in Chromium', () => {
  it("opens the page of a test QR, pays, and the merchant's webhook receives the payment", async () => {
    const qr = await createQr(h.t.app, m.testKey, 15_000);
    const { page, context, problems } = await h.page();
    await page.goto(`${h.base}${new URL(qr.qr_token).pathname}`);
    expect(await page.locator('#merchant-name').textContent()).toBe('Бутик «Жібек»');
    expect(await page.locator('#amount').textContent()).toBe('15 000 ₸');
    await shot(page, 'sandbox-payer-390');
    await page.getByRole('button', { name: 'Pay 15 000 ₸' }).click();
    await page.locator('#notice').waitFor({ state: 'visible' });
    expect(await page.locator('#sandbox-payment').getAttribute('data-status')).toBe('paid');
    expect(await page.locator('#status').textContent()).toBe('Paid');
    await shot(page, 'sandbox-payer-paid-390');
    await deliverAllDue(h.t.runtime.deps);
    expect(received.map((e) => [e.type, e.data.operation_id])).toEqual([['payment.completed', qr.operation_id]]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
