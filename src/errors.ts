// The one table of error codes -> HTTP status (decisions 2). Only this file knows HTTP statuses;
// the domain throws AppError(code) and the HTTP layer renders the envelope.

export const ERROR_STATUS = {
  // 400
  invalid_parameter: 400,
  invalid_json: 400,
  idempotency_key_required: 400,
  unknown_event: 400,
  bad_color: 400,
  bad_email: 400,
  invalid_cursor: 400,
  invalid_limit: 400,
  limit_too_large: 400,
  invalid_phone: 400,
  refund_amount_exceeds: 400,
  otp_invalid: 400,
  otp_expired: 400,
  withdrawal_below_minimum: 400,
  confirmation_invalid: 400,
  provider_not_enabled: 400,
  /** added (decisions 17): an invite token that is unknown, used, expired or revoked */
  invite_invalid: 400,
  /** added (decisions 30): a password-reset token that is unknown or was already used */
  reset_token_invalid: 400,
  /** added (decisions 30): a password-reset token past its 30 minutes */
  reset_token_expired: 400,
  // 401
  invalid_api_key: 401,
  invalid_token: 401,
  token_expired: 401,
  token_revoked: 401,
  invalid_credentials: 401,
  impersonation_session_expired: 401,
  // 403
  impersonation_blocked_action: 403,
  not_owner: 403,
  forbidden_role: 403,
  plan_inactive: 403,
  test_mode_only: 403,
  /** added: a checkout form posted from another site (CSRF) */
  cross_site_request: 403,
  /** added: the operator's admin disabled this client (decisions 23) */
  account_disabled: 403,
  /** decisions 21 */
  partner_not_active: 403,
  /** decisions 22: key rotation and login links are for clients of origin api */
  client_not_managed: 403,
  /** added (decisions 30): POST /me/password with a wrong current password (not 401: the session stands) */
  current_password_wrong: 403,
  // 404
  not_found: 404,
  payment_link_not_found: 404,
  merchant_not_found: 404,
  client_not_found: 404,
  payment_not_found: 404,
  webhook_not_found: 404,
  delivery_not_found: 404,
  member_not_found: 404,
  provider_account_not_found: 404,
  partner_not_found: 404,
  referral_link_not_found: 404,
  withdrawal_not_found: 404,
  ticket_not_found: 404,
  /** decisions 27 */
  fiscal_register_not_found: 404,
  receipt_not_found: 404,
  catalog_item_not_found: 404,
  /** decisions 28 */
  counter_not_found: 404,
  // 405, 410, 413, 415
  method_not_allowed: 405,
  gone: 410,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  // 409
  idempotency_conflict: 409,
  payment_link_immutable: 409,
  payment_link_not_active: 409,
  payment_link_already_paid: 409,
  /** decisions 28: a poster is for a link with allow_repeat */
  payment_link_not_repeatable: 409,
  trial_already_used: 409,
  email_taken: 409,
  payment_not_cancellable: 409,
  payment_not_refundable: 409,
  payment_not_pending: 409,
  provider_not_connected: 409,
  insufficient_balance: 409,
  webhook_limit_reached: 409,
  delivery_in_progress: 409,
  /** decisions 17 */
  owner_immutable: 409,
  /** decisions 19 */
  already_connected: 409,
  sandbox_account_required: 409,
  default_account: 409,
  onboarding_state: 409,
  /** decisions 20 */
  plan_not_purchasable: 409,
  /** decisions 21 */
  partner_exists: 409,
  partner_state: 409,
  bank_details_required: 409,
  messenger_not_linked: 409,
  withdrawal_in_progress: 409,
  withdrawal_state: 409,
  withdrawal_not_paid: 409,
  ticket_closed: 409,
  /** decisions 24: an invoice creation whose answer was lost; a retry could push a second one */
  provider_outcome_unknown: 409,
  /** decisions 26: onboarding's device is bound to another trade point of the organization (-1503) */
  provider_device_conflict: 409,
  /** decisions 26: the trade point does not take QR payments now, or has no payment methods */
  provider_trade_point_refused: 409,
  /** decisions 26: a code the document lists for the call without saying what it means */
  provider_refused: 409,
  /** decisions 26: an invoice paid while it was being cancelled */
  payment_already_paid: 409,
  team_limit_reached: 409,
  /** added (issue 41): an admin may not disable the client its own account belongs to */
  cannot_disable_self: 409,
  /** added (issue 41): the platform client takes plan payments; disabling it would stop every purchase */
  cannot_disable_platform_client: 409,
  /** decisions 27: another register of the mode has this driver and number */
  fiscal_register_exists: 409,
  /** decisions 27: a register with receipts still pending cannot be deleted */
  fiscal_receipts_pending: 409,
  /** decisions 27: only a failed receipt is retried */
  receipt_not_failed: 409,
  /** decisions 27: the register is busy with another request (its lease); try again in a moment */
  fiscal_register_busy: 409,
  /** decisions 27: the cash-register service refused the register's credentials or the register itself */
  fiscal_register_refused: 409,
  // 429
  rate_limit_exceeded: 429,
  plan_limit_exceeded: 429,
  payment_in_progress: 429,
  otp_locked: 429,
  // 5xx
  internal_error: 500,
  logo_upload_disabled: 501,
  /** decisions 24: the account's scheme lacks the operation; answered without a provider call */
  provider_capability_unavailable: 501,
  provider_error: 502,
  session_expired: 503,
  /** decisions 26: r3's static-IP allow-list refused this server */
  provider_unreachable: 503,
  /** added: the web dashboard's files are absent (packages/dashboard not built; npm run build:dashboard) */
  dashboard_not_built: 503,
  payment_unavailable: 503,
  /** decisions 27: the cash-register service did not answer */
  fiscal_service_unavailable: 503,
  qr_creation_failed: 503,
  qr_failed: 503,
  /** added: the database cannot be reached now (restarting, failing over); sent with Retry-After */
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const TYPE_BY_STATUS: Record<number, [string, string]> = {
  400: ['validation_error', 'validation'],
  401: ['authentication_error', 'auth'],
  403: ['authorization_error', 'auth'],
  404: ['not_found', 'permanent'],
  405: ['api_error', 'permanent'],
  408: ['api_error', 'temporary'],
  409: ['api_error', 'permanent'],
  410: ['api_error', 'permanent'],
  413: ['validation_error', 'validation'],
  415: ['validation_error', 'validation'],
  431: ['validation_error', 'validation'],
  429: ['rate_limit_error', 'rate_limit'],
  500: ['api_error', 'permanent'],
  501: ['not_implemented', 'permanent'],
  502: ['proxy_error', 'temporary'],
  503: ['proxy_error', 'temporary'],
};

export function typeAndCategory(code: string, status: number): { type: string; category: string } {
  const [type, category] =
    TYPE_BY_STATUS[status] ?? (status >= 500 ? ['api_error', 'permanent'] : ['api_error', 'permanent']);
  // The specification's session_expired example carries category `provider`.
  return { type, category: code === 'session_expired' ? 'provider' : category };
}

export interface AppErrorOptions {
  param?: string;
  headers?: Record<string, string | number>;
  cause?: unknown;
  /** more fields of the error object that a code defines (otp_invalid: attempts_left) */
  extra?: Record<string, string | number | boolean>;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param?: string;
  readonly headers?: Record<string, string | number>;
  readonly extra?: Record<string, string | number | boolean>;

  constructor(code: ErrorCode, message?: string, opts: AppErrorOptions = {}) {
    super(message ?? code.replace(/_/g, ' '), { cause: opts.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.param = opts.param;
    this.headers = opts.headers;
    this.extra = opts.extra;
  }
}

export function invalidParam(param: string, message: string): AppError {
  return new AppError('invalid_parameter', message, { param });
}

export interface ErrorBody {
  error: {
    type: string;
    code: string;
    message: string;
    request_id: string;
    param?: string;
    category: string;
    [field: string]: unknown;
  };
}

export function errorBody(
  code: string,
  status: number,
  message: string,
  requestId: string,
  param?: string,
  extra?: Record<string, string | number | boolean>,
): ErrorBody {
  const { type, category } = typeAndCategory(code, status);
  const error: ErrorBody['error'] = Object.assign({}, extra, { type, code, message, request_id: requestId, category });
  if (param !== undefined) error.param = param;
  return { error };
}
