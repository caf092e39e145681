import type { AuthUser } from '../../../platform/auth/types.js';
import type { Db } from '../../../platform/db/types.js';
import { RentalErrors } from '../errors.js';
import * as repo from './repo.js';
import type { CustomerIdentity } from './service.js';

/**
 * Who the caller is as a rental customer: the customer linked by customers.user_id, else the one with the
 * user's e-mail. A customer-role user without a record gets one when `create` is set (starting a thread);
 * otherwise null. Other roles without a linked customer are refused (403).
 */
export async function customerOf(db: Db, user: AuthUser, create: boolean): Promise<CustomerIdentity | null> {
  const found = await repo.customerOfUser(db, user.id, user.email);
  if (found) return found;
  if (user.role !== 'customer') {
    throw RentalErrors.permissionDenied('This account is not linked to a rental customer.');
  }
  if (!create) return null;
  return repo.ensureCustomerForUser(db, user.id, user.displayName || user.login, user.email);
}
