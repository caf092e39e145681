import type { Db } from '../../../../platform/db/types.js';
import { RentalErrors } from '../../errors.js';
import { addDays, localToUtc } from '../../time.js';
import { iso } from '../../views.js';
import { daysInclusive, isYmd } from '../../shared/dates.js';
import * as repo from './repo.js';
import { blocksOverlapping } from './blocks.js';
import { DEFAULT_VEHICLE_LIMIT, MAX_WINDOW_DAYS } from './schemas.js';

export interface PlannerContext {
  db: Db;
  timezone: string;
  bufferMinutes: number;
}

export interface PlannerInput {
  from: string;
  to: string;
  location?: number;
  category?: string;
  vendor?: number;
  closed?: boolean;
  payment_due?: boolean;
  limit?: number;
}

/**
 * The window [from 00:00, to+1 00:00) in the store time zone as UTC instants: a local day is 23 or 25 hours
 * across a DST change, so each boundary is converted on its own. Bad date → 400 INVALID_PARAMS; from after
 * to, or more than MAX_WINDOW_DAYS days → 400 INVALID_DATE_RANGE.
 */
export function parseWindow(from: string, to: string, timezone: string): { start: Date; end: Date; days: number } {
  for (const [name, v] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (!isYmd(v))
      throw RentalErrors.invalidParams(`${name} must be a date written YYYY-MM-DD.`, {
        params: { [name]: 'expected YYYY-MM-DD' },
      });
  }
  if (from > to) throw RentalErrors.invalidDateRange('from must not be after to.', { from, to });
  const days = daysInclusive(from, to);
  if (days > MAX_WINDOW_DAYS)
    throw RentalErrors.invalidDateRange(`The window is too long: at most ${MAX_WINDOW_DAYS} days.`, {
      from,
      to,
      days,
      max_days: MAX_WINDOW_DAYS,
    });
  return { start: localToUtc(from, '00:00', timezone), end: localToUtc(addDays(to, 1), '00:00', timezone), days };
}

/** Vehicles (filtered, capped) and their bookings overlapping the window, plus the filter choices: one answer per window. */
export async function planner(ctx: PlannerContext, q: PlannerInput) {
  const w = parseWindow(q.from, q.to, ctx.timezone);
  const filter = { location: q.location, category: q.category, vendor: q.vendor };
  const [vehicles, filters] = await Promise.all([
    repo.vehicles(ctx.db, filter, q.limit ?? DEFAULT_VEHICLE_LIMIT),
    repo.filterOptions(ctx.db),
  ]);
  const bookings = await repo.bookingsOverlapping(
    ctx.db,
    vehicles.map((v) => v.id),
    w.start,
    w.end,
    q.closed ?? false,
    q.payment_due ?? false,
  );
  const blocks = await blocksOverlapping(
    ctx.db,
    vehicles.map((v) => v.id),
    { from: q.from, to: q.to, start: w.start, end: w.end },
    ctx.timezone,
  );
  const total = vehicles[0]?.total ?? 0;
  return {
    from: q.from,
    to: q.to,
    timezone: ctx.timezone,
    window_start: w.start.toISOString(),
    window_end: w.end.toISOString(),
    buffer_minutes: ctx.bufferMinutes,
    vehicles: vehicles.map((v) => ({
      id: v.id,
      name: v.name,
      category: v.category,
      status: v.status,
      location_id: v.location_id,
      location_name: v.location_name,
      vendor_id: v.vendor_id,
      vendor_name: v.vendor_name,
    })),
    vehicles_total: total,
    vehicles_more: total - vehicles.length,
    bookings: bookings.map((b) => ({
      id: b.id,
      reference: b.reference,
      vehicle_id: b.vehicle_id,
      kind: b.kind,
      status: b.status,
      customer_name: b.customer_name,
      pickup_at: iso(b.pickup_at),
      return_at: iso(b.return_at),
      holds_slot: b.holds_slot,
      hold_expires_at:
        (b.status === 'pending_payment' || b.status === 'pending') && b.payment_deadline !== null
          ? iso(b.payment_deadline)
          : null,
      payment_status: b.payment_status,
      payment_due: b.payment_due,
      buffer_minutes: b.buffer_minutes,
    })),
    blocks,
    filters,
  };
}
