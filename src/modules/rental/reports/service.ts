import { Decimal } from 'decimal.js';
import type { Db } from '../../../platform/db/types.js';
import { parseRange, type DateRange } from '../shared/dates.js';
import { statusLabel } from '../shared/labels.js';
import { money, percent, ratio } from '../shared/money.js';
import * as repo from './repo.js';

export type ReportName = 'overview' | 'revenue' | 'bookings' | 'vehicles' | 'customers';

export interface ReportContext {
  db: Db;
  timezone: string;
  currency: string;
  now: Date;
}

interface Header {
  report: ReportName;
  start_date: string;
  end_date: string;
  days: number;
  timezone: string;
  currency: string;
}

function header(report: ReportName, range: DateRange, ctx: ReportContext): Header {
  return {
    report,
    start_date: range.start,
    end_date: range.end,
    days: range.days,
    timezone: ctx.timezone,
    currency: ctx.currency,
  };
}

const scopeOf = (range: DateRange, ctx: ReportContext): repo.Scope => ({ range, tz: ctx.timezone });

/** Revenue summary from the range totals (one SQL aggregate shared by the overview's parts). */
function revenueSummary(t: repo.BookingTotals, range: DateRange) {
  return {
    total: money(t.revenue),
    avg_daily: ratio(t.revenue, range.days),
    bookings: t.revenue_bookings,
    cancelled_total: money(t.cancelled_total),
  };
}

function bookingsSummary(t: repo.BookingTotals) {
  return {
    total: t.total,
    cancelled: t.cancelled,
    cancellation_rate: percent(t.cancelled, t.total),
    conversion_rate: percent(t.converted, t.total),
    avg_duration_days:
      t.avg_days === null ? 0 : Number(new Decimal(t.avg_days).toDecimalPlaces(1, Decimal.ROUND_HALF_UP).toFixed(1)),
  };
}

async function vehiclesPart(ctx: ReportContext, range: DateRange, totalsOf: Promise<repo.BookingTotals>) {
  const s = scopeOf(range, ctx);
  const [top, occ, cats, fleet, totals] = await Promise.all([
    repo.topVehicles(ctx.db, s),
    repo.occupancy(ctx.db, s),
    repo.categoryPerformance(ctx.db, s),
    repo.fleetCounts(ctx.db),
    totalsOf,
  ]);
  const bookedDays = occ.reduce((acc, r) => acc.plus(r.booked_days), new Decimal(0));
  const summary = {
    total_vehicles: fleet.total,
    active_vehicles: fleet.active,
    vehicles_booked: occ.length,
    avg_occupancy_rate: percent(bookedDays.toString(), fleet.total * range.days, 1),
    total_revenue: money(totals.revenue),
  };
  return {
    top_vehicles: top.map((v) => ({
      vehicle_id: v.vehicle_id,
      name: v.name,
      category: v.category,
      bookings: v.bookings,
      revenue: money(v.revenue),
      avg_revenue_per_booking: ratio(v.revenue, v.bookings),
    })),
    occupancy: occ.slice(0, 10).map((o) => ({
      vehicle_id: o.vehicle_id,
      name: o.name,
      booked_days: Number(new Decimal(o.booked_days).toDecimalPlaces(1, Decimal.ROUND_HALF_UP).toFixed(1)),
      total_days: range.days,
      occupancy_rate: percent(o.booked_days, range.days, 1),
    })),
    category_performance: cats.map((c) => ({
      category: c.category,
      vehicles: c.vehicles,
      bookings: c.bookings,
      revenue: money(c.revenue),
    })),
    summary,
  };
}

async function customersSummary(ctx: ReportContext, range: DateRange) {
  const t = await repo.customerTotals(ctx.db, scopeOf(range, ctx));
  return {
    totals: t,
    summary: {
      total_customers: t.total,
      new_customers: t.new_customers,
      returning_customers: t.total - t.new_customers,
      repeat_customers: t.repeat_customers,
      loyalty_rate: percent(t.repeat_customers, t.total, 1),
      avg_spending: ratio(t.spent, t.total),
      total_revenue: money(t.spent),
    },
  };
}

