import type { Db } from '../../../platform/db/types.js';
import { delta } from '../shared/delta.js';
import { statusDot, statusLabel } from '../shared/labels.js';
import { money } from '../shared/money.js';
import { pageOf, parsePaging } from '../paging.js';
import * as repo from './repo.js';
import { iso } from '../views.js';

export interface DashboardContext {
  db: Db;
  timezone: string;
  currency: string;
  now: Date;
}

/** KPI cards with month-over-month deltas ("this month" in the store time zone) and the status breakdown. */
export async function stats(ctx: DashboardContext) {
  const [m, v, breakdown] = await Promise.all([
    repo.monthFigures(ctx.db, ctx.timezone, ctx.now),
    repo.vehicleFigures(ctx.db, ctx.timezone, ctx.now),
    repo.statusBreakdown(ctx.db),
  ]);
  return {
    total_bookings: m.total_bookings,
    bookings_this_month: m.bookings_this_month,
    bookings_last_month: m.bookings_last_month,
    revenue: money(m.revenue),
    revenue_this_month: money(m.revenue_this_month),
    revenue_last_month: money(m.revenue_last_month),
    active_vehicles: v.active,
    active_vehicles_last_month: v.active_before_month,
    customers: m.customers_this_month,
    customers_last_month: m.customers_last_month,
    deltas: {
      total_bookings: delta(m.bookings_this_month, m.bookings_last_month),
      revenue: delta(m.revenue_this_month, m.revenue_last_month),
      active_vehicles: delta(v.active, v.active_before_month),
      customers: delta(m.customers_this_month, m.customers_last_month),
    },
    status_breakdown: breakdown.map((r) => ({
      status: r.status,
      label: statusLabel(r.status),
      count: r.count,
      dot: statusDot(r.status),
    })),
    month: m.month,
    timezone: ctx.timezone,
    currency: ctx.currency,
  };
}

/** Newest bookings first (by creation), drafts excluded. */
export async function recentBookings(db: Db, q: { page?: number; per_page?: number }) {
  const p = parsePaging(q);
  const { items, total } = await repo.recentBookings(db, p.limit, p.offset);
  return pageOf(
    items.map((b) => ({
      id: b.id,
      reference: b.reference,
      kind: b.kind,
      status: b.status,
      status_label: statusLabel(b.status),
      customer_id: b.customer_id,
      customer_name: b.customer_name,
      customer_email: b.customer_email,
      vehicle_id: b.vehicle_id,
      vehicle_name: b.vehicle_name,
      pickup_at: iso(b.pickup_at),
      return_at: b.return_at === null ? null : iso(b.return_at),
      total: money(b.total),
      currency: b.currency,
      created_at: iso(b.created_at),
    })),
    total,
    p,
  );
}

/** Upcoming transfer bookings (pickup ≥ now, not cancelled/refunded/no-show/completed/draft), soonest first. */
export async function recentTransfers(db: Db, now: Date, q: { page?: number; per_page?: number }) {
  const p = parsePaging(q);
  const { items, total } = await repo.upcomingTransfers(db, now, p.limit, p.offset);
  return pageOf(
    items.map((t) => ({
      id: t.id,
      reference: t.reference,
      passengers: t.passengers,
      status: t.status,
      status_label: statusLabel(t.status),
      customer_name: t.customer_name,
      vehicle_id: t.vehicle_id,
      vehicle_name: t.vehicle_name,
      origin_id: t.origin_id,
      origin_name: t.origin_name,
      destination_id: t.destination_id,
      destination_name: t.destination_name,
      pickup_at: iso(t.pickup_at),
      total: money(t.total),
      currency: t.currency,
    })),
    total,
    p,
  );
}
