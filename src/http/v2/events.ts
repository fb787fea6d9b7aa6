// GET /v2/events: the journal, with an API key (its mode) or a JWT (?mode=test for test mode).
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { listEvents, toEventItem } from '../../domain/events/list.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { principal } from '../plugins/auth.ts';
import { route, type App } from '../route.ts';
import { Page, PageQuery, Timestamp } from '../schemas.ts';

const EventItem = Type.Object({
  id: Type.String(),
  type: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown()),
  created_at: Timestamp,
  livemode: Type.Boolean(),
});

export function v2EventRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'GET', url: '/v2/events', auth: ['api_key', 'jwt'],
    schema: {
      tags: ['events'], summary: 'The event journal, newest first',
      querystring: Type.Object({
        ...PageQuery,
        type: Type.Optional(Type.String({ description: 'one or more types, comma-separated' })),
        since: Type.Optional(Type.String({ description: 'ISO date or timestamp, inclusive' })),
        until: Type.Optional(Type.String({ description: 'ISO date (whole day) or timestamp, inclusive' })),
        mode: Type.Optional(Type.String({ enum: ['live', 'test'], description: 'JWT only' })),
      }),
      response: { 200: Page(EventItem) },
    },
    handler: async (req) => {
      const p = principal(req);
      const r = await listEvents(deps, { clientId: p.clientId, mode: p.mode }, req.query, parseLimit(req.query.limit));
      return { ...r, data: r.data.map(toEventItem) };
    },
  });
}
