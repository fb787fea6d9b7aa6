// The signed-in user's account (/me): its role decides what the shell offers, is_admin the admin pages.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client.ts';

export const useMe = () => useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/me')), staleTime: 60_000 });
