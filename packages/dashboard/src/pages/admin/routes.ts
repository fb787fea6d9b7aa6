// The operator's admin pages, under /admin (users with is_admin).
import type { PageRoute } from '../types.ts';

export const adminRoutes: PageRoute[] = [];
