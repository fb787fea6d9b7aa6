// v1 reads around the payments: history by period, provider customer lookup, and the account status.
import { lookupCustomer } from '../../domain/payments/customers.ts';
import type { Deps } from '../../deps.ts';
import { v1History } from '../../domain/v1/history.ts';
import { v1AccountStatus } from '../../domain/v1/account.ts';
import { tenant } from '../context.ts';
import { route, type App } from '../route.ts';
import { v1Doc } from './route-docs.ts';
import { AccountData, ClientData, HistoryBody, HistoryData, ok, PhoneParams, toHistoryItem } from './schemas.ts';

export function v1AccountRoutes(app: App, deps: Deps): void {
  // A POST that only reads: no Idempotency-Key (nothing to repeat safely or unsafely).
  route(app, {
    method: 'POST',
    url: '/history',
    auth: ['api_key'],
    permission: 'payments.read',
    schema: { ...v1Doc('Operations of a period, newest first; v2: GET /v2/payments', HistoryData), body: HistoryBody },
    handler: async (req) => {
      const r = await v1History(deps, tenant(req), req.body);
      return ok({ Items: r.items.map(toHistoryItem), Total: r.total });
    },
  });

  route(app, {
    method: 'GET',
    url: '/client/:phone',
    auth: ['api_key'],
    permission: 'payments.read',
    schema: {
      ...v1Doc('Is this phone a customer of the provider? v2: GET /v2/client?phone=', ClientData, [404, 409, 503]),
      params: PhoneParams,
    },
    handler: async (req) => {
      const t = tenant(req);
      const c = await lookupCustomer(deps, t, undefined, req.params.phone);
      return ok({ Phone: c.phone, Exists: true, Name: c.name });
    },
  });

  route(app, {
    method: 'GET',
    url: '/status',
    auth: ['api_key'],
    permission: 'account.read',
    schema: v1Doc('Provider session, plan and its monthly usage; no v2 twin (GET /me, GET /me/usage)', AccountData),
    handler: async (req) => {
      const t = tenant(req);
      return ok(await v1AccountStatus(deps, t));
    },
  });
}
