// The messenger surface: the bot's inbound updates.
import { surface } from '../surface.ts';
import { messengerWebhookRoutes } from './webhook.ts';

export const messengerSurface = surface('messenger', (app, { deps }) => messengerWebhookRoutes(app, deps));
