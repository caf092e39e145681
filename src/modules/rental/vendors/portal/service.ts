import type { Platform } from '../../../../platform/context.js';
import type { AuthUser } from '../../../../platform/auth/types.js';
import { toDate } from '../../../../platform/db/types.js';
import { invalidField, RentalErrors, vehicleNotFound } from '../../errors.js';
import { fromMinor } from '../../ledger/money.js';
import {
  monthlyAverageIncome,
  penaltyAmount,
  penaltyRate,
  reliabilityScore,
  withdrawalCount,
} from '../../ledger/penalty.js';
import { scoreInputs } from '../../ledger/score.js';
import { marketplaceSettings } from '../../ledger/settings.js';
import { money } from '../../money.js';
import type { PageRequest } from '../../paging.js';
import { openReportFor } from '../reports/repo.js';
import { vendorBookings, type VendorBookingFilter, type VendorBookingRow } from './repo.js';
import { ownListing } from '../../vehicles/vendor-repo.js';
import { vendorById } from '../repo.js';

/** Statuses a vendor may still cancel (the booking state machine allows `cancelled` from them). */
const CANCELLABLE = new Set(['draft', 'pending_payment', 'pending', 'confirmed', 'in_progress', 'no_show']);

function bookingView(b: VendorBookingRow) {
  return {
    id: Number(b.id),
    reference: b.reference,
    vehicle_id: Number(b.vehicle_id),
    vehicle_name: b.vehicle_name,
    customer_name: b.customer_name,
    pickup_at: toDate(b.pickup_at).toISOString(),
    return_at: toDate(b.return_at).toISOString(),
    days: Number(b.days),
    total: money(b.total),
    currency: b.currency,
    status: b.status,
    cancelled_by: b.cancelled_by,
    can_cancel: CANCELLABLE.has(b.status),
  };
}

async function ownVendor(p: Platform, user: AuthUser) {
  const v = await vendorById(p.db, user.id);
  if (!v) throw RentalErrors.permissionDenied('Only approved vendors have a vendor account.');
  return v;
}

/** GET /vendor/bookings: bookings of the vendor's own vehicles (customer's name only: no contact data). */
export async function listVendorBookings(p: Platform, user: AuthUser, f: VendorBookingFilter, pg: PageRequest) {
  await ownVendor(p, user);
  const r = await vendorBookings(p.db, user.id, f, pg.limit, pg.offset);
  return { items: r.items.map(bookingView), total: r.total };
}

export type ConsequenceAction = 'pause' | 'withdraw' | 'cancel';

/**
 * What an action would cost, before the vendor confirms it (reference §2.13): the reliability score after it
 * (a pause −2, a withdrawal −10, a cancellation −5, each for the rolling window) and, for a withdrawal, the penalty
 * (10 % of the 6-month average monthly commission income for the first in 12 months, 25 % after; deferred while a
 * vehicle_action report about the vehicle is open). Computed exactly as the action computes it; nothing is written.
 */
export async function actionConsequences(
  p: Platform,
  user: AuthUser,
  action: ConsequenceAction,
  vehicleId: number | undefined,
) {
  const v = await ownVendor(p, user);
  const s = await marketplaceSettings(p);
  const currency = p.storeCurrency.code;
  if (action === 'withdraw') {
    if (vehicleId === undefined) throw invalidField('vehicle_id', 'vehicle_id is required for a withdrawal.');
    if (!(await ownListing(p.db, user.id, vehicleId))) throw vehicleNotFound(vehicleId);
  }
  const inputs = await scoreInputs(p.db, user.id, s.rolling_window_months);
  const next = { ...inputs };
  if (action === 'pause') next.pauses += 1;
  if (action === 'cancel') next.cancellations += 1;
  let penalty = 0;
  let rate = 0;
  let deferred = false;
  if (action === 'withdraw') {
    next.withdrawals += 1;
    rate = penaltyRate((await withdrawalCount(p.db, user.id, s.rolling_window_months)) + 1, s);
    penalty = penaltyAmount(await monthlyAverageIncome(p.db, user.id), rate);
    deferred = (await openReportFor(p.db, user.id, 'vehicle_action', vehicleId!)) !== null;
  }
  return {
    action,
    vehicle_id: vehicleId ?? null,
    reliability_score: v.reliability_score,
    reliability_score_after: reliabilityScore(next),
    penalty: fromMinor(penalty, currency),
    penalty_rate_percent: rate,
    penalty_deferred: deferred,
    currency,
  };
}
