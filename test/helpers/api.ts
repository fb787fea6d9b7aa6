// Typed calls over app.inject: `api(app, m).post('/v2/qr', { body: { amount: 100 } })`. The URL is the
// concrete one a test sends (ids, query string and all); its type is matched against the paths of the SDK's
// generated OpenAPI types (packages/sdk/src/schema.ts), which type the body and the 2xx JSON of the answer.
// A call still goes through the whole app (routing, auth, validation), as app.inject does.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { components, paths } from '../../packages/sdk/src/schema.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type ErrorEnvelope = components['schemas']['Error'];
export type ApiError = ErrorEnvelope['error'];

/** The concrete URLs of a path template: each `{param}` is any string. */
type Concrete<P extends string> = P extends `${infer A}{${string}}${infer B}` ? `${A}${string}${Concrete<B>}` : P;
/** The path templates that take `M`. */
type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: infer O } ? ([O] extends [undefined] ? never : P) : never;
}[keyof paths] &
  string;
/** A URL a test may send with `M`: a concrete path, with or without a query string. */
export type UrlOf<M extends Method> = Concrete<PathsWith<M>> | `${Concrete<PathsWith<M>>}?${string}`;

type Segments<S extends string> = S extends `${infer A}/${infer B}` ? [A, ...Segments<B>] : [S];
type PathPart<U extends string> = U extends `${infer P}?${string}` ? P : U;
/**
 * The template a URL names. `{param}` matches any string, `/` included, so `/me/webhooks/1/test` matches
 * `/me/webhooks/{id}` too; of the matches, the one with as many segments as the URL is the one it names.
 */
type Matches<M extends Method, U extends string> = {
  [P in PathsWith<M>]: PathPart<U> extends Concrete<P> ? P : never;
}[PathsWith<M>];
type TemplateOf<M extends Method, U extends string> = [
  {
    [P in Matches<M, U>]: Segments<P>['length'] extends Segments<PathPart<U>>['length'] ? P : never;
  }[Matches<M, U>],
] extends [never]
  ? Matches<M, U>
  : {
      [P in Matches<M, U>]: Segments<P>['length'] extends Segments<PathPart<U>>['length'] ? P : never;
    }[Matches<M, U>];

type Operation<M extends Method, U extends string> = paths[TemplateOf<M, U>][M];
type JsonOf<C> = C extends { content: { 'application/json': infer J } } ? J : never;
/** The JSON of the operation's 2xx answers (unknown when it answers none in JSON). */
type Success<O> = O extends { responses: infer R }
  ? [JsonOf<R[Extract<keyof R, 200 | 201 | 202 | 204>]>] extends [never]
    ? unknown
    : JsonOf<R[Extract<keyof R, 200 | 201 | 202 | 204>]>
  : unknown;
type RequestBody<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export interface CallOptions<B> {
  /** the JSON body, typed by the operation */
  body?: B;
  /** a body outside the operation's type: what a test of bad input sends (a string is sent as it is) */
  payload?: unknown;
  headers?: Record<string, string>;
}

export interface ApiResponse<T> {
  status: number;
  /** the parsed JSON when the answer is JSON (typed as the operation's 2xx answer), else the text */
  body: T;
  headers: LightMyRequestResponse['headers'];
  raw: LightMyRequestResponse;
}

/** Who calls: a signed-in user (its access token), an API key, a partner's integration key, or bare headers. */
export type Caller =
  | { access: string }
  | { apiKey: string }
  | { partnerKey: string }
  | { headers: Record<string, string> }
  | undefined;

export function headersOf(who: Caller): Record<string, string> {
  if (!who) return {};
  if ('access' in who) return { authorization: `Bearer ${who.access}` };
  if ('apiKey' in who) return { 'x-api-key': who.apiKey };
  if ('partnerKey' in who) return { 'x-partner-api-key': who.partnerKey };
  return who.headers;
}

type Call<M extends Method> = <U extends UrlOf<M>>(
  url: U,
  opts?: CallOptions<RequestBody<Operation<M, U>>>,
) => Promise<ApiResponse<Success<Operation<M, U>>>>;

export interface Api {
  get: Call<'get'>;
  post: Call<'post'>;
  put: Call<'put'>;
  patch: Call<'patch'>;
  delete: Call<'delete'>;
  /** A GET of what the OpenAPI document leaves out (HTML pages, assets, the document itself): the body is text. */
  page: (url: string, opts?: { headers?: Record<string, string> }) => Promise<ApiResponse<string>>;
}

type AppRef = FastifyInstance | { app: FastifyInstance } | (() => FastifyInstance);
const appOf = (a: AppRef): FastifyInstance =>
  typeof a === 'function' ? a() : 'app' in a && !('inject' in a) ? a.app : (a as FastifyInstance);

/**
 * A typed client of the app as `who`. `app` may be a getter (or a TestApp) for files that build the app in
 * beforeAll. With neither `body` nor `payload` the request has no body.
 */
export function api(app: AppRef, who?: Caller): Api {
  const send =
    (method: Method) =>
    async (url: string, opts: CallOptions<unknown> = {}): Promise<ApiResponse<any>> => {
      const payload = opts.body ?? opts.payload;
      const raw = await appOf(app).inject({
        method: method.toUpperCase() as 'GET',
        url,
        headers: { ...headersOf(who), ...opts.headers },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      const json = String(raw.headers['content-type'] ?? '').includes('json');
      return { status: raw.statusCode, body: json && raw.body ? raw.json() : raw.body, headers: raw.headers, raw };
    };
  const page = async (url: string, opts: { headers?: Record<string, string> } = {}) => {
    const raw = await appOf(app).inject({ method: 'GET', url, headers: { ...headersOf(who), ...opts.headers } });
    return { status: raw.statusCode, body: raw.body, headers: raw.headers, raw };
  };
  return {
    get: send('get'),
    post: send('post'),
    put: send('put'),
    patch: send('patch'),
    delete: send('delete'),
    page,
  };
}

/** Asserts the error envelope of a typed or raw answer and returns its `error` object, typed. */
export function apiError(res: ApiResponse<unknown> | LightMyRequestResponse): ApiError {
  const raw = 'statusCode' in res ? res : res.raw;
  const body = raw.headers['content-type']?.toString().includes('json') ? raw.json() : undefined;
  if (!body?.error?.code) throw new Error(`not an error envelope: ${raw.statusCode} ${raw.body}`);
  if (body.error.request_id !== raw.headers['x-request-id']) throw new Error('request_id differs from X-Request-Id');
  return body.error;
}
