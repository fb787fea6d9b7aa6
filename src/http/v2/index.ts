// The v2 surface: the merchant API (payments, the journal, test-mode helpers, payment links, the catalog,
// fiscal receipts).
import { surface } from '../surface.ts';
import { v2PaymentRoutes } from './payments.ts';
import { v2EventRoutes } from './events.ts';
import { v2TestHelperRoutes } from './test-helpers.ts';
import { v2LinkRoutes } from './links.ts';
import { v2LinkPosterRoutes } from './link-poster.ts';
import { v2ReceiptRoutes } from './receipts.ts';
import { v2CatalogRoutes } from './catalog.ts';

export const v2Surface = surface('v2', (app, { deps }) => {
  v2PaymentRoutes(app, deps);
  v2EventRoutes(app, deps);
  v2TestHelperRoutes(app, deps);
  v2LinkRoutes(app, deps);
  v2LinkPosterRoutes(app, deps);
  v2ReceiptRoutes(app, deps);
  v2CatalogRoutes(app, deps);
});
