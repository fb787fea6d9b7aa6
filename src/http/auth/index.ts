// The auth surface: register, login, refresh, magic-link exchange.
import { surface } from '../surface.ts';
import { authRoutes } from './routes.ts';

export const authSurface = surface('auth', (app, { deps }) => authRoutes(app, deps));
