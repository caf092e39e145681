import type { Platform } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/types.js';
import { invalidField, notFoundError, RentalErrors } from '../errors.js';
import { iso, num } from '../views.js';
import { profileById } from '../../../platform/accounts/repo.js';
import {
  customerByEmail,
  customerById,
  customerByUserId,
  linkOrCreateCustomer,
  emailTaken,
  insertCustomer,
  isForeignKeyViolation,
  isUniqueViolation,
  userExists,
  updateCustomer,
  upsertCustomerByEmail,
  type CustomerRow,
} from './repo.js';
import type { CustomerView } from './schema.js';

export interface CustomerInput {
  name?: string;
  email?: string;
  phone?: string;
  address?: string;
  user_id?: number | null;
}

export function customerView(c: CustomerRow): CustomerView {
  return {
    id: Number(c.id),
    name: c.name,
    email: c.email,
    phone: c.phone,
    address: c.address,
    user_id: num(c.user_id),
    created_at: iso(c.created_at),
    updated_at: iso(c.updated_at),
  };
}

/** Another customer has this e-mail (409, `details.field` = `email`). */
const emailTakenError = () =>
  RentalErrors.stateConflict('A customer with this e-mail already exists.', { field: 'email' });

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
function checkEmail(email: string): void {
  if (!EMAIL.test(email)) throw invalidField('email', 'email must be an e-mail address.');
}

export async function createCustomer(
  p: Platform,
  input: Required<Pick<CustomerInput, 'name' | 'email'>> & CustomerInput,
): Promise<CustomerRow> {
  checkEmail(input.email);
  try {
    return await p.transaction(async (tx) => {
      if (await emailTaken(tx, input.email)) throw emailTakenError();
      return insertCustomer(tx, {
        name: input.name.trim(),
        email: input.email.trim(),
        phone: input.phone ?? '',
        address: input.address ?? '',
        user_id: input.user_id ?? null,
      });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw emailTakenError();
    if (isForeignKeyViolation(e)) throw invalidField('user_id', 'user_id does not exist.');
    throw e;
  }
}

export async function editCustomer(p: Platform, id: number, input: CustomerInput): Promise<CustomerRow> {
  if (input.email !== undefined) checkEmail(input.email);
  return p.transaction(async (tx) => {
    if (input.user_id && !(await userExists(tx, input.user_id)))
      throw invalidField('user_id', 'user_id does not exist.');
    if (!(await customerById(tx, id))) throw notFoundError('Customer', id);
    if (input.email !== undefined && (await emailTaken(tx, input.email, id))) throw emailTakenError();
    return (await updateCustomer(tx, id, {
      name: input.name?.trim(),
      email: input.email?.trim(),
      phone: input.phone,
      address: input.address,
      user_id: input.user_id,
    }))!;
  });
}

/** The booking's customer: an existing id, or found / created by e-mail (inside the booking transaction). */
/** A signed-in customer's account, as the booking's customer. */
export interface CustomerAccount {
  id: number;
  email: string;
  displayName: string;
}

/**
 * The rental customer record of a user account, in the booking's transaction: the linked one (one statement, the
 * usual case), else the record with the account's e-mail (then linked), else a new one named from the profile.
 */
export async function customerOfAccount(tx: Db, u: CustomerAccount): Promise<CustomerRow> {
  const linked = await customerByUserId(tx, u.id);
  if (linked) return linked;
  const prof = await profileById(tx, u.id);
  const name = [prof?.first_name, prof?.last_name].filter(Boolean).join(' ') || u.displayName || u.email;
  return linkOrCreateCustomer(tx, { id: u.id, email: u.email, name, phone: prof?.phone ?? '' });
}

export async function resolveCustomer(
  tx: Db,
  id: number | undefined,
  c: { name: string; email: string; phone?: string } | undefined,
): Promise<CustomerRow> {
  if (id !== undefined) {
    const row = await customerById(tx, id);
    if (!row) throw invalidField('customer_id', `Customer ${id} does not exist.`);
    return row;
  }
  if (!c) throw invalidField('customer', 'Give customer_id or customer {name, email}.');
  checkEmail(c.email);
  return (
    (await customerByEmail(tx, c.email)) ??
    upsertCustomerByEmail(tx, { name: c.name.trim(), email: c.email.trim(), phone: c.phone ?? '' })
  );
}
