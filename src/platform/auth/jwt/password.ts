import type { FastifyRequest } from 'fastify';
import type { Platform } from '../../context.js';
import { passwordChangedMail, storeAccountMail } from '../../accounts/mails.js';
import { isKind } from '../../http/errors.js';
import { RovaErrors } from '../../errors.js';
import { hashPassword } from '../crypto.js';
import { findUserById, setUserPassword } from '../repo.js';
import { jwtSessionsOf } from './sessions.js';

/**
 * Checks the current password under the same limits as a login (a stolen session must not become a password oracle:
 * 429 once the account's or the address's failure budget is spent), then stores the new one, ends every session of
 * the user and writes the notice of the change to the mail outbox (the one a reset sends), in one transaction.
 */
export async function changePassword(
  p: Platform,
  req: FastifyRequest,
  userId: number,
  current: string,
  next: string,
): Promise<number> {
  const u = await findUserById(p.db, userId);
  if (!u) throw RovaErrors.invalidCredentials('The current password is wrong.');
  try {
    await p.auth.checkPassword(req, u.login, current);
  } catch (err) {
    if (isKind(err, RovaErrors.invalidCredentials))
      throw RovaErrors.invalidCredentials('The current password is wrong.');
    throw err;
  }
  const hash = await hashPassword(next);
  const done = await p.transaction(async (tx) => {
    await setUserPassword(tx, userId, hash);
    const revoked = await jwtSessionsOf(p).revokeAll(userId, 'password_changed', tx);
    // the notice a reset sends too, stored with the new password: it exists exactly when the change does
    const wake = await storeAccountMail(tx, p, userId, passwordChangedMail(p, u.email, u.displayName));
    return { revoked, wake };
  });
  done.wake();
  return done.revoked;
}
