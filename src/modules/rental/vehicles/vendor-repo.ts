import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';

export type Lifecycle = 'pending_review' | 'active' | 'paused' | 'expired' | 'withdrawn' | 'rejected';

export interface ListingRow {
  vehicle_id: string | number;
  vendor_id: string | number;
  lifecycle: Lifecycle;
  withdrawn_at: string | null;
  withdrawal_reason: string | null;
  review_reason: string | null;
  reviewed_at: string | null;
  name: string;
  status: string;
  price_per_day: string;
  currency: string;
  category: string;
  brand: string;
  model: string;
  year: number | null;
  seats: number | null;
  transmission: string;
  fuel_type: string;
  location_id: string | number | null;
  description: string;
  deposit_percent: string | null;
  created_at: string;
  submitted_at: string;
}

const SELECT = sql`SELECT l.vehicle_id, l.vendor_id, l.lifecycle, l.withdrawn_at, l.withdrawal_reason, l.review_reason, l.reviewed_at,
  v.name, v.status, v.price_per_day, v.currency, v.category, v.brand, v.model, v.year, v.seats, v.transmission, v.fuel_type,
  v.location_id, v.description, v.deposit_percent, v.created_at, l.updated_at AS submitted_at
  FROM vendor_listings l JOIN rental_vehicles v ON v.id = l.vehicle_id`;

/** The vendor's own listing, or undefined (another vendor's vehicle is indistinguishable from a missing one). */
export async function ownListing(
  db: Db,
  vendorId: number,
  vehicleId: number,
  forUpdate = false,
): Promise<ListingRow | undefined> {
  return one<ListingRow>(
    db,
    sql`${SELECT} WHERE l.vehicle_id = ${vehicleId} AND l.vendor_id = ${vendorId} ${forUpdate ? sql`FOR UPDATE OF l, v` : sql``}`,
  );
}

export async function listingById(db: Db, vehicleId: number, forUpdate = false): Promise<ListingRow | undefined> {
  return one<ListingRow>(
    db,
    sql`${SELECT} WHERE l.vehicle_id = ${vehicleId} ${forUpdate ? sql`FOR UPDATE OF l, v` : sql``}`,
  );
}

export async function listOwnListings(
  db: Db,
  vendorId: number,
  limit: number,
  offset: number,
): Promise<{ items: ListingRow[]; total: number }> {
  const items = await rows<ListingRow>(
    db,
    sql`${SELECT} WHERE l.vendor_id = ${vendorId} ORDER BY l.vehicle_id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  const n = await one<{ n: string }>(
    db,
    sql`SELECT count(*)::text AS n FROM vendor_listings WHERE vendor_id = ${vendorId}`,
  );
  return { items, total: Number(n?.n ?? 0) };
}

export async function insertListing(db: Db, vehicleId: number, vendorId: number): Promise<void> {
  await db.execute(
    sql`INSERT INTO vendor_listings (vehicle_id, vendor_id, lifecycle) VALUES (${vehicleId}, ${vendorId}, 'pending_review')`,
  );
}

/** Moves the listing and the vehicle's bookable status together (only `active` listings can be booked). */
export async function setLifecycle(
  db: Db,
  vehicleId: number,
  lifecycle: Lifecycle,
  extra: { reason?: string | null } = {},
): Promise<void> {
  const withdrawn = lifecycle === 'withdrawn';
  await db.execute(sql`UPDATE vendor_listings SET lifecycle = ${lifecycle}, updated_at = now(),
      withdrawn_at = ${withdrawn ? sql`now()` : sql`withdrawn_at`}, withdrawal_reason = ${withdrawn ? sql`${extra.reason ?? null}` : sql`withdrawal_reason`},
      -- a new withdrawal starts clean: not excused, no penalty yet (an earlier one keeps its own ledger rows)
      withdrawal_excused = ${withdrawn ? sql`false` : sql`withdrawal_excused`}, deferred_penalty = ${withdrawn ? sql`NULL` : sql`deferred_penalty`},
      penalty_tx_id = ${withdrawn ? sql`NULL` : sql`penalty_tx_id`}
    WHERE vehicle_id = ${vehicleId}`);
  await db.execute(
    sql`UPDATE rental_vehicles SET status = ${lifecycle === 'active' ? 'active' : 'inactive'}, updated_at = now() WHERE id = ${vehicleId}`,
  );
}

/** Confirmed or in-progress bookings of the vehicle (they block pausing and withdrawing). */
export async function activeBookingCount(db: Db, vehicleId: number): Promise<number> {
  const r = await one<{ n: string }>(
    db,
    sql`SELECT count(*)::text AS n FROM rental_bookings WHERE vehicle_id = ${vehicleId} AND status IN ('confirmed', 'in_progress')`,
  );
  return Number(r?.n ?? 0);
}

/** A listing waiting for review, with who listed it and where (the operator's review queue). */
export interface WaitingListingRow extends ListingRow {
  vendor_name: string;
  vendor_email: string;
  location_name: string | null;
}

const WAITING = sql`SELECT w.*, coalesce(nullif(u.display_name, ''), u.login) AS vendor_name, u.email AS vendor_email,
    loc.name AS location_name
  FROM (${SELECT}) w JOIN rova_users u ON u.id = w.vendor_id LEFT JOIN rental_locations loc ON loc.id = w.location_id`;

/** Listings in `lifecycle` (the queue: pending_review), oldest first. */
export async function listListingsIn(
  db: Db,
  lifecycle: Lifecycle,
  limit: number,
  offset: number,
): Promise<{ items: WaitingListingRow[]; total: number }> {
  const items = await rows<WaitingListingRow>(
    db,
    sql`${WAITING} WHERE w.lifecycle = ${lifecycle} ORDER BY w.submitted_at, w.vehicle_id LIMIT ${limit} OFFSET ${offset}`,
  );
  const n = await one<{ n: string }>(
    db,
    sql`SELECT count(*)::text AS n FROM vendor_listings WHERE lifecycle = ${lifecycle}`,
  );
  return { items, total: Number(n?.n ?? 0) };
}

/** One listing with its vendor and location (any lifecycle), for the operator. */
export async function waitingListingById(db: Db, vehicleId: number): Promise<WaitingListingRow | undefined> {
  return one<WaitingListingRow>(db, sql`${WAITING} WHERE w.vehicle_id = ${vehicleId}`);
}

/** How many listings wait for an administrator's decision. */
export async function waitingListingCount(db: Db): Promise<number> {
  const n = await one<{ n: string }>(
    db,
    sql`SELECT count(*)::text AS n FROM vendor_listings WHERE lifecycle = 'pending_review'`,
  );
  return Number(n?.n ?? 0);
}

/** The administrator's decision on the listing, kept for the vendor to read (the reason only on a rejection). */
export async function recordReview(db: Db, vehicleId: number, by: number, reason: string | null): Promise<void> {
  await db.execute(
    sql`UPDATE vendor_listings SET review_reason = ${reason}, reviewed_at = now(), reviewed_by = ${by}, updated_at = now()
      WHERE vehicle_id = ${vehicleId}`,
  );
}
