// The dashboard's API client: openapi-fetch typed by the server's own /openapi.json (schema.d.ts), with the
// session's access token on every call, a silent refresh and one retry on an expired token, and errors
// thrown as ApiError with the API's code and request id.
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { accessToken, refresh, signOut } from './session.ts';

export interface ApiErrorBody {
  type: string;
  code: string;
  message: string;
  param?: string;
  request_id?: string;
  attempts_left?: number;
}

export class ApiError extends Error {
  constructor(public status: number, public body: ApiErrorBody) {
    super(body.message);
  }
  get code() {
    return this.body.code;
  }
}

const pending = new Map<string, Request>();

const auth: Middleware = {
  async onRequest({ request, id }) {
    if (new URL(request.url).pathname.startsWith('/auth/')) return request;
    const token = await accessToken();
    if (token) request.headers.set('authorization', `Bearer ${token}`);
    pending.set(id, request.clone());
    return request;
  },
  async onResponse({ response, id }) {
    const original = pending.get(id);
    pending.delete(id);
    if (response.status !== 401 || !original) return response;
    const body = (await response.clone().json().catch(() => null)) as { error?: ApiErrorBody } | null;
    if (body?.error?.code !== 'token_expired') {
      if (['token_revoked', 'invalid_token'].includes(body?.error?.code ?? '')) signOut();
      return response;
    }
    if (!(await refresh())) return response;
    const retry = original.clone();
    retry.headers.set('authorization', `Bearer ${await accessToken()}`);
    return fetch(retry);
  },
};

export const api = createClient<paths>({ baseUrl: '' });
api.use(auth);

/** The data of an openapi-fetch answer, or its error thrown as ApiError (for TanStack Query). */
export async function unwrap<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await p;
  if (error !== undefined || !response.ok) {
    const body = (error as { error?: ApiErrorBody } | undefined)?.error ?? { type: 'api_error', code: `http_${response.status}`, message: response.statusText };
    throw new ApiError(response.status, body);
  }
  return data as T;
}
