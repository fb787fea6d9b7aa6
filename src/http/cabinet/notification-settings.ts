// Staff alerts (decisions 28), JWT: the signed-in member's own choice of alerts in the mode of the call
// (?mode=test, else live): which events and the daily summary, by e-mail and/or its bound messenger chat.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { getAlertSettings, patchAlertSettings } from '../../domain/notifications/alert-settings.ts';
import { cabinetUser } from '../context.ts';
import { ModeQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body } from '../schemas.ts';

const FIELDS = {
  payment_paid: Type.Boolean({ description: 'an alert for each payment paid' }),
  refund_completed: Type.Boolean({ description: 'an alert for each refund completed' }),
  receipt_failed: Type.Boolean({ description: 'an alert for each fiscal receipt that failed' }),
  daily_summary: Type.Boolean({
    description: "the previous day's totals (paid, refunded, receipts failed) once a day at summary_hour",
  }),
  summary_hour: Type.Integer({ minimum: 0, maximum: 23, description: 'local hour (UTC+5) of the daily summary' }),
  email: Type.Boolean({ description: "alerts go to the user's e-mail" }),
  messenger: Type.Boolean({ description: "alerts go to the user's messenger chat, once one is bound" }),
};

const NotificationSettings = Type.Object(
  {
    mode: Type.String({ enum: ['live', 'test'] }),
    ...FIELDS,
    messenger_linked: Type.Boolean({ description: 'a messenger chat is bound (POST /me/messenger-link)' }),
    customized: Type.Boolean({
      description:
        "false while the role's defaults apply: the receipt-failed alert by e-mail for owner and admin, nothing else",
    }),
  },
  { title: 'NotificationSettings' },
);

const tags = ['account'];
const caller = (req: Parameters<typeof cabinetUser>[0]) => {
  const u = cabinetUser(req);
  return { clientId: u.clientId, mode: u.mode, userId: u.userId };
};

export function notificationSettingsRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'GET',
    url: '/me/notification-settings',
    auth: ['jwt'],
    permission: 'account.read',
    schema: {
      tags,
      summary: "The signed-in user's staff alerts in this mode",
      querystring: Type.Object({ ...ModeQuery }),
      response: { 200: NotificationSettings },
    },
    handler: async (req) => getAlertSettings(deps, caller(req)),
  });
  route(app, {
    method: 'PATCH',
    url: '/me/notification-settings',
    auth: ['jwt'],
    permission: 'account.notification_settings',
    schema: {
      tags,
      summary: "Change the signed-in user's staff alerts in this mode",
      description:
        'The fields given replace the current ones; the others keep their value (the defaults when nothing was ' +
        'saved). Only this user and this mode change. Messenger alerts reach only a bound chat.',
      querystring: Type.Object({ ...ModeQuery }),
      body: Body({
        payment_paid: Type.Optional(FIELDS.payment_paid),
        refund_completed: Type.Optional(FIELDS.refund_completed),
        receipt_failed: Type.Optional(FIELDS.receipt_failed),
        daily_summary: Type.Optional(FIELDS.daily_summary),
        summary_hour: Type.Optional(FIELDS.summary_hour),
        email: Type.Optional(FIELDS.email),
        messenger: Type.Optional(FIELDS.messenger),
      }),
      response: { 200: NotificationSettings },
    },
    handler: async (req) => patchAlertSettings(deps, caller(req), req.body),
  });
}
