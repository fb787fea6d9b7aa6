// The v1 surface (deprecated): its routes in a context of their own under /v1 (plugin.ts says why).
import { surface } from '../surface.ts';
import { v1Routes } from './plugin.ts';

export const v1Surface = surface('v1', (app, { deps }) => v1Routes(app, deps));
