// The query of a payments search, shared by GET /v2/payments, GET /me/payments and the CSV export: a property
// map to spread into a route's querystring. The schema bounds each value; domain/payments/search.ts checks the
// rest (forms of time, digits, ranges) and answers 400 invalid_parameter naming the parameter.
import { Type } from 'typebox';
import { Q_MAX } from '../../domain/payments/search.ts';
import type { PaymentSearchInput } from '../../domain/payments/search.ts';

const Instant = (description: string) =>
  Type.Optional(Type.String({ maxLength: 64, description, examples: ['2026-05-01T00:00:00+05:00'] }));
const Tenge = (description: string) =>
  Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description }));

export const PaymentSearchQuery = {
  created_from: Instant('created at or after this date and time, ISO 8601 with its offset (Z or +05:00 for Almaty)'),
  created_to: Instant('created at or before this date and time, ISO 8601 with its offset'),
  amount: Tenge('exactly this amount, integer tenge (not with amount_min or amount_max)'),
  amount_min: Tenge('at least this amount, integer tenge'),
  amount_max: Tenge('at most this amount, integer tenge'),
  phone_last: Type.Optional(
    Type.String({
      maxLength: 32,
      description: "the last 4 to 10 digits of the payer's phone (invoices carry one)",
      examples: ['5678'],
    }),
  ),
  q: Type.Optional(
    Type.String({
      maxLength: Q_MAX,
      description: 'text in the comment or the operation id, case-insensitive (%, _ and \\ match themselves)',
    }),
  ),
};

/** The search filters of a query that carries PaymentSearchQuery (and status, type). */
export function searchOf(q: PaymentSearchInput): PaymentSearchInput {
  return {
    status: q.status,
    type: q.type,
    created_from: q.created_from,
    created_to: q.created_to,
    amount: q.amount,
    amount_min: q.amount_min,
    amount_max: q.amount_max,
    phone_last: q.phone_last,
    q: q.q,
  };
}
