// The admin surface: the admin API (a user with is_admin); every call is audited (plugins/admin-audit.ts).
import { surface } from '../surface.ts';
import { adminRoutes } from './routes.ts';

export const adminSurface = surface('admin', (app, { deps }) => adminRoutes(app, deps));
