// The partner integration API /partner/v1 (decisions 22): white-label onboarding of a client's provider
// in the key's mode.
import { Type } from 'typebox';
import type { Deps } from '../../../deps.ts';
import { startOnboarding, verifyOnboarding } from '../../../domain/onboarding/steps.ts';
import { mechanismFor, onboardingStatus, resendQrapi, resendSandbox } from '../../../domain/onboarding/machine.ts';
import { route, type App } from '../../route.ts';
import { Body } from '../../schemas.ts';
import { OnboardingStatus, StartBody, StepAnswer, VerifyBody } from '../../shapes/onboarding.ts';
import { RefParams, read, tags, targetOf, write } from './shared.ts';

export function partnerApiOnboardingRoutes(app: App, deps: Deps): void {
  const target = targetOf(deps);
  route(app, {
    method: 'POST',
    url: '/partner/v1/clients/:client_ref/provider/start',
    ...write,
    errors: [404, 409, 502],
    schema: {
      tags,
      summary: "White-label onboarding, start (the key's mode): a code by SMS, or credentials then a trade point",
      params: RefParams,
      body: StartBody,
      response: { 200: StepAnswer },
    },
    handler: async (req) => {
      const { clientId, mode } = await target(req, true);
      return startOnboarding(deps, { clientId, mode }, req.body);
    },
  });
  route(app, {
    method: 'POST',
    url: '/partner/v1/clients/:client_ref/provider/verify',
    ...write,
    errors: [404, 409, 502],
    schema: {
      tags,
      summary: 'White-label onboarding: the code, or the trade point',
      params: RefParams,
      body: VerifyBody,
      response: { 200: StepAnswer },
    },
    handler: async (req) => {
      const { clientId, mode } = await target(req, true);
      return verifyOnboarding(deps, { clientId, mode }, req.body);
    },
  });
  route(app, {
    method: 'POST',
    url: '/partner/v1/clients/:client_ref/provider/resend',
    ...write,
    errors: [404, 409, 502],
    schema: {
      tags,
      summary: 'White-label onboarding: send the code again, or read the trade points again',
      params: RefParams,
      body: Type.Optional(Body({})),
      response: { 200: StepAnswer },
    },
    handler: async (req) => {
      const { clientId, mode } = await target(req, true);
      return mechanismFor(deps, mode) === 'sandbox'
        ? resendSandbox(deps, { clientId, mode })
        : resendQrapi(deps, clientId);
    },
  });
  route(app, {
    method: 'GET',
    url: '/partner/v1/clients/:client_ref/provider/status',
    ...read,
    errors: [404],
    schema: {
      tags,
      summary: 'White-label onboarding: where it stands',
      params: RefParams,
      response: { 200: OnboardingStatus },
    },
    handler: async (req) => {
      const { clientId, mode } = await target(req);
      return onboardingStatus(deps, { clientId, mode });
    },
  });
}