export async function revenueReport(ctx: ReportContext, q: RangeInput) {
  const range = parseRange(q, ctx.timezone, ctx.now);
  const s = scopeOf(range, ctx);
  const [totals, series, methods, monthly] = await Promise.all([
    repo.bookingTotals(ctx.db, s),
    repo.revenueSeries(ctx.db, s),
    repo.revenueByMethod(ctx.db, s),
    repo.revenueMonthly(ctx.db, s),
  ]);
  return {
    ...header('revenue', range, ctx),
    ...revenueSummary(totals, range),
    series: series.map((d) => ({
      date: d.date,
      revenue: money(d.revenue),
      bookings: d.bookings,
      cancelled: money(d.cancelled),
    })),
    by_payment_method: methods.map((m) => ({
      method: m.method,
      revenue: money(m.revenue),
      count: m.count,
      percentage: percent(m.revenue, sumOf(methods), 1),
    })),
    monthly: monthly.map((m) => ({ month: m.month, revenue: money(m.revenue), bookings: m.bookings })),
  };
}

function sumOf(list: { revenue: string }[]): string {
  return list.reduce((acc, r) => acc.plus(r.revenue), new Decimal(0)).toString();
}

export async function bookingsReport(ctx: ReportContext, q: RangeInput) {
  const range = parseRange(q, ctx.timezone, ctx.now);
  const s = scopeOf(range, ctx);
  const [totals, statuses, daily, kinds] = await Promise.all([
    repo.bookingTotals(ctx.db, s),
    repo.statusCounts(ctx.db, s),
    repo.bookingsDaily(ctx.db, s),
    repo.kindCounts(ctx.db, s),
  ]);
  return {
    ...header('bookings', range, ctx),
    ...bookingsSummary(totals),
    status_distribution: statuses.map((r) => ({
      status: r.status,
      label: statusLabel(r.status),
      count: r.count,
      percentage: percent(r.count, totals.total, 1),
    })),
    daily,
    by_kind: kinds,
  };
}

export async function vehiclesReport(ctx: ReportContext, q: RangeInput) {
  const range = parseRange(q, ctx.timezone, ctx.now);
  return {
    ...header('vehicles', range, ctx),
    ...(await vehiclesPart(ctx, range, repo.bookingTotals(ctx.db, scopeOf(range, ctx)))),
  };
}

export async function customersReport(ctx: ReportContext, q: RangeInput) {
  const range = parseRange(q, ctx.timezone, ctx.now);
  const s = scopeOf(range, ctx);
  const [{ totals, summary }, lifecycle, top] = await Promise.all([
    customersSummary(ctx, range),
    repo.customerLifecycle(ctx.db, s),
    repo.topCustomers(ctx.db, s),
  ]);
  return {
    ...header('customers', range, ctx),
    lifecycle,
    segments: { vip: totals.vip, regular: totals.regular, new: totals.occasional },
    top_customers: top.map((c) => ({
      customer_id: c.customer_id,
      name: c.name,
      email: c.email,
      bookings: c.bookings,
      total_spent: money(c.total_spent),
    })),
    summary,
  };
}

export async function overviewReport(ctx: ReportContext, q: RangeInput) {
  const range = parseRange(q, ctx.timezone, ctx.now);
  const totals = repo.bookingTotals(ctx.db, scopeOf(range, ctx));
  const [t, vehicles, customers] = await Promise.all([
    totals,
    vehiclesPart(ctx, range, totals),
    customersSummary(ctx, range),
  ]);
  return {
    ...header('overview', range, ctx),
    revenue: revenueSummary(t, range),
    bookings: bookingsSummary(t),
    vehicles: vehicles.summary,
    customers: customers.summary,
  };
}

export interface RangeInput {
  start_date?: unknown;
  end_date?: unknown;
}
