// Notifications (JWT): the client's notices, newest first, with an unread counter. Every team role may
// read them and mark them read; the read state is shared by the client's users.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { listNotifications, markAllRead, unreadCount } from '../../domain/notifications/notify.ts';
import { NOTIFICATION_TYPES } from '../../domain/notifications/kinds.ts';
import { cabinetUser } from '../context.ts';
import { IgnoredModeQuery, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, NullableTimestamp, Page, Timestamp } from '../schemas.ts';

const Notification = Type.Object(
  {
    id: Type.Integer(),
    type: Type.String({ enum: NOTIFICATION_TYPES, description: 'what it is about; `params` are its facts' }),
    title: Type.String({ description: 'in English; the dashboard words it from type and params' }),
    body: Type.String({ description: 'in English (a support answer: its text as written)' }),
    params: Nullable(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'the facts of this type: plan, month (YYYY-MM), *_at timestamps, variant, ...; ' +
          'null for notifications created before they were kept',
      }),
    ),
    read_at: NullableTimestamp,
    created_at: Timestamp,
  },
  { title: 'Notification' },
);
const tags = ['account'];

export function notificationRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'GET',
    url: '/me/notifications',
    auth: ['jwt'],
    permission: 'account.read',
    schema: {
      tags,
      summary: 'Notifications, newest first (cursor; limit 1 to 100, default 20)',
      querystring: Type.Object({
        ...PageQuery,
        unread: Type.Optional(Type.Boolean({ description: 'only unread ones' })),
        ...IgnoredModeQuery,
      }),
      response: { 200: Page(Notification) },
    },
    handler: async (req) =>
      listNotifications(
        deps,
        cabinetUser(req),
        { unread: req.query.unread },
        { cursor: req.query.cursor, limit: parseLimit(req.query.limit) },
      ),
  });
  route(app, {
    method: 'GET',
    url: '/me/notifications/unread-count',
    auth: ['jwt'],
    permission: 'account.read',
    schema: {
      tags,
      summary: 'Number of unread notifications',
      response: { 200: Type.Object({ count: Type.Integer() }) },
    },
    handler: async (req) => unreadCount(deps, cabinetUser(req)),
  });
  route(app, {
    method: 'POST',
    url: '/me/notifications/read-all',
    auth: ['jwt'],
    permission: 'notifications.read_all',
    schema: {
      tags,
      summary: 'Mark every notification read',
      body: Body({}),
      response: { 200: Type.Object({ updated: Type.Integer({ description: 'notifications newly marked read' }) }) },
    },
    handler: async (req) => markAllRead(deps, cabinetUser(req)),
  });
}
