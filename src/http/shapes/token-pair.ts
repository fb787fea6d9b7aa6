// A token pair on the wire: what signing in, refreshing and changing one's password answer.
import { Type } from 'typebox';

export const TokenPair = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String({ description: 'single use, 7 days' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'seconds (900)' }),
});
