import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../../platform/db/types.js';
import type { BookingRow } from '../repo.js';

/** A booking of the customer's list, with its vehicle's name. */
export type MyBookingRow = BookingRow & { vehicle_name: string | null };

/** The bookings of a signed-in customer: those of the customer records linked to the account. */
const MINE = (userId: number) => sql`customer_id IN (SELECT id FROM rental_customers WHERE user_id = ${userId})`;

/** One page of the customer's bookings, latest pick-up first, and how many there are (optionally one reference). */
export async function myBookingRows(
  db: Db,
  userId: number,
  limit: number,
  offset: number,
  reference?: string,
): Promise<{ items: MyBookingRow[]; total: number }> {
  const where = reference === undefined ? MINE(userId) : sql`${MINE(userId)} AND reference = ${reference}`;
  const items = await rows<MyBookingRow>(
    db,
    sql`SELECT *, (SELECT name FROM rental_vehicles v WHERE v.id = rental_bookings.vehicle_id) AS vehicle_name FROM rental_bookings WHERE ${where} ORDER BY pickup_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  const t = await one<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM rental_bookings WHERE ${where}`);
  return { items, total: t?.n ?? 0 };
}

/** The booking when it is the customer's; undefined when it is missing or another customer's. */
export function myBookingRow(db: Db, userId: number, id: number): Promise<BookingRow | undefined> {
  return one<BookingRow>(db, sql`SELECT * FROM rental_bookings WHERE id = ${id} AND ${MINE(userId)}`);
}

/** Sets a booking's payment status (the customer's cancellation, under the booking lock). */
export async function setBookingPaymentStatus(tx: Db, id: number, paymentStatus: string): Promise<void> {
  await tx.execute(
    sql`UPDATE rental_bookings SET payment_status = ${paymentStatus}, updated_at = now() WHERE id = ${id}`,
  );
}
