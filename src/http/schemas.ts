// Schemas shared by many routes. Each schema and its type share a name (architecture rule 6).
import { Type, type Static, type TSchema } from 'typebox';
import { ERROR_STATUS } from '../errors.ts';

// Handlers return Date objects; the response serializer writes them as ISO 8601 UTC with milliseconds.
export const Timestamp = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      type: Type.String(),
      code: Type.String({ enum: Object.keys(ERROR_STATUS), description: 'machine-readable reason; the list is closed' }),
      message: Type.String(),
      request_id: Type.String(),
      param: Type.Optional(Type.String()),
      category: Type.String(),
    }),
  },
  { description: 'Error envelope (every failure)' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

/** Strict request body: unknown fields are rejected with 400 invalid_parameter naming the field. */
export const Body = <P extends Record<string, TSchema>>(props: P) => Type.Object(props, { additionalProperties: false });

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), next_cursor: Nullable(Type.String()), has_more: Type.Boolean() });

export const Amount = Type.Integer({ description: 'integer tenge' });
