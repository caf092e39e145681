import { sql, type SQL } from 'drizzle-orm';
import { announceOnCommit } from '../../../platform/db/announce.js';
import { rowsPrepared } from '../../../platform/db/prepared.js';
import { sqlStateOf } from '../../../platform/db/sqlstate.js';
import { one, rows, type Db } from '../../../platform/db/types.js';
import { insertManyParts, insertParts, setClause, whereAll } from '../sqlx.js';
import type { CustomerRow } from '../customers/repo.js';
import type { VehicleRow } from '../vehicles/repo.js';
import type { BookingInsert, BookingUpdate, PaymentStatus } from './schema.js';
import type { BookingStatus } from './status.js';

export interface BookingRow {
  id: string | number;
  reference: string;
  vehicle_id: string | number;
  customer_id: string | number | null;
  customer_name: string;
  customer_email: string;
  customer_phone: string;
  kind: 'rental' | 'transfer';
  transfer_route_id: string | number | null;
  transfer_origin: string | null;
  transfer_destination: string | null;
  passengers: number | null;
  pickup_location_id: string | number | null;
  return_location_id: string | number | null;
  pickup_at: string;
  return_at: string;
  days: number;
  price_per_day: string;
  net_price: string;
  addons_total: string;
  tax: string;
  total: string;
  deposit: string;
  remaining: string;
  currency: string;
  addons: unknown;
  breakdown: unknown;
  payment_status: PaymentStatus;
  payment_method: string | null;
  payment_deadline: string | null;
  /** Set by code when it cancels a booking (migration 0540): payment_deadline_passed | late_payment_slot_taken. */
  cancel_reason?: string | null;
  status: BookingStatus;
  notes: string;
  source: string;
  created_at: string;
  updated_at: string;
}

/**
 * First booking that holds the vehicle between `from` and `to` (buffer already applied by the caller):
 * confirmed / in_progress always, pending_payment / pending until their payment deadline; or a block of the vehicle
 * (vehicles/block-repo.ts: its id negated).
 * Uses the (vehicle_id, pickup_at, return_at, status) index.
 */
export async function findOverlap(
  db: Db,
  vehicleId: number,
  from: Date,
  to: Date,
  excludeId = 0,
): Promise<{ id: string } | undefined> {
  // a hot read (the create pre-check's confirmation of a "booked"): prepared once per connection outside a transaction
  return (
    await rowsPrepared<{ id: string }>(
      db,
      sql`SELECT id FROM rental_bookings
    WHERE vehicle_id = ${vehicleId} AND pickup_at < ${to.toISOString()}::timestamptz AND return_at > ${from.toISOString()}::timestamptz
      AND id <> ${excludeId}
      AND status IN ('pending_payment', 'pending', 'confirmed', 'in_progress')
      AND (status IN ('confirmed', 'in_progress')
           OR (status IN ('pending_payment', 'pending') AND (payment_deadline IS NULL OR payment_deadline > now())))
    UNION ALL
    SELECT -id FROM rental_vehicle_blocks
    WHERE vehicle_id = ${vehicleId} AND starts_at < ${to.toISOString()}::timestamptz AND ends_at > ${from.toISOString()}::timestamptz
    LIMIT 1`,
    )
  )[0];
}

export async function bookingById(db: Db, id: number, forUpdate = false): Promise<BookingRow | undefined> {
  return one<BookingRow>(
    db,
    sql`SELECT * FROM rental_bookings WHERE id = ${id} ${forUpdate ? sql`FOR UPDATE` : sql``}`,
  );
}

/**
 * Bus topic of the holding index (availability/holding-index.ts): every write that can change which slots a vehicle
 * holds announces, after its commit, each booking it changed as "vehicle:booking" (`holdKey`), or a whole vehicle as
 * "vehicle"; "*" = reload everything.
 */
export const HOLDS_TOPIC = 'rental.holds';

export function holdKey(b: { vehicle_id: number | string; id: number | string }): string {
  return `${b.vehicle_id}:${b.id}`;
}

export async function insertBooking(db: Db, f: BookingInsert): Promise<BookingRow> {
  const { cols, vals } = insertParts(f);
  const b = (await one<BookingRow>(db, sql`INSERT INTO rental_bookings (${cols}) VALUES (${vals}) RETURNING *`))!;
  announceOnCommit(db, HOLDS_TOPIC, [holdKey(b)]);
  return b;
}

