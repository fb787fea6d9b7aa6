// /onboarding/provider/*: connecting a provider account (decisions 19). One state machine per client and
// mode (?mode=test, else live); which mechanism answers depends on the mode and the live driver: a code by
// SMS (the sandbox's) or the provider's official API (credentials, then a trade point).
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { onboardingStatus, resendQrapi, resendSandbox, mechanismFor } from '../../domain/onboarding/machine.ts';
import { startOnboarding, verifyOnboarding } from '../../domain/onboarding/steps.ts';
import { cabinetUser } from '../context.ts';
import { ModeQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body } from '../schemas.ts';
import { OnboardingStatus, StartBody, StepAnswer, VerifyBody } from '../shapes/onboarding.ts';

export function onboardingRoutes(app: App, deps: Deps): void {
  const tags = ['onboarding'];
  const querystring = Type.Object(ModeQuery);
  const who = (req: Parameters<typeof cabinetUser>[0]) => {
    const p = cabinetUser(req);
    return { clientId: p.clientId, mode: p.mode };
  };

  route(app, {
    method: 'POST',
    url: '/onboarding/provider/start',
    auth: ['jwt'],
    permission: 'onboarding.write',
    errors: [404, 409, 502],
    schema: {
      tags,
      summary: 'Start connecting a provider account (a code by SMS, or credentials then a trade point)',
      querystring,
      body: StartBody,
      response: { 200: StepAnswer },
    },
    handler: async (req) => {
      const { clientId, mode } = who(req);
      return startOnboarding(deps, { clientId, mode }, req.body);
    },
  });
  route(app, {
    method: 'POST',
    url: '/onboarding/provider/verify',
    auth: ['jwt'],
    permission: 'onboarding.write',
    errors: [409, 502],
    schema: {
      tags,
      summary: 'Enter the code, or choose the trade point',
      querystring,
      body: VerifyBody,
      response: { 200: StepAnswer },
    },
    handler: async (req) => {
      const { clientId, mode } = who(req);
      return verifyOnboarding(deps, { clientId, mode }, req.body);
    },
  });
  route(app, {
    method: 'POST',
    url: '/onboarding/provider/resend',
    auth: ['jwt'],
    permission: 'onboarding.write',
    errors: [409, 502],
    schema: {
      tags,
      summary: 'Send the code again (60 s apart, 5 times), or read the trade points again',
      querystring,
      body: Type.Optional(Body({})),
      response: { 200: StepAnswer },
    },
    handler: async (req) => {
      const { clientId, mode } = who(req);
      return mechanismFor(deps, mode) === 'sandbox'
        ? resendSandbox(deps, { clientId, mode })
        : resendQrapi(deps, clientId);
    },
  });
  route(app, {
    method: 'GET',
    url: '/onboarding/provider/status',
    auth: ['jwt'],
    permission: 'account.read',
    schema: { tags, summary: 'Where the connection stands', querystring, response: { 200: OnboardingStatus } },
    handler: async (req) => {
      const { clientId, mode } = who(req);
      return onboardingStatus(deps, { clientId, mode });
    },
  });
}
