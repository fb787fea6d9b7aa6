// OpenAPI for v1 routes: one tag, `deprecated: true`, the v1 envelope for 200 and for every failure status
// (these override the v2 error envelopes that route() declares by default, which would also make the
// serializer drop v1 failure bodies).
import type { TSchema } from 'typebox';
import { Envelope, TAG, V1Failure } from './schemas.ts';

const FAILURE: Record<number, string> = {
  400: 'StatusCode -400: invalid input',
  401: 'StatusCode -401: no or bad API key',
  403: 'StatusCode -403: plan inactive',
  404: 'StatusCode -404: not found',
  409: 'StatusCode -409: state conflict (idempotency, not cancellable/refundable, provider not connected)',
  410: 'StatusCode -410: v1 is past its sunset',
  429: 'StatusCode -429: rate or plan limit',
  500: 'StatusCode -500: internal error',
  503: 'StatusCode -503: provider unavailable; -999: provider session expired, reconnect',
};

export function v1Doc(summary: string, data: TSchema, errors: number[] = []) {
  const statuses = [...new Set([400, 401, 410, 429, 500, ...errors])].sort();
  return {
    tags: [TAG],
    summary,
    deprecated: true,
    description: 'Deprecated: switched off at the sunset (Sunset header). See the Link header for the v2 successor.',
    response: {
      200: Envelope(data),
      ...Object.fromEntries(statuses.map((s) => [s, { ...V1Failure, description: FAILURE[s] }])),
    } as Record<number, unknown>,
  };
}
