import { sql } from 'drizzle-orm';
import type { Db } from '../../src/platform/db/types.js';

/**
 * Moves the clock `ms` forward for these bookings (all when `ids` is omitted), no sleeping. The app has no clock
 * of its own to move: payment deadlines are compared with the database's now() (the lapse and reminder statements,
 * and the trigger that decides whether a booking holds its slot). So the payment clock's instants of the bookings —
 * when they were made, their deadline, their reminder — move back by `ms`: to them, now is `ms` later. Their rental
 * period stays where it is (the bookings in tests pick up years ahead; moving periods could trip the overlap guard).
 */
export async function moveClock(db: Db, ms: number, ids?: readonly number[]): Promise<void> {
  const by = sql`make_interval(secs => ${ms / 1000})`;
  await db.execute(
    sql`UPDATE rental_bookings SET created_at = created_at - ${by},
      payment_deadline = payment_deadline - ${by}, payment_reminded_at = payment_reminded_at - ${by}
      ${ids ? sql`WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[])` : sql``}`,
  );
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
