// The dashboard surface: the web dashboard's files, served from memory.
import { surface } from '../surface.ts';
import { dashboardRoutes } from './routes.ts';

export const dashboardSurface = surface('dashboard', (app, { deps }) => dashboardRoutes(app, deps));
