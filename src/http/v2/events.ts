// GET /v2/events: the journal, with an API key (its mode) or a JWT (?mode=test for test mode).
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { listEvents } from '../../domain/events/list.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { tenant } from '../context.ts';
import { ModeQuery, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Page } from '../schemas.ts';
import { EventItem, toEventItem } from '../shapes/event.ts';

export function v2EventRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'GET',
    url: '/v2/events',
    auth: ['api_key', 'jwt'],
    permission: 'events.read',
    schema: {
      tags: ['events'],
      summary: 'The event journal, newest first',
      querystring: Type.Object({
        ...PageQuery,
        type: Type.Optional(Type.String({ description: 'one or more types, comma-separated' })),
        since: Type.Optional(Type.String({ description: 'ISO date or timestamp, inclusive' })),
        until: Type.Optional(Type.String({ description: 'ISO date (whole day) or timestamp, inclusive' })),
        operation_id: Type.Optional(
          Type.String({ minLength: 1, maxLength: 64, description: 'the events of one payment (op_…)' }),
        ),
        ...ModeQuery,
      }),
      response: { 200: Page(EventItem) },
    },
    handler: async (req) => {
      const r = await listEvents(deps, tenant(req), req.query, {
        cursor: req.query.cursor,
        limit: parseLimit(req.query.limit),
      });
      return { ...r, data: r.data.map(toEventItem) };
    },
  });
}
