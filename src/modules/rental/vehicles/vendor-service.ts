import type { Platform } from '../../../platform/context.js';
import type { AuthUser } from '../../../platform/auth/types.js';
import { toDate, type Db } from '../../../platform/db/types.js';
import { catalogueChanged } from '../catalogue.js';
import { invalidField, RentalErrors, vehicleNotFound } from '../errors.js';
import { recordVendorAudit, type VendorAuditEvent } from '../ledger/audit.js';
import { lockVendorMoney } from '../ledger/income-repo.js';
import {
  applyWithdrawalPenalty,
  monthlyAverageIncome,
  penaltyAmount,
  penaltyRate,
  withdrawalCount,
} from '../ledger/penalty.js';
import { recomputeReliability } from '../ledger/score.js';
import { marketplaceSettingsIn } from '../ledger/settings.js';
import { locationById } from '../locations/repo.js';
import { insertVehicle, updateVehicle } from './repo.js';
import type { VehicleUpdate } from './schema.js';
import {
  activeBookingCount,
  insertListing,
  listingById,
  listListingsIn,
  listOwnListings,
  ownListing,
  recordReview,
  setLifecycle,
  waitingListingById,
  waitingListingCount,
  type Lifecycle,
  type ListingRow,
  type WaitingListingRow,
} from './vendor-repo.js';
import { deferPenalty, openReportFor } from '../vendors/reports/repo.js';
import { vendorById } from '../vendors/repo.js';
import { reviewMailInTransaction } from '../vendors/review-mails.js';

export type { ListingRow, WaitingListingRow } from './vendor-repo.js';

/** Lifecycle moves a vendor may make (reference §2.14); approval of pending_review is the admin's. */
const MOVES: Record<
  'pause' | 'resume' | 'withdraw' | 'relist',
  { from: Lifecycle[]; to: Lifecycle; event: VendorAuditEvent }
> = {
  pause: { from: ['active'], to: 'paused', event: 'vehicle_paused' },
  resume: { from: ['paused'], to: 'active', event: 'vehicle_resumed' },
  withdraw: { from: ['pending_review', 'active', 'paused', 'expired'], to: 'withdrawn', event: 'vehicle_withdrawn' },
  // back to review, not straight to active: an admin approves the listing again (reference §2.14); a rejected
  // listing, changed by its vendor, goes back the same way
  relist: { from: ['withdrawn', 'rejected'], to: 'pending_review', event: 'vehicle_relisted' },
};

/** Days after a withdrawal before the vehicle can be relisted (reference §2.14 withdrawal cooldown). */
export const RELIST_COOLDOWN_DAYS = 7;

export interface VehicleInput {
  name?: string;
  price_per_day?: number;
  category?: string;
  brand?: string;
  model?: string;
  year?: number | null;
  seats?: number | null;
  transmission?: 'manual' | 'automatic';
  fuel_type?: 'petrol' | 'diesel' | 'hybrid' | 'electric' | 'lpg';
  location_id?: number | null;
  description?: string;
}

const VENDOR_FIELDS = [
  'name',
  'category',
  'brand',
  'model',
  'year',
  'seats',
  'transmission',
  'fuel_type',
  'location_id',
  'description',
] as const;

/**
 * The row values a vendor's input may set: an allow-list, so a property the schema let through by mistake can never
 * reach a column (status, vendor_id, currency, slug, deposit_percent are the platform's).
 */
function fields(b: VehicleInput): VehicleUpdate {
  const out: VehicleUpdate = {};
  for (const k of VENDOR_FIELDS) if (b[k] !== undefined) Object.assign(out, { [k]: b[k] });
  if (b.price_per_day !== undefined) out.price_per_day = b.price_per_day.toFixed(2);
  return out;
}

/** A location the vehicle is at must exist: an unknown id is the caller's mistake (400), not a foreign-key 500. */
async function checkLocation(db: Db, b: VehicleInput): Promise<void> {
  if (b.location_id === undefined || b.location_id === null) return;
  if (!(await locationById(db, b.location_id)))
    throw invalidField('location_id', `location_id ${b.location_id} does not exist.`);
}

/** Only an active vendor acts on its listings (a suspended one reads but cannot change anything). */
export async function activeVendor(db: Db, user: AuthUser): Promise<void> {
  const v = await vendorById(db, user.id);
  if (!v) throw RentalErrors.permissionDenied('Only approved vendors can manage vehicles.');
  if (v.status !== 'active') throw RentalErrors.permissionDenied('Your vendor account is suspended.');
}