/** Inserts many bookings in one statement (demo data: one round trip instead of hundreds). */
export async function insertBookings(db: Db, fs: readonly BookingInsert[]): Promise<void> {
  if (!fs.length) return;
  const { cols, vals } = insertManyParts(fs);
  await db.execute(sql`INSERT INTO rental_bookings (${cols}) VALUES ${vals}`);
  announceOnCommit(db, HOLDS_TOPIC, new Set(fs.map((f) => String(f.vehicle_id))));
}

/** (No caller moves a booking to another vehicle; one that did would have to announce the old vehicle too.) */
export async function updateBooking(db: Db, id: number, f: BookingUpdate): Promise<BookingRow | undefined> {
  const b = await one<BookingRow>(db, sql`UPDATE rental_bookings SET ${setClause(f)} WHERE id = ${id} RETURNING *`);
  if (b) announceOnCommit(db, HOLDS_TOPIC, [holdKey(b)]);
  return b;
}

/** A booking under way (waiting, confirmed, running) whose payment is not complete. */
export const PAYMENT_DUE = sql`status IN ('pending_payment', 'pending', 'confirmed', 'in_progress') AND payment_status IN ('unpaid', 'deposit_paid', 'partially_paid')`;

export interface BookingFilter {
  status?: string;
  vehicle_id?: number;
  customer_id?: number;
  kind?: string;
  pickup_from?: Date;
  pickup_to?: Date;
  search?: string;
  /** Bookings still under way whose payment is not complete (issue 35.1's "payment due"). */
  payment_due?: boolean;
}

