// @tolem/sdk: the typed client, its error, and webhook verification.
export { createTolem, type Tolem, type TolemOptions, type ListPath, type ListItem } from './client.js';
export { TolemError, type ApiErrorBody } from './errors.js';
export {
  verifyWebhook,
  signWebhook,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookEventType,
  type VerifyOptions,
} from './webhooks.js';
export type { paths, components, webhooks, operations } from './schema.js';
