// `tolem listen --forward-to URL`: follows the test mode's event journal (GET /v2/events) and forwards each
// new event to a local URL as a webhook delivery would: the same body ({id, type, created_at, data}), signed
// in both schemes with a secret printed at start, oldest first, under a webhook-id derived from the event
// (the same across runs). It starts after the journal's newest event (the server's clock, not this
// machine's), nothing from before it forwarded, and polls twice a second. Each poll re-reads the last
// LOOKBACK_MS before its mark, so an event whose transaction committed after a later one had been read
// (its created_at is its transaction's start) is still forwarded, once: the ids forwarded in that window
// are remembered. A failure to reach the API backs off and resumes; an answer that retrying cannot change
// (a 4xx other than 429: a revoked key, an expired session) ends the command with that error.
import { createHash, randomBytes } from 'node:crypto';
import { signWebhook, TolemError, type Tolem } from '@tolem/sdk';
import type { Out } from './output.js';

interface JournalEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export interface ListenOptions {
  forwardTo: string;
  events?: string[];
  secret?: string;
  /** stop after this many forwarded events (tests, scripts) */
  max?: number;
  intervalMs?: number;
}

const LOOKBACK_MS = 10_000;
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The webhook-id a forwarded event carries: derived from the event, so stable across runs. */
export const messageIdOf = (e: { id: string }) =>
  `msg_${createHash('sha256').update(`tolem-listen:${e.id}`).digest('base64url').slice(0, 26)}`;

/** What a webhook delivery of this event carries (the server's deliveryBody). */
export const deliveryBody = (e: JournalEvent) =>
  JSON.stringify({ id: e.id, type: e.type, created_at: e.created_at, data: e.data });

const permanent = (err: unknown) =>
  err instanceof TolemError && err.status >= 400 && err.status < 500 && err.status !== 429;

export async function listen(api: Tolem, out: Out, o: ListenOptions): Promise<void> {
  const secret = o.secret ?? newSecret();
  const query = (since: string, limit: number) => ({
    mode: 'test' as const,
    since,
    limit,
    ...(o.events?.length ? { type: o.events.join(',') } : {}),
  });
  // The mark: the newest event already known. Everything after it (or up to LOOKBACK_MS before it and
  // not yet forwarded) is new.
  // (The client throws a TolemError for an error answer: what comes back is the page.)
  // openapi-fetch takes a call's query under `params` (paginate, below, takes it bare): a bare `query` here
  // was dropped without a word, and the journal answered from its start, every old event forwarded again.
  const newest = await api.GET('/v2/events', { params: { query: query(new Date(0).toISOString(), 1) } });
  const first = (newest.data as { data: JournalEvent[] }).data[0];
  let mark = first?.created_at ?? new Date(0).toISOString();
  /** ids known within the look-back window, with their created_at */
  const known = new Map<string, string>(first ? [[first.id, first.created_at]] : []);
  // Everything in the window before the mark happened before this run, too: known, so never forwarded
  // (the window is there for events that commit late, after the start).
  if (first) {
    for await (const e of api.paginate('/v2/events', {
      query: query(new Date(Date.parse(mark) - LOOKBACK_MS).toISOString(), 100),
    })) {
      const ev = e as unknown as JournalEvent;
      known.set(ev.id, ev.created_at);
    }
  }
  let forwarded = 0;
  let failures = 0;
  out.result(
    { ready: true, forward_to: o.forwardTo, secret, since: mark },
    () => `Ready. Forwarding test-mode events to ${o.forwardTo}\nSigning secret: ${secret}\n(Ctrl-C to stop)`,
  );
  for (;;) {
    try {
      const from = new Date(Date.parse(mark) - LOOKBACK_MS).toISOString();
      const fresh: JournalEvent[] = [];
      for await (const e of api.paginate('/v2/events', { query: query(from, 100) })) {
        const ev = e as unknown as JournalEvent;
        if (!known.has(ev.id)) fresh.push(ev);
      }
      // The journal answers newest first; a receiver wants them in the order they happened.
      fresh.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
      for (const ev of fresh) {
        const body = deliveryBody(ev);
        // The same event is the same message, whichever run forwards it: a receiver that de-duplicates
        // by webhook-id handles it once, across restarts.
        const headers = await signWebhook(body, secret, messageIdOf(ev));
        let status = 0;
        try {
          status = (await fetch(o.forwardTo, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) }))
            .status;
        } catch (err) {
          out.progress(`! ${ev.type} ${ev.id}: ${(err as Error).message}`);
        }
        out.result({ forwarded: ev.type, id: ev.id, status }, () => `→ ${ev.type} ${ev.id} [${status || 'no answer'}]`);
        known.set(ev.id, ev.created_at);
        if (ev.created_at > mark) mark = ev.created_at;
        if (o.max && ++forwarded >= o.max) return;
      }
      // Forget what fell out of the window.
      const horizon = new Date(Date.parse(mark) - 2 * LOOKBACK_MS).toISOString();
      for (const [id, at] of known) if (at < horizon) known.delete(id);
      failures = 0;
    } catch (err) {
      if (permanent(err)) throw err;
      failures++;
      out.progress(`! connection lost (${(err as Error).message}); retrying from ${mark}`);
    }
    await new Promise((ok) => setTimeout(ok, failures ? Math.min(10_000, 500 * 2 ** failures) : (o.intervalMs ?? 500)));
  }
}
