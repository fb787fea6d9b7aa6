// Counters of what the background work does, for Prometheus (deploy/prometheus/alerts.yml reads them).
// They count per process, whichever role it has; every app registers them in its registry
// (http/plugins/metrics-jobs.ts), so /metrics of a process shows what that process did. The label values
// are created up front: a series exists at 0 before its first event, so rate() over it is defined.
import { Counter } from 'prom-client';

export const webhookAttempts = new Counter({
  name: 'tolem_webhook_attempts_total',
  help: 'Webhook delivery attempts made by the workers, by outcome: delivered (a 2xx) or failed (anything else)',
  labelNames: ['outcome'],
  registers: [],
});
for (const outcome of ['delivered', 'failed']) webhookAttempts.inc({ outcome }, 0);

export const webhookDeliveriesFailed = new Counter({
  name: 'tolem_webhook_deliveries_failed_total',
  help: 'Webhook deliveries given up: their last attempt failed, or the receiver answered 410',
  registers: [],
});

export const outboxSends = new Counter({
  name: 'tolem_outbox_sends_total',
  help: 'Messages (e-mail, messenger, SMS) the outbox tried to send, by channel and outcome (sent, retry, failed)',
  labelNames: ['channel', 'outcome'],
  registers: [],
});
for (const channel of ['email', 'messenger', 'sms'])
  for (const outcome of ['sent', 'retry', 'failed']) outboxSends.inc({ channel, outcome }, 0);

export const breakerTrips = new Counter({
  name: 'tolem_provider_breaker_trips_total',
  help: "Times a provider account's circuit breaker opened (5 failed calls in a row, or a failed trial call)",
  registers: [],
});

/** Every counter above, for an app's registry. */
export const JOB_COUNTERS = [webhookAttempts, webhookDeliveriesFailed, outboxSends, breakerTrips];
