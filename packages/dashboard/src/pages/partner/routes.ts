// The partner cabinet's pages, under /partner.
import type { PageRoute } from '../types.ts';

export const partnerRoutes: PageRoute[] = [];
