import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../../platform/db/types.js';

/** What a booking keeps of its driver and the terms (checked by the service before it is written). */
export interface DriverRecord {
  driver: { name: string; date_of_birth: string; licence_number: string } | null;
  flight_number: string | null;
  terms_version: string | null;
}

export interface DriverRow {
  name: string | null;
  date_of_birth: string | null;
  licence_number: string | null;
  flight_number: string | null;
  terms_version: string | null;
  terms_accepted_at: string | Date | null;
}

/** In the booking's transaction: the booking's driver, flight and terms acceptance (the time is the database's now). */
export async function insertDriver(tx: Db, bookingId: number, d: DriverRecord): Promise<void> {
  await tx.execute(
    sql`INSERT INTO rental_booking_drivers (booking_id, name, date_of_birth, licence_number, flight_number, terms_version, terms_accepted_at)
        VALUES (${bookingId}, ${d.driver?.name ?? null}, ${d.driver?.date_of_birth ?? null}::date, ${d.driver?.licence_number ?? null},
          ${d.flight_number}, ${d.terms_version}, ${d.terms_version === null ? null : sql`now()`})`,
  );
}

export async function driverOfBooking(db: Db, bookingId: number): Promise<DriverRow | undefined> {
  return one<DriverRow>(
    db,
    sql`SELECT name, to_char(date_of_birth, 'YYYY-MM-DD') AS date_of_birth, licence_number, flight_number, terms_version, terms_accepted_at
        FROM rental_booking_drivers WHERE booking_id = ${bookingId}`,
  );
}

/** Erasure: the driver rows of the customers' bookings go (before the bookings lose their customer id). */
export async function eraseDriversOfCustomers(tx: Db, customerIds: number[]): Promise<number> {
  if (customerIds.length === 0) return 0;
  const r = await rows<{ booking_id: number }>(
    tx,
    sql`DELETE FROM rental_booking_drivers d USING rental_bookings b
        WHERE b.id = d.booking_id AND b.customer_id IN (${sql.join(
          customerIds.map((id) => sql`${id}`),
          sql`, `,
        )}) RETURNING d.booking_id::int AS booking_id`,
  );
  return r.length;
}
