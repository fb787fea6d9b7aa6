// The signed-in user's own password (decisions 30): changed with the current one, never by a partner acting
// in the account. Limited like a login: per address (bucket `auth`) and per user.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { changePassword } from '../../domain/accounts/password-reset.ts';
import { cabinetUser } from '../context.ts';
import { consumeRate } from '../plugins/auth.ts';
import { route, type App } from '../route.ts';
import { Body } from '../schemas.ts';
import { TokenPair } from '../shapes/token-pair.ts';

export function passwordRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'POST',
    url: '/me/password',
    auth: ['jwt'],
    permission: 'account.password',
    rateBucket: 'auth',
    schema: {
      tags: ['account'],
      summary: "Change the signed-in user's password; its other sessions end",
      description:
        'Every refresh token of the user is revoked and a new pair is answered for the caller, who goes on ' +
        'with it. A wrong current password is 403 `current_password_wrong`.',
      body: Body({
        current_password: Type.String({ minLength: 1, maxLength: 128 }),
        new_password: Type.String({ minLength: 10, maxLength: 128 }),
      }),
      response: { 200: TokenPair },
    },
    handler: async (req, reply) => {
      const user = cabinetUser(req);
      // Guesses at the current password with a stolen access token: as many as a login gets per e-mail.
      await consumeRate(deps, reply, 'login_email', `password_change:${user.userId}`);
      return changePassword(deps, user, req.body);
    },
  });
}
