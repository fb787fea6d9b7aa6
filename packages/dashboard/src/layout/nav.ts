// What the navigation lists: a group's pages that have a label, less those whose action the user's role may
// not do (GET /me's permissions, the server's policy table), each with its admin count if it has one.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, unwrap } from '../api/client.ts';
import type { Permission } from '../api/me.ts';
import type { AdminCount, PageRoute } from '../pages/types.ts';

export interface NavItem {
  to: string;
  label: string;
  /** a group's first page is active on its own path only, the others on theirs and below */
  exact: boolean;
  count?: AdminCount;
}

export const navOf = (base: string, routes: PageRoute[], can: (a: Permission) => boolean): NavItem[] =>
  routes
    .filter((r) => r.nav && (!r.action || can(r.action)))
    .map((r) => ({
      to: [base, r.path].filter(Boolean).join('/'),
      label: r.nav!,
      exact: r.path === '',
      count: r.count,
    }));

const OVERVIEW = ['admin-overview'];

/**
 * What waits for the operator (GET /admin/overview), for admins only. Read again after every change made
 * through the dashboard (an approval, a payout, an answer), and each minute for what others do.
 */
export function useAdminCounts(isAdmin: boolean) {
  const queries = useQueryClient();
  useEffect(() => {
    if (!isAdmin) return;
    return queries.getMutationCache().subscribe((e) => {
      if (e.type === 'updated' && e.action.type === 'success') void queries.invalidateQueries({ queryKey: OVERVIEW });
    });
  }, [isAdmin, queries]);
  return useQuery({
    queryKey: OVERVIEW,
    queryFn: () => unwrap(api.GET('/admin/overview')),
    enabled: isAdmin,
    refetchInterval: 60_000,
  });
}

/** A count as the menu shows it: nothing for none, "99+" for a long queue. */
export const countLabel = (n: number | undefined) => (!n ? null : n > 99 ? '99+' : String(n));
