// `tolem listen --forward-to URL`: follows the test mode's event journal (GET /v2/events) and forwards each
// new event to a local URL, signed like a webhook (both schemes) with a secret printed at start, oldest
// first. Polls twice a second; after a failure it backs off and resumes from the last event it forwarded
// (its time and the ids seen at that time), so nothing is skipped or sent twice.
import { randomBytes, randomUUID } from 'node:crypto';
import { signWebhook, type Tolem } from '@tolem/sdk';
import type { Out } from './output.js';

interface JournalEvent { id: string; type: string; created_at: string; [k: string]: unknown }

export interface ListenOptions {
  forwardTo: string;
  events?: string[];
  secret?: string;
  /** stop after this many forwarded events (tests, scripts) */
  max?: number;
  intervalMs?: number;
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export async function listen(api: Tolem, out: Out, o: ListenOptions): Promise<void> {
  const secret = o.secret ?? newSecret();
  let since = new Date().toISOString();
  let seenAtSince = new Set<string>();
  let forwarded = 0;
  let failures = 0;
  out.result({ ready: true, forward_to: o.forwardTo, secret, since }, () =>
    `Ready. Forwarding test-mode events to ${o.forwardTo}\nSigning secret: ${secret}\n(Ctrl-C to stop)`);
  for (;;) {
    try {
      const fresh: JournalEvent[] = [];
      for await (const e of api.paginate('/v2/events', { query: { mode: 'test', since, limit: 100, ...(o.events?.length ? { type: o.events.join(',') } : {}) } })) {
        const ev = e as unknown as JournalEvent;
        if (!seenAtSince.has(ev.id)) fresh.push(ev);
      }
      // The journal answers newest first; a receiver wants them in the order they happened.
      fresh.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
      for (const ev of fresh) {
        const body = JSON.stringify(ev);
        const headers = await signWebhook(body, secret, `msg_${randomUUID()}`);
        let status = 0;
        try {
          status = (await fetch(o.forwardTo, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) })).status;
        } catch (err) {
          out.progress(`! ${ev.type} ${ev.id}: ${(err as Error).message}`);
        }
        out.result({ forwarded: ev.type, id: ev.id, status }, () => `→ ${ev.type} ${ev.id} [${status || 'no answer'}]`);
        if (ev.created_at > since) {
          since = ev.created_at;
          seenAtSince = new Set();
        }
        seenAtSince.add(ev.id);
        if (o.max && ++forwarded >= o.max) return;
      }
      failures = 0;
    } catch (err) {
      failures++;
      out.progress(`! connection lost (${(err as Error).message}); retrying from ${since}`);
    }
    await new Promise((ok) => setTimeout(ok, failures ? Math.min(10_000, 500 * 2 ** failures) : o.intervalMs ?? 500));
  }
}
