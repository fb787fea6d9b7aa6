// The subscription surface: /v1/subscription/*, cabinet calls under the old prefix, outside v1's context.
import { surface } from '../surface.ts';
import { subscriptionRoutes } from './routes.ts';

export const subscriptionSurface = surface('subscription', (app, { deps }) => subscriptionRoutes(app, deps));