async function ownLocked(tx: Db, user: AuthUser, id: number): Promise<ListingRow> {
  const l = await ownListing(tx, user.id, id, true);
  if (!l) throw vehicleNotFound(id);
  return l;
}

/** One of the vendor's own vehicles: another vendor's answers 404, exactly like a missing one. */
export async function ownVehicle(db: Db, userId: number, id: number): Promise<ListingRow> {
  const l = await ownListing(db, userId, id);
  if (!l) throw vehicleNotFound(id);
  return l;
}

/** The vendor's own vehicles, a page of them. */
export function ownVehicles(db: Db, userId: number, limit: number, offset: number) {
  return listOwnListings(db, userId, limit, offset);
}

/**
 * A vendor lists a new vehicle: it waits in pending_review (not bookable) until an admin approves it. In the route's
 * transaction `tx` (its Idempotency-Key commits in it); `catalogueChanged` after the commit.
 */
export async function createVendorVehicle(
  p: Platform,
  tx: Db,
  user: AuthUser,
  b: VehicleInput & { name: string; price_per_day: number },
): Promise<number> {
  await activeVendor(tx, user);
  await checkLocation(tx, b);
  const slug = `${
    b.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'vehicle'
  }-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const v = await insertVehicle(tx, {
    ...fields(b),
    name: b.name,
    slug,
    status: 'inactive',
    vendor_id: user.id,
    currency: p.storeCurrency.code,
  });
  await insertListing(tx, Number(v.id), user.id);
  await recordVendorAudit(tx, {
    vendorId: user.id,
    event: 'vehicle_submitted',
    vehicleId: Number(v.id),
    note: `Vehicle "${b.name}" submitted for review.`,
  });
  return Number(v.id);
}

export async function editVendorVehicle(p: Platform, user: AuthUser, id: number, b: VehicleInput): Promise<void> {
  await p.transaction(async (tx) => {
    await activeVendor(tx, user);
    const l = await ownLocked(tx, user, id);
    if (l.lifecycle === 'withdrawn') throw RentalErrors.stateConflict('A withdrawn vehicle cannot be edited.');
    await checkLocation(tx, b);
    await updateVehicle(tx, id, fields(b));
  });
  await catalogueChanged(p);
}

/** pause | resume | withdraw | relist by the owner; pausing or withdrawing with confirmed/in-progress bookings → 409. */
export async function moveVendorVehicle(
  p: Platform,
  user: AuthUser,
  id: number,
  move: keyof typeof MOVES,
  reason?: string,
): Promise<Lifecycle> {
  const m = MOVES[move];
  await p.transaction(async (tx) => {
    // A withdrawal's penalty tier depends on the vendor's other withdrawals: two at once must not both count
    // themselves as the first. The vendor money lock comes first (before the listing's row lock, as in every
    // money path), so the second waits and counts the first once it has committed.
    if (move === 'withdraw') await lockVendorMoney(tx, user.id);
    await activeVendor(tx, user);
    const l = await ownLocked(tx, user, id);
    if (!m.from.includes(l.lifecycle))
      throw RentalErrors.stateConflict(`A ${l.lifecycle} vehicle cannot be ${m.to}.`, { lifecycle: l.lifecycle });
    if (move === 'relist' && l.lifecycle === 'withdrawn' && l.withdrawn_at !== null) {
      const until = new Date(toDate(l.withdrawn_at).getTime() + RELIST_COOLDOWN_DAYS * 86_400_000);
      if (until.getTime() > Date.now())
        throw RentalErrors.stateConflict(
          `A withdrawn vehicle can be relisted from ${until.toISOString()} (${RELIST_COOLDOWN_DAYS}-day cooldown).`,
          { reason: 'relist_cooldown', relist_at: until.toISOString() },
        );
    }
    if (move === 'pause' || move === 'withdraw') {
      const n = await activeBookingCount(tx, id);
      if (n > 0)
        throw RentalErrors.stateConflict(`The vehicle has ${n} confirmed or in-progress booking(s).`, {
          reason: 'active_bookings_exist',
        });
    }
    await setLifecycle(tx, id, m.to, { reason: reason?.trim() || null });
    await recordVendorAudit(tx, {
      vendorId: user.id,
      event: m.event,
      vehicleId: id,
      note: reason?.trim() ? `${m.to}: ${reason.trim()}` : m.to,
    });
    if (move === 'withdraw') await chargeWithdrawal(p, tx, user.id, id);
    if (move === 'pause' || move === 'withdraw') {
      const s = await marketplaceSettingsIn(tx);
      await recomputeReliability(tx, user.id, move === 'withdraw' ? 'withdraw' : 'pause', id, s.rolling_window_months);
    }
  });
  await catalogueChanged(p);
  return m.to;
}

/**
 * Withdrawal penalty (reference §2.13): the withdrawal is recorded first, so it counts itself — the first in the
 * rolling window costs tier 2 (10 %), any later one tier 3 (25 %) of the 6-month average monthly commission income.
 */
async function chargeWithdrawal(p: Platform, tx: Db, vendorId: number, vehicleId: number): Promise<void> {
  const s = await marketplaceSettingsIn(tx);
  const rate = penaltyRate(await withdrawalCount(tx, vendorId, s.rolling_window_months), s);
  const amount = penaltyAmount(await monthlyAverageIncome(tx, vendorId), rate);
  // an open vehicle_action appeal defers the penalty: captured now, posted only if the appeal is rejected
  if ((await openReportFor(tx, vendorId, 'vehicle_action', vehicleId)) !== null) {
    await deferPenalty(tx, vehicleId, amount);
    await recordVendorAudit(tx, {
      vendorId,
      event: 'penalty_deferred',
      vehicleId,
      amount: amount === 0 ? null : -amount,
      note: `Withdrawal penalty for vehicle ${vehicleId} deferred: an appeal is open.`,
    });
    return;
  }
  await applyWithdrawalPenalty(tx, vendorId, vehicleId, amount, p.storeCurrency.code, new Date().toISOString());
}

/**
 * An administrator decides on a pending listing: approved, it becomes active and bookable; rejected (a reason is
 * required), it stays off the catalogue with the reason for the vendor to read. The vendor is mailed in the same
 * transaction; a listing already decided (or no longer pending) → 409.
 */
export async function decideVendorVehicle(
  p: Platform,
  admin: AuthUser,
  id: number,
  decision: 'approve' | 'reject',
  reason?: string,
): Promise<Lifecycle> {
  const why = reason?.trim() ?? '';
  if (decision === 'reject' && !why) throw invalidField('reason', 'A rejection reason is required.');
  const to: Lifecycle = decision === 'approve' ? 'active' : 'rejected';
  const wake = await p.transaction(async (tx) => {
    const l = await listingById(tx, id, true);
    if (!l) throw vehicleNotFound(id);
    if (l.lifecycle !== 'pending_review')
      throw RentalErrors.stateConflict(
        `Vehicle ${id} is ${l.lifecycle}; only a pending_review listing can be ${decision === 'approve' ? 'approved' : 'rejected'}.`,
        { lifecycle: l.lifecycle },
      );
    await setLifecycle(tx, id, to);
    await recordReview(tx, id, admin.id, decision === 'reject' ? why : null);
    await recordVendorAudit(tx, {
      vendorId: Number(l.vendor_id),
      event: decision === 'approve' ? 'vehicle_approved' : 'vehicle_rejected',
      vehicleId: id,
      adminUserId: admin.id,
      note: decision === 'approve' ? 'Listing approved.' : `Listing rejected: ${why}`,
    });
    const w = await waitingListingById(tx, id);
    return reviewMailInTransaction(
      tx,
      p,
      decision === 'approve' ? 'listing_approved' : 'listing_rejected',
      {
        to: w?.vendor_email ?? '',
        name: w?.vendor_name ?? '',
        subject: ['Vehicle', l.name],
        reason: decision === 'reject' ? why : null,
        decidedAt: new Date(),
      },
      `vehicle:${id}`,
    );
  });
  await wake?.();
  await catalogueChanged(p);
  return to;
}

/** The listings waiting for an administrator, oldest first. */
export function waitingListings(db: Db, limit: number, offset: number) {
  return listListingsIn(db, 'pending_review', limit, offset);
}

/** One vendor listing as the operator sees it (any lifecycle). */
export async function listingForReview(db: Db, id: number): Promise<WaitingListingRow> {
  const l = await waitingListingById(db, id);
  if (!l) throw vehicleNotFound(id);
  return l;
}

export { waitingListingCount };