export async function listBookings(
  db: Db,
  f: BookingFilter,
  limit: number,
  offset: number,
): Promise<{ items: BookingRow[]; total: number }> {
  const c: SQL[] = [];
  if (f.status) c.push(sql`status = ${f.status}`);
  if (f.payment_due) c.push(PAYMENT_DUE);
  if (f.vehicle_id !== undefined) c.push(sql`vehicle_id = ${f.vehicle_id}`);
  if (f.customer_id !== undefined) c.push(sql`customer_id = ${f.customer_id}`);
  if (f.kind) c.push(sql`kind = ${f.kind}`);
  if (f.pickup_from) c.push(sql`pickup_at >= ${f.pickup_from.toISOString()}::timestamptz`);
  if (f.pickup_to) c.push(sql`pickup_at < ${f.pickup_to.toISOString()}::timestamptz`);
  if (f.search)
    c.push(
      sql`(reference ILIKE ${'%' + f.search + '%'} OR customer_name ILIKE ${'%' + f.search + '%'} OR customer_email ILIKE ${'%' + f.search + '%'})`,
    );
  const w = whereAll(c);
  const items = await rows<BookingRow>(
    db,
    sql`SELECT * FROM rental_bookings ${w} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  const t = await one<{ n: string }>(db, sql`SELECT count(*) AS n FROM rental_bookings ${w}`);
  return { items, total: Number(t?.n ?? 0) };
}

/**
 * Releases pending holds past their payment deadline (the row trigger recomputes `holds_slot` on any
 * write; see migration 0500): for one vehicle (lazily, under its lock) or all of them (the expiry job).
 */
export async function releaseLapsedHolds(db: Db, vehicleId?: number): Promise<number> {
  const v = vehicleId === undefined ? sql`` : sql`AND vehicle_id = ${vehicleId}`;
  const r = await rows<{ vehicle_id: string; id: string }>(
    db,
    sql`UPDATE rental_bookings SET updated_at = updated_at
    WHERE holds_slot AND status IN ('pending_payment', 'pending') AND payment_deadline <= now() ${v} RETURNING vehicle_id, id`,
  );
  announceOnCommit(db, HOLDS_TOPIC, r.map(holdKey));
  return r.length;
}

/**
 * The vehicle's lock for a new booking, noting in the same round trip whether any of its pending bookings is past
 * its payment deadline (then the caller sweeps them first). The note is read in this statement's snapshot, taken
 * before the lock was granted: a booking that lapsed meanwhile only makes the sweep run needlessly, and a hold
 * created meanwhile has its deadline ahead.
 */
export async function lockVehicleForBooking(
  tx: Db,
  vehicleId: number,
  accountId: number | null = null,
): Promise<(VehicleRow & { has_lapsed_holds: boolean; linked_customer: CustomerRow | null }) | undefined> {
  // the booking account's customer record rides along (one round trip less for a customer's booking)
  const linked =
    accountId === null
      ? sql`NULL::jsonb`
      : sql`(SELECT to_jsonb(c) FROM rental_customers c WHERE c.user_id = ${accountId} ORDER BY c.id LIMIT 1)`;
  return one<VehicleRow & { has_lapsed_holds: boolean; linked_customer: CustomerRow | null }>(
    tx,
    sql`SELECT v.*, EXISTS (SELECT 1 FROM rental_bookings b
      WHERE b.vehicle_id = v.id AND b.status IN ('pending_payment', 'pending') AND b.payment_deadline <= now()
        AND (b.holds_slot OR (b.status = 'pending_payment' AND b.payment_status = 'unpaid'))) AS has_lapsed_holds,
      ${linked} AS linked_customer
    FROM rental_vehicles v WHERE v.id = ${vehicleId} FOR UPDATE OF v`,
  );
}

export const EXPIRED_REASON =
  'The payment deadline passed before the payment arrived; the booking was cancelled and the vehicle released.';

/**
 * Cancels unpaid pending_payment bookings past their payment deadline (for one vehicle, or all), noting the
 * reason; returns the cancelled rows so the caller can emit their events and mail the customers.
 */
export async function cancelLapsedUnpaid(db: Db, vehicleId?: number): Promise<BookingRow[]> {
  const v = vehicleId === undefined ? sql`` : sql`AND vehicle_id = ${vehicleId}`;
  const cancelled = await rows<BookingRow>(
    db,
    sql`UPDATE rental_bookings SET status = 'cancelled', cancel_reason = 'payment_deadline_passed',
      notes = CASE WHEN notes = '' THEN ${EXPIRED_REASON} ELSE notes || E'\n' || ${EXPIRED_REASON} END, updated_at = now()
    WHERE status = 'pending_payment' AND payment_status = 'unpaid' AND payment_deadline <= now() ${v} RETURNING *`,
  );
  announceOnCommit(db, HOLDS_TOPIC, cancelled.map(holdKey));
  return cancelled;
}

/** Is this (driver or Drizzle-wrapped) error the exclusion constraint refusing an overlap (SQLSTATE 23P01)? */
export function isOverlapViolation(err: unknown): boolean {
  return sqlStateOf(err) === '23P01';
}

/** Names of what a booking points at (the vehicle, the pick-up and return locations), for its detail view. */
export interface BookingRefsRow {
  vehicle_name: string | null;
  pickup_location_name: string | null;
  return_location_name: string | null;
}

export async function bookingRefs(db: Db, b: BookingRow): Promise<BookingRefsRow> {
  const r = await one<BookingRefsRow>(
    db,
    sql`SELECT (SELECT name FROM rental_vehicles WHERE id = ${b.vehicle_id}) AS vehicle_name,
               (SELECT name FROM rental_locations WHERE id = ${b.pickup_location_id}) AS pickup_location_name,
               (SELECT name FROM rental_locations WHERE id = ${b.return_location_id}) AS return_location_name`,
  );
  return r ?? { vehicle_name: null, pickup_location_name: null, return_location_name: null };
}

export interface BookingPaymentRow {
  id: string | number;
  provider: string;
  amount: string;
  currency: string;
  status: string;
  refunded_amount: string;
  /** A desk payment's method and reference (migration 0685); null for a provider's. */
  method: string | null;
  reference: string | null;
  created_at: string;
}

export async function paymentsOfBooking(db: Db, bookingId: number): Promise<BookingPaymentRow[]> {
  return rows<BookingPaymentRow>(
    db,
    sql`SELECT id, provider, amount::text AS amount, currency, status, refunded_amount::text AS refunded_amount, method, reference, created_at
        FROM rental_payments WHERE booking_id = ${bookingId} ORDER BY created_at, id`,
  );
}

export interface BookingRefundRow {
  id: string | number;
  payment_id: string | number;
  amount: string;
  currency: string;
  reason: string;
  status: string;
  created_at: string;
  done_at: string | null;
}

export async function refundsOfBooking(db: Db, bookingId: number): Promise<BookingRefundRow[]> {
  return rows<BookingRefundRow>(
    db,
    sql`SELECT id, payment_id, amount::text AS amount, currency, reason, status, created_at, done_at
        FROM rental_refunds WHERE booking_id = ${bookingId} ORDER BY created_at, id`,
  );
}

export interface BookingLineRow {
  kind: string;
  code: string | null;
  description: string;
  amount: string;
  quantity: number;
}

/** The order lines of a booking made through the customer journey (none for bookings made by an operator). */
export async function orderLinesOfBooking(db: Db, bookingId: number): Promise<BookingLineRow[]> {
  return rows<BookingLineRow>(
    db,
    sql`SELECT l.kind, l.code, l.description, l.amount::text AS amount, l.quantity
        FROM rental_order_lines l JOIN rental_orders o ON o.id = l.order_id
        WHERE o.booking_id = ${bookingId} ORDER BY l.id`,
  );
}
