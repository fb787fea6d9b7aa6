// The onboarding state machine's answers and inputs (decisions 19), shared by /onboarding/provider/* and
// the partner API's white-label calls.
import { Type } from 'typebox';
import { Body, Nullable, NullableTimestamp, Timestamp } from '../schemas.ts';

const State = Type.String({
  enum: ['idle', 'code_sent', 'trade_point_required', 'connected', 'expired', 'locked', 'failed'],
});
const NextStep = Nullable(Type.String({ enum: ['start', 'enter_code', 'choose_trade_point'] }));
const TradePoint = Type.Object({ id: Type.Integer(), name: Type.String() });

export const OnboardingStatus = Type.Object(
  {
    state: State,
    mode: Type.String({ enum: ['live', 'test'] }),
    next_step: NextStep,
    expires_at: NullableTimestamp,
    attempts_left: Nullable(Type.Integer()),
    account_id: Nullable(Type.Integer()),
    mechanism: Type.String({
      enum: ['sandbox', 'qrapi'],
      description:
        "how the mode connects: 'sandbox' a one-time code to the phone, " +
        "'qrapi' the official API (certificate, then a trade point)",
    }),
    phone_masked: Type.Optional(Type.String({ description: 'code_sent: where the code went' })),
    trade_points: Type.Optional(
      Type.Array(TradePoint, { description: 'trade_point_required: the points to choose from' }),
    ),
  },
  { title: 'OnboardingStatus' },
);

export const StepAnswer = Type.Object(
  {
    state: State,
    next_step: NextStep,
    phone_masked: Type.Optional(Type.String()),
    expires_at: Type.Optional(NullableTimestamp),
    resend_available_at: Type.Optional(Timestamp),
    trade_points: Type.Optional(Type.Array(TradePoint)),
    mode: Type.Optional(Type.String({ enum: ['live', 'test'] })),
    attempts_left: Type.Optional(Nullable(Type.Integer())),
    account_id: Type.Optional(Nullable(Type.Integer())),
  },
  { title: 'OnboardingStep' },
);

const Credentials = Type.Union(
  [
    Body({ scheme: Type.Literal('r1'), api_key: Type.String({ minLength: 1, maxLength: 200 }) }),
    Body({
      scheme: Type.String({ enum: ['r2', 'r3'] }),
      certificate_pfx_base64: Type.String({
        minLength: 1,
        maxLength: 64 * 1024,
        description: 'the PKCS#12 bundle the provider issued, base64',
      }),
      password: Type.String({ maxLength: 200 }),
    }),
  ],
  { description: "official API only; absent: the operator's own r3 certificate (PROVIDER_OPERATOR_PFX)" },
);

export const StartBody = Body(
  {
    phone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 32,
        description: "one-time-code mechanism: the business account's phone",
      }),
    ),
    org_bin: Type.Optional(
      Type.String({ minLength: 1, maxLength: 20, description: 'BIN or IIN; required by the official API' }),
    ),
    display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    credentials: Type.Optional(Credentials),
    force: Type.Optional(Type.Boolean({ description: 'connect another account although the mode is connected' })),
  },
  'OnboardingStartRequest',
);

export const VerifyBody = Body(
  {
    code: Type.Optional(Type.String({ minLength: 1, maxLength: 12, description: 'one-time-code mechanism' })),
    trade_point_id: Type.Optional(
      Type.Integer({ minimum: 1, description: "official API: one of start's trade_points" }),
    ),
  },
  'OnboardingVerifyRequest',
);
