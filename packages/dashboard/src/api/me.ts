// The signed-in user's account (/me): its `permissions` (the server's policy table for this caller) decide
// what the shell offers, is_admin the admin pages.
import type { paths } from '@tolem/sdk';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client.ts';

type Me = paths['/me']['get']['responses'][200]['content']['application/json'];
/** An action of the permission table (decisions 16), as GET /me lists the caller's and x-permission names them. */
export type Permission = Me['permissions'][number];

export const useMe = () => useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/me')), staleTime: 60_000 });

/** Whether the caller may do `action`; false while /me is loading, so nothing is offered that may be refused. */
export function useCan(): (action: Permission) => boolean {
  const me = useMe();
  return (action) => me.data?.permissions.includes(action) ?? false;
}
