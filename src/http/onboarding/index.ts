// The onboarding surface: connecting the provider, step by step.
import { surface } from '../surface.ts';
import { onboardingRoutes } from './routes.ts';

export const onboardingSurface = surface('onboarding', (app, { deps }) => onboardingRoutes(app, deps));
