// Receiving Tolem's webhooks with plain node:http: the raw body verified with the endpoint's secret
// (either signature scheme), answered 2xx at once, the work done after. Replays outside five minutes and
// forged bodies get 400. Try it with
// `tolem listen --forward-to http://localhost:3000/webhooks --secret $TOLEM_WEBHOOK_SECRET`.
// TOLEM_WEBHOOK_SECRET=whsec_… npx tsx examples/webhook-receiver/index.ts
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@tolem/sdk';

const secret = process.env.TOLEM_WEBHOOK_SECRET ?? '';
const seen = new Set<string>(); // webhook-id is the same on every retry of a delivery: handle it once

function handle(event: WebhookEvent): void {
  if (event.type === 'payment.completed') console.log('paid:', JSON.stringify(event.data));
  else console.log(event.type);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    try {
      const event = await verifyWebhook(
        Buffer.concat(chunks).toString('utf8'),
        req.headers as Record<string, string>,
        secret,
      );
      res.writeHead(204).end();
      const id = String(req.headers['webhook-id'] ?? '');
      if (!seen.has(id)) {
        seen.add(id);
        handle(event);
      }
    } catch (e) {
      res.writeHead(e instanceof WebhookVerificationError ? 400 : 500).end(String((e as Error).message));
    }
  });
});
server.listen(Number(process.env.PORT ?? 3000), () => {
  // The port it really has (PORT=0 picks a free one).
  console.log(`listening on http://localhost:${(server.address() as AddressInfo).port}/webhooks`);
});
