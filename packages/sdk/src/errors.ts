// One error class for every failed call: the API's error envelope (type, code, param, request_id) with the
// HTTP status, or a network failure / time-out (status 0, type `connection_error`).
export interface ApiErrorBody {
  type: string;
  code: string;
  message: string;
  param?: string | null;
  request_id?: string;
  [extra: string]: unknown;
}

export class TolemError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly param: string | null;
  readonly requestId: string | null;
  readonly body: ApiErrorBody;

  constructor(status: number, body: ApiErrorBody) {
    super(`${body.code}: ${body.message}${body.request_id ? ` (request ${body.request_id})` : ''}`);
    this.name = 'TolemError';
    this.status = status;
    this.type = body.type;
    this.code = body.code;
    this.param = body.param ?? null;
    this.requestId = body.request_id ?? null;
    this.body = body;
  }
}

/** The error of a non-2xx answer, from its JSON envelope when it has one. */
export async function errorFromResponse(res: Response): Promise<TolemError> {
  const text = await res.text().catch(() => '');
  let body: ApiErrorBody | undefined;
  try {
    body = (JSON.parse(text) as { error?: ApiErrorBody }).error;
  } catch {
    body = undefined;
  }
  return new TolemError(
    res.status,
    body ?? {
      type: 'api_error',
      code: `http_${res.status}`,
      message: text.slice(0, 200) || res.statusText,
      request_id: res.headers.get('x-request-id') ?? undefined,
    },
  );
}
