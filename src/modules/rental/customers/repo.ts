import { sql } from 'drizzle-orm';
import { sqlStateOf } from '../../../platform/db/sqlstate.js';
import { one, rows as rowsOf, type Db } from '../../../platform/db/types.js';
import { insertManyParts, insertParts, setClause } from '../sqlx.js';
import type { CustomerInsert, CustomerUpdate } from './schema.js';

export interface CustomerRow {
  id: string | number;
  name: string;
  email: string;
  phone: string;
  address: string;
  user_id: string | number | null;
  created_at: string;
  updated_at: string;
}

export async function customerById(db: Db, id: number): Promise<CustomerRow | undefined> {
  return one<CustomerRow>(db, sql`SELECT * FROM rental_customers WHERE id = ${id}`);
}

export async function customerByUserId(db: Db, userId: number): Promise<CustomerRow | undefined> {
  return one<CustomerRow>(db, sql`SELECT * FROM rental_customers WHERE user_id = ${userId} ORDER BY id LIMIT 1`);
}

/** Links the account to the customer record with its e-mail, else creates one (an account's first booking). */
export async function linkOrCreateCustomer(
  db: Db,
  u: { id: number; email: string; name: string; phone: string },
): Promise<CustomerRow> {
  const byMail = await one<CustomerRow>(
    db,
    sql`UPDATE rental_customers SET user_id = ${u.id}, updated_at = now()
    WHERE lower(email) = lower(${u.email}) AND user_id IS NULL RETURNING *`,
  );
  if (byMail) return byMail;
  return (await one<CustomerRow>(
    db,
    sql`INSERT INTO rental_customers (name, email, phone, user_id)
    VALUES (${u.name}, ${u.email}, ${u.phone}, ${u.id}) ON CONFLICT (lower(email)) DO UPDATE SET updated_at = now() RETURNING *`,
  ))!;
}

export async function customerByEmail(db: Db, email: string): Promise<CustomerRow | undefined> {
  return one<CustomerRow>(db, sql`SELECT * FROM rental_customers WHERE lower(email) = lower(${email})`);
}

export async function insertCustomer(db: Db, f: CustomerInsert): Promise<CustomerRow> {
  const { cols, vals } = insertParts(f);
  return (await one<CustomerRow>(db, sql`INSERT INTO rental_customers (${cols}) VALUES (${vals}) RETURNING *`))!;
}

/** Inserts many customers in one statement; returns them in the order given. */
export async function insertCustomers(db: Db, fs: readonly CustomerInsert[]): Promise<CustomerRow[]> {
  if (!fs.length) return [];
  const { cols, vals } = insertManyParts(fs);
  const rows = await rowsOf<CustomerRow>(db, sql`INSERT INTO rental_customers (${cols}) VALUES ${vals} RETURNING *`);
  const byEmail = new Map(rows.map((r) => [r.email, r]));
  return fs.map((f) => byEmail.get(f.email)!);
}

export async function updateCustomer(db: Db, id: number, f: CustomerUpdate): Promise<CustomerRow | undefined> {
  return one<CustomerRow>(db, sql`UPDATE rental_customers SET ${setClause(f)} WHERE id = ${id} RETURNING *`);
}

export async function emailTaken(db: Db, email: string, exceptId = 0): Promise<boolean> {
  return (
    (await one(db, sql`SELECT 1 FROM rental_customers WHERE lower(email) = lower(${email}) AND id <> ${exceptId}`)) !==
    undefined
  );
}

/** Inserts unless a customer with this e-mail exists (case-insensitive); returns the row either way. */
export async function upsertCustomerByEmail(
  db: Db,
  f: { name: string; email: string; phone: string },
): Promise<CustomerRow> {
  const ins = await one<CustomerRow>(
    db,
    sql`INSERT INTO rental_customers (name, email, phone) VALUES (${f.name}, ${f.email}, ${f.phone})
    ON CONFLICT ((lower(email))) DO NOTHING RETURNING *`,
  );
  return ins ?? (await customerByEmail(db, f.email))!;
}

/** A unique-constraint violation (SQLSTATE 23505) from either driver. */
export const isUniqueViolation = (e: unknown): boolean => sqlStateOf(e) === '23505';
/** A foreign-key violation (SQLSTATE 23503) from either driver. */
export const isForeignKeyViolation = (e: unknown): boolean => sqlStateOf(e) === '23503';

export async function userExists(db: Db, id: number): Promise<boolean> {
  return (await one(db, sql`SELECT 1 FROM rova_users WHERE id = ${id}`)) !== undefined;
}
