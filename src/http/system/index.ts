// The system surface: the OpenAPI document itself, liveness, readiness, metrics, the JWKS, llms.txt.
import { surface } from '../surface.ts';
import { systemRoutes } from './routes.ts';
import { llmsRoutes } from './llms.ts';

export const systemSurface = surface('system', (app, { deps, registry }) => {
  // Hidden from the document it serves; the post-processing of openapi-document.ts has run by then.
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  systemRoutes(app, deps, registry);
  llmsRoutes(app, deps);
});
