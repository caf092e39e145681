import { sql } from 'drizzle-orm';
import { announceOnCommit } from '../../../platform/db/announce.js';
import { one, rows, type Db } from '../../../platform/db/types.js';
import { HOLDS_TOPIC } from '../bookings/repo.js';

export type BlockReason = 'maintenance' | 'own_use';

/** A vehicle block (migration 0725): whole store-time-zone days [from_date, to_date], as instants [starts_at, ends_at). */
export interface BlockRow {
  id: string | number;
  vehicle_id: string | number;
  from_date: string;
  to_date: string;
  starts_at: string;
  ends_at: string;
  reason: BlockReason;
  note: string;
  created_by: string | number | null;
  created_at: string;
}

const COLS = sql`id, vehicle_id, from_date::text AS from_date, to_date::text AS to_date, starts_at, ends_at, reason, note, created_by, created_at`;

/** The vehicle's blocks, oldest first; with `days`, only those touching [from, to] (dates, inclusive). */
export async function vehicleBlocks(
  db: Db,
  vehicleId: number,
  days?: { from: string; to: string },
): Promise<BlockRow[]> {
  const within = days ? sql`AND to_date >= ${days.from}::date AND from_date <= ${days.to}::date` : sql``;
  return rows<BlockRow>(
    db,
    sql`SELECT ${COLS} FROM rental_vehicle_blocks WHERE vehicle_id = ${vehicleId} ${within} ORDER BY from_date, id`,
  );
}

/** A block of the vehicle overlapping [from, to) (instants), or undefined. */
export async function overlappingBlock(db: Db, vehicleId: number, from: Date, to: Date): Promise<BlockRow | undefined> {
  return one<BlockRow>(
    db,
    sql`SELECT ${COLS} FROM rental_vehicle_blocks WHERE vehicle_id = ${vehicleId}
      AND starts_at < ${to.toISOString()}::timestamptz AND ends_at > ${from.toISOString()}::timestamptz ORDER BY from_date LIMIT 1`,
  );
}

/**
 * The first booking that holds the vehicle between `from` and `to` (findOverlap's rule: confirmed and in progress,
 * pending ones until their payment deadline), with what names it to a person.
 */
export async function holdingBookingBetween(
  db: Db,
  vehicleId: number,
  from: Date,
  to: Date,
): Promise<{ id: string; reference: string; pickup_at: string; return_at: string } | undefined> {
  return one(
    db,
    sql`SELECT id, reference, pickup_at, return_at FROM rental_bookings
    WHERE vehicle_id = ${vehicleId} AND pickup_at < ${to.toISOString()}::timestamptz AND return_at > ${from.toISOString()}::timestamptz
      AND (status IN ('confirmed', 'in_progress')
           OR (status IN ('pending_payment', 'pending') AND (payment_deadline IS NULL OR payment_deadline > now())))
    ORDER BY pickup_at LIMIT 1`,
  );
}

/** The vehicle's bookings that take days of the calendar [from, to) (instants): holding ones and those that ran. */
export async function calendarBookings(
  db: Db,
  vehicleId: number,
  from: Date,
  to: Date,
): Promise<{ id: string; reference: string; status: string; pickup_at: string; return_at: string }[]> {
  return rows(
    db,
    sql`SELECT id, reference, status, pickup_at, return_at FROM rental_bookings
    WHERE vehicle_id = ${vehicleId} AND pickup_at < ${to.toISOString()}::timestamptz AND return_at > ${from.toISOString()}::timestamptz
      AND (status IN ('confirmed', 'in_progress', 'completed')
           OR (status IN ('pending_payment', 'pending') AND (payment_deadline IS NULL OR payment_deadline > now())))
    ORDER BY pickup_at, id`,
  );
}

/**
 * Inserts a block (the caller holds the vehicle's lock). The holding index of every node reloads the vehicle after
 * the commit, as for a booking (a whole-vehicle announcement: blocks are not read by id).
 */
export async function insertBlock(
  tx: Db,
  b: {
    vehicleId: number;
    from: string;
    to: string;
    startsAt: Date;
    endsAt: Date;
    reason: BlockReason;
    note: string;
    createdBy: number;
  },
): Promise<BlockRow> {
  const r = (await one<BlockRow>(
    tx,
    sql`INSERT INTO rental_vehicle_blocks (vehicle_id, from_date, to_date, starts_at, ends_at, reason, note, created_by)
    VALUES (${b.vehicleId}, ${b.from}::date, ${b.to}::date, ${b.startsAt.toISOString()}::timestamptz, ${b.endsAt.toISOString()}::timestamptz,
      ${b.reason}, ${b.note}, ${b.createdBy}) RETURNING ${COLS}`,
  ))!;
  announceOnCommit(tx, HOLDS_TOPIC, [String(b.vehicleId)]);
  return r;
}

/** Deletes a block of the vehicle; undefined when the vehicle has no such block. Announced like insertBlock. */
export async function deleteBlock(tx: Db, vehicleId: number, blockId: number): Promise<BlockRow | undefined> {
  const r = await one<BlockRow>(
    tx,
    sql`DELETE FROM rental_vehicle_blocks WHERE id = ${blockId} AND vehicle_id = ${vehicleId} RETURNING ${COLS}`,
  );
  if (r) announceOnCommit(tx, HOLDS_TOPIC, [String(vehicleId)]);
  return r;
}
