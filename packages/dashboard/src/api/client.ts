// The dashboard's API client: @tolem/sdk (typed by the server's /openapi.json, idempotency keys on
// creates, retries, TolemError) with the session's access token, refreshed before it expires. A 401 that
// says the session is over signs the user out.
import { createTolem, TolemError } from '@tolem/sdk';
import { accessToken, refresh, signOut } from './session.ts';

export { TolemError as ApiError };
export type { ApiErrorBody } from '@tolem/sdk';

export const api = createTolem({
  baseUrl: window.location.origin,
  // The /auth/* calls make or refresh the session: they go without one.
  accessToken: () => accessToken(),
});

/** The data of an answer (errors are thrown by the SDK as TolemError), for TanStack Query. */
export async function unwrap<T>(p: Promise<{ data?: T }>): Promise<T> {
  try {
    return (await p).data as T;
  } catch (e) {
    if (e instanceof TolemError && e.status === 401) {
      if (e.code === 'token_expired') await refresh();
      else if (e.code === 'token_revoked' || e.code === 'invalid_token') signOut();
    }
    throw e;
  }
}
