// reKassa's refusals ({code, message, meta, url} with a 4xx/5xx status, research section 2) as FiscalError
// kinds. reKassa publishes no list of its codes: the status decides, and a code or message that names a
// state Tolem acts on (an expired shift, a blocked register, 72 hours offline) refines it. The words matched
// are the states' names in reKassa's own register object (shiftExpired, blockStartTime, offlineExpireTime)
// and in its Russian messages. docs/fiscal.md carries the same table.
import { FiscalError, type FiscalErrorKind } from '../types.ts';

export interface RekassaErrorBody {
  code?: unknown;
  message?: unknown;
}

const SHIFT_EXPIRED = /shift_?expired|смен\S* .*24|24 ?час/i;
const OFFLINE_EXPIRED = /offline\w*expired|offline.*72|автоном\S* .*72|72 ?час/i;
const BLOCKED =
  /cash_?register_?not_?found|block|deregist|not_?activ|licen[cs]e|заблокир|не активир|снят\S* с учет|лицензи/i;
/** The sale a return names is missing or unknown (a return above its sale's remainder is a plain refusal). */
const BASIS = /parent_?ticket\w*(required|not_?found|missing)|основани\S* не найден|не указаны данные чека-основания/i;
const DUPLICATE = /duplicat|already_?exists|уже существует|повтор/i;
const BUSY = /busy|in_?progress|locked|concurren|выполняется|последовательн/i;

/**
 * The kind of a reKassa answer with this status and body. `login`: the call was auth/login, where 400, 401
 * and 403 all say the number, password or apiKey is wrong.
 */
export function kindOf(status: number, body: RekassaErrorBody, login: boolean): FiscalErrorKind {
  const words = `${String(body.code ?? '')} ${String(body.message ?? '')}`;
  if (login && (status === 400 || status === 401 || status === 403)) return 'auth_failed';
  if (status === 401) return 'token_expired';
  // reKassa's own 5xx: it could not serve the request now (a receipt's 5xx is outcome_unknown, connection.ts).
  if (status >= 500) return 'unavailable';
  if (SHIFT_EXPIRED.test(words)) return 'shift_expired';
  if (OFFLINE_EXPIRED.test(words)) return 'offline_expired';
  if (BLOCKED.test(words)) return 'blocked';
  // Before 409: a request refused because another one on the register runs may come as a conflict too.
  if (status === 429 || BUSY.test(words)) return 'busy';
  if (status === 409 || DUPLICATE.test(words)) return 'duplicate';
  if (BASIS.test(words)) return 'basis_missing';
  // The register's credentials may no longer reach it (a role taken away): the merchant's to fix.
  if (status === 403) return 'auth_failed';
  return 'rejected';
}

export function errorOf(call: string, status: number, body: RekassaErrorBody, login: boolean): FiscalError {
  const code = body.code === undefined || body.code === null ? `HTTP_${status}` : String(body.code);
  const message = typeof body.message === 'string' ? body.message : '';
  return new FiscalError(
    kindOf(status, body, login),
    `rekassa ${call}: HTTP ${status} ${code} ${message}`.trim(),
    code,
  );
}
