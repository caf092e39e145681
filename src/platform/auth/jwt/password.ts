import type { Platform } from '../../context.js';
import { HttpError } from '../../http/errors.js';
import { hashPassword, verifyPassword } from '../crypto.js';
import { findUserById, findUserByLogin, setUserPassword } from '../repo.js';
import { jwtSessionsOf } from './sessions.js';

/** Checks the current password, stores the new one and ends every session of the user, in one transaction. */
export async function changePassword(p: Platform, userId: number, current: string, next: string): Promise<number> {
  const u = await findUserById(p.db, userId);
  const row = u ? await findUserByLogin(p.db, u.login) : undefined;
  if (!row || !(await verifyPassword(current, row.passwordHash))) throw new HttpError(401, 'rova_invalid_credentials', 'The current password is wrong.');
  const hash = await hashPassword(next);
  return p.transaction(async (tx) => {
    await setUserPassword(tx, userId, hash);
    return jwtSessionsOf(p).revokeAll(userId, 'password_changed', tx);
  });
}
