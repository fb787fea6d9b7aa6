// Request parameters shared by many routes, defined once: the mode switch of JWT callers, path ids, the
// page query and the provider-account header. Query parts are property maps, to spread into a route's
// own querystring object (`Type.Object({ ...ModeQuery, ...PageQuery, status })`).
import { Type } from 'typebox';
import { AppError, type ErrorCode } from '../errors.ts';

/** JWT callers choose the mode (test, else live); an API key carries its own and ignores this. */
export const ModeQuery = {
  mode: Type.Optional(
    Type.String({
      enum: ['live', 'test'],
      description: 'JWT callers: test mode with ?mode=test, live otherwise; API keys carry their mode',
    }),
  ),
};

/** For resources that have no mode (request log, notifications): the dashboard may send it; it is ignored. */
export const IgnoredModeQuery = {
  mode: Type.Optional(Type.String({ description: 'accepted and ignored: this resource has no mode' })),
};

export const PageQuery = {
  cursor: Type.Optional(Type.String({ description: 'opaque next_cursor of the previous page' })),
  limit: Type.Optional(Type.Integer({ description: '1 to 100, default 20' })),
};

export const OperationId = Type.String({ minLength: 1, maxLength: 64, description: 'op_<ULID>' });
export const OpParams = Type.Object({ op_id: OperationId });

export const TokenParams = Type.Object({ token: Type.String({ description: 'the link token of /checkout/{token}' }) });

// Integer ids stay text in the schema: a value that cannot be an id is simply not found (404), like an
// id of another client, rather than a validation error.
export const IdParams = Type.Object({ id: Type.String() });

/** A path id as a number, or the resource's 404 when it cannot be one. */
export function numericId(raw: string, code: ErrorCode, what: string): number {
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw new AppError(code, `${what} ${raw} not found`);
  return Number(raw);
}

export const AccountHeader = Type.Object({
  'x-provider-account': Type.Optional(Type.String({ description: 'provider account id; default account when absent' })),
});
