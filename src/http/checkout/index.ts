// The checkout surface: the public checkout API and page, its assets, the sandbox's and the live payer's pages,
// the receipt check page.
import { surface } from '../surface.ts';
import { checkoutApiRoutes } from './api.ts';
import { checkoutPageRoutes } from './page.ts';
import { checkoutAssetRoutes } from './assets.ts';
import { sandboxPayerRoutes } from './sandbox-payer.ts';
import { payerRoutes } from './payer.ts';
import { checkPageRoutes } from './check.ts';

export const checkoutSurface = surface('checkout', (app, { deps }) => {
  checkoutApiRoutes(app, deps);
  checkoutPageRoutes(app, deps);
  checkoutAssetRoutes(app, deps);
  sandboxPayerRoutes(app, deps);
  payerRoutes(app, deps);
  checkPageRoutes(app, deps);
});
