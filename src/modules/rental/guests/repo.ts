import { sql } from 'drizzle-orm';
import { one, type Db } from '../../../platform/db/types.js';
import type { BookingRow } from '../bookings/repo.js';

export interface GuestCodeRow {
  id: number;
  email: string;
  name: string;
  code_hash: string;
  attempts: number;
  expired: boolean;
  verified: boolean;
}

/** A new code for the address; the address's older codes stop working (only the latest mail's code counts). */
export async function insertCode(
  tx: Db,
  f: { email: string; name: string; codeHash: string; expiresAt: Date },
): Promise<number> {
  await tx.execute(
    sql`UPDATE rental_guest_codes SET expires_at = now() WHERE lower(email) = lower(${f.email}) AND verified_at IS NULL AND expires_at > now()`,
  );
  return (await one<{ id: number }>(
    tx,
    sql`INSERT INTO rental_guest_codes (email, name, code_hash, expires_at)
    VALUES (${f.email}, ${f.name}, ${f.codeHash}, ${f.expiresAt.toISOString()}) RETURNING id::int AS id`,
  ))!.id;
}

export async function setCodeHash(tx: Db, id: number, codeHash: string): Promise<void> {
  await tx.execute(sql`UPDATE rental_guest_codes SET code_hash = ${codeHash} WHERE id = ${id}`);
}

/** The code row, locked for the attempt (two attempts at once are counted one after the other). */
export async function lockCode(tx: Db, id: number): Promise<GuestCodeRow | undefined> {
  return one<GuestCodeRow>(
    tx,
    sql`SELECT id::int AS id, email, name, code_hash, attempts, expires_at <= now() AS expired, verified_at IS NOT NULL AS verified
    FROM rental_guest_codes WHERE id = ${id} FOR UPDATE`,
  );
}

export async function countAttempt(tx: Db, id: number): Promise<void> {
  await tx.execute(sql`UPDATE rental_guest_codes SET attempts = attempts + 1 WHERE id = ${id}`);
}

/** The code was right: it is spent, and the guest pass (hashed) is stored. */
export async function markVerified(tx: Db, id: number, passHash: string, passExpiresAt: Date): Promise<void> {
  await tx.execute(
    sql`UPDATE rental_guest_codes SET verified_at = now(), attempts = attempts + 1, pass_hash = ${passHash},
    pass_expires_at = ${passExpiresAt.toISOString()} WHERE id = ${id}`,
  );
}

/** The verified name and address of a live guest pass. */
export async function guestOfPass(
  db: Db,
  passHash: string,
): Promise<{ id: number; email: string; name: string } | undefined> {
  return one(
    db,
    sql`SELECT id::int AS id, email, name FROM rental_guest_codes WHERE pass_hash = ${passHash} AND pass_expires_at > now()`,
  );
}

export async function bookingByReference(db: Db, reference: string): Promise<BookingRow | undefined> {
  return one<BookingRow>(db, sql`SELECT * FROM rental_bookings WHERE reference = ${reference}`);
}

/** Links issued before this moment are refused (undefined: never revoked). */
export async function revokedBefore(db: Db, bookingId: number): Promise<Date | undefined> {
  const r = await one<{ at: string | Date }>(
    db,
    sql`SELECT revoked_before AS at FROM rental_manage_link_revocations WHERE booking_id = ${bookingId}`,
  );
  return r ? new Date(r.at) : undefined;
}

export async function revokeLinks(db: Db, bookingId: number, before: Date): Promise<void> {
  await db.execute(
    sql`INSERT INTO rental_manage_link_revocations (booking_id, revoked_before) VALUES (${bookingId}, ${before.toISOString()})
    ON CONFLICT (booking_id) DO UPDATE SET revoked_before = EXCLUDED.revoked_before`,
  );
}

/**
 * Signing up later: the customer records with the account's (now verified) address and no account yet are linked to
 * it, so the guest's bookings appear in the account. Answers how many bookings were attached.
 */
export async function attachGuestCustomers(db: Db, userId: number, email: string): Promise<number> {
  const r = await one<{ n: number }>(
    db,
    sql`WITH linked AS (
      UPDATE rental_customers SET user_id = ${userId}, updated_at = now()
      WHERE lower(email) = lower(${email}) AND user_id IS NULL RETURNING id)
    SELECT count(*)::int AS n FROM rental_bookings WHERE customer_id IN (SELECT id FROM linked)`,
  );
  return r?.n ?? 0;
}
