// Schemas shared by many routes. Each schema and its type share a name (architecture rule 6).
import { Type, type Static, type TSchema } from 'typebox';
import { ERROR_STATUS } from '../errors.ts';

// Handlers return Date objects; the response serializer writes them as ISO 8601 UTC with milliseconds.
export const Timestamp = Type.Unsafe<Date | string>({
  type: 'string',
  format: 'date-time',
  description: 'ISO 8601 UTC with milliseconds',
});
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      type: Type.String(),
      code: Type.String({
        title: 'ErrorCode',
        enum: Object.keys(ERROR_STATUS),
        description: 'machine-readable reason; the list is closed',
      }),
      message: Type.String(),
      request_id: Type.String(),
      param: Type.Optional(Type.String()),
      category: Type.String(),
      attempts_left: Type.Optional(
        Type.Integer({ description: 'otp_invalid: wrong codes still allowed before the lock' }),
      ),
    }),
  },
  { title: 'Error', description: 'Error envelope (every failure)' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

/** Strict request body: unknown fields are rejected with 400 invalid_parameter naming the field. */
export const Body = <P extends Record<string, TSchema>>(props: P, title?: string) =>
  Type.Object(props, { additionalProperties: false, ...(title ? { title } : {}) });

/** A cursor page; a page of a named item is named too (PaymentList). */
export const Page = <T extends TSchema>(item: T) => {
  const { title } = item as { title?: unknown };
  return Type.Object(
    { data: Type.Array(item), next_cursor: Nullable(Type.String()), has_more: Type.Boolean() },
    typeof title === 'string' ? { title: `${title}List` } : {},
  );
};

// The example is what /docs "Try it out" sends: a real amount, not the 0 a sampler makes of an integer.
export const Amount = Type.Integer({ description: 'integer tenge', examples: [5000] });
