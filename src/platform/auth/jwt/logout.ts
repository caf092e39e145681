import type { Platform } from '../../context.js';
import type { AuthContext } from '../types.js';
import { jwtSessionsOf } from './sessions.js';

/** Ends the caller's session (cookie or JWT), or every session of the user when `everywhere`. */
export async function logoutSession(p: Platform, ctx: AuthContext, everywhere: boolean): Promise<void> {
  if (everywhere && ctx.user) {
    await jwtSessionsOf(p).revokeAll(ctx.user.id, 'logout_everywhere');
    return;
  }
  if (ctx.method === 'jwt' && ctx.user && ctx.sessionId !== null)
    await jwtSessionsOf(p).revokeOne(ctx.user.id, ctx.sessionId);
  else await p.auth.logout(ctx);
}
