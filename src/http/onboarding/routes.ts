// /onboarding/provider/*: connecting a provider account (decisions 19). One state machine per client and
// mode (?mode=test, else live); which mechanism answers depends on the mode and the live driver: a code by
// SMS (the sandbox's) or the provider's official API (credentials, then a trade point).
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import {
  mechanismFor, onboardingStatus, resendQrapi, resendSandbox, startQrapi, startSandbox, verifyQrapi, verifySandbox,
} from '../../domain/onboarding/machine.ts';
import { cabinetUser } from '../context.ts';
import { ModeQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, NullableTimestamp, Timestamp } from '../schemas.ts';

const State = Type.String({ enum: ['idle', 'code_sent', 'trade_point_required', 'connected', 'expired', 'locked', 'failed'] });
const NextStep = Nullable(Type.String({ enum: ['start', 'enter_code', 'choose_trade_point'] }));
const TradePoint = Type.Object({ id: Type.Integer(), name: Type.String() });

const OnboardingStatus = Type.Object({
  state: State, mode: Type.String({ enum: ['live', 'test'] }), next_step: NextStep, expires_at: NullableTimestamp,
  attempts_left: Nullable(Type.Integer()), account_id: Nullable(Type.Integer()),
}, { title: 'OnboardingStatus' });

const StepAnswer = Type.Object({
  state: State,
  next_step: NextStep,
  phone_masked: Type.Optional(Type.String()),
  expires_at: Type.Optional(NullableTimestamp),
  resend_available_at: Type.Optional(Timestamp),
  trade_points: Type.Optional(Type.Array(TradePoint)),
  mode: Type.Optional(Type.String({ enum: ['live', 'test'] })),
  attempts_left: Type.Optional(Nullable(Type.Integer())),
  account_id: Type.Optional(Nullable(Type.Integer())),
}, { title: 'OnboardingStep' });

const Credentials = Type.Union([
  Body({ scheme: Type.Literal('r1'), api_key: Type.String({ minLength: 1, maxLength: 200 }) }),
  Body({
    scheme: Type.String({ enum: ['r2', 'r3'] }),
    certificate_pfx_base64: Type.String({ minLength: 1, maxLength: 64 * 1024, description: 'the PKCS#12 bundle the provider issued, base64' }),
    password: Type.String({ maxLength: 200 }),
  }),
], { description: 'official API only; absent: the operator\'s own r3 certificate (PROVIDER_OPERATOR_PFX)' });

const StartBody = Body({
  phone: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'one-time-code mechanism: the business account\'s phone' })),
  org_bin: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'BIN or IIN; required by the official API' })),
  display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  credentials: Type.Optional(Credentials),
  force: Type.Optional(Type.Boolean({ description: 'connect another account although the mode is connected' })),
}, 'OnboardingStartRequest');

const VerifyBody = Body({
  code: Type.Optional(Type.String({ minLength: 1, maxLength: 12, description: 'one-time-code mechanism' })),
  trade_point_id: Type.Optional(Type.Integer({ minimum: 1, description: 'official API: one of start\'s trade_points' })),
}, 'OnboardingVerifyRequest');

export function onboardingRoutes(app: App, deps: Deps): void {
  const tags = ['onboarding'];
  const querystring = Type.Object(ModeQuery);
  const who = (req: Parameters<typeof cabinetUser>[0]) => {
    const p = cabinetUser(req);
    return { clientId: p.clientId, mode: p.mode, mechanism: mechanismFor(deps, p.mode) };
  };
  const required = (value: unknown, param: string, what: string) => {
    if (value === undefined) throw new AppError('invalid_parameter', `${param} is required ${what}`, { param });
  };

  route(app, {
    method: 'POST', url: '/onboarding/provider/start', auth: ['jwt'], permission: 'onboarding.write', errors: [404, 409, 502],
    schema: { tags, summary: 'Start connecting a provider account (a code by SMS, or credentials then a trade point)', querystring, body: StartBody, response: { 200: StepAnswer } },
    handler: async (req) => {
      const { clientId, mode, mechanism } = who(req);
      const b = req.body;
      if (mechanism === 'sandbox') {
        required(b.phone, 'phone', 'for the one-time-code mechanism');
        if (b.credentials) throw new AppError('invalid_parameter', 'credentials are for the official API (PROVIDER_DRIVER=qrapi, live mode)', { param: 'credentials' });
        return startSandbox(deps, clientId, mode, { phone: b.phone!, display_name: b.display_name, org_bin: b.org_bin, force: b.force });
      }
      required(b.org_bin, 'org_bin', 'by the official API');
      return startQrapi(deps, clientId, { org_bin: b.org_bin!, display_name: b.display_name, credentials: b.credentials as never, force: b.force });
    },
  });
  route(app, {
    method: 'POST', url: '/onboarding/provider/verify', auth: ['jwt'], permission: 'onboarding.write', errors: [409, 502],
    schema: { tags, summary: 'Enter the code, or choose the trade point', querystring, body: VerifyBody, response: { 200: StepAnswer } },
    handler: async (req) => {
      const { clientId, mode, mechanism } = who(req);
      if (mechanism === 'sandbox') {
        required(req.body.code, 'code', 'for the one-time-code mechanism');
        return verifySandbox(deps, clientId, mode, req.body.code!);
      }
      required(req.body.trade_point_id, 'trade_point_id', 'by the official API');
      return verifyQrapi(deps, clientId, req.body.trade_point_id!);
    },
  });
  route(app, {
    method: 'POST', url: '/onboarding/provider/resend', auth: ['jwt'], permission: 'onboarding.write', errors: [409, 502],
    schema: { tags, summary: 'Send the code again (60 s apart, 5 times), or read the trade points again', querystring, body: Type.Optional(Body({})), response: { 200: StepAnswer } },
    handler: async (req) => {
      const { clientId, mode, mechanism } = who(req);
      return mechanism === 'sandbox' ? resendSandbox(deps, clientId, mode) : resendQrapi(deps, clientId);
    },
  });
  route(app, {
    method: 'GET', url: '/onboarding/provider/status', auth: ['jwt'], permission: 'account.read',
    schema: { tags, summary: 'Where the connection stands', querystring, response: { 200: OnboardingStatus } },
    handler: async (req) => {
      const { clientId, mode } = who(req);
      return onboardingStatus(deps, clientId, mode);
    },
  });
}
