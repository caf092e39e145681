// @integration: reports aggregate by day in the store time zone in SQL
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { API, insertBooking, insertCustomer, insertReportFixture, insertVehicle, makeAdminApp } from './fixtures.js';

let t: TestApp;
let key: string;
let fx: Awaited<ReturnType<typeof insertReportFixture>>;
const range = 'start_date=2026-04-01&end_date=2026-04-05';

beforeAll(async () => {
  t = await makeAdminApp({ STORE_TIMEZONE: 'Europe/Istanbul', STORE_CURRENCY: 'TRY' });
  key = (await t.userWithKey('administrator')).key;
  fx = await insertReportFixture(t.platform.db);
});
afterAll(async () => t?.close());

const get = (path: string) => t.inject({ method: 'GET', url: `${API}${path}`, headers: { 'x-rova-api-key': key } });

async function data(path: string) {
  const r = await get(path);
  expect(r.statusCode, r.body).toBe(200);
  const body = r.json();
  expect(body.success).toBe(true);
  expect(typeof body.message).toBe('string');
  return body.data;
}

describe('GET /reports/revenue (Europe/Istanbul, hand-computed)', () => {
  it('counts a booking created 2026-03-31T22:30Z on April 1st and lists every day of the range', async () => {
    const d = await data(`/reports/revenue?${range}`);
    expect(d).toMatchObject({
      report: 'revenue',
      start_date: '2026-04-01',
      end_date: '2026-04-05',
      days: 5,
      timezone: 'Europe/Istanbul',
      currency: 'TRY',
    });
    // revenue = B1 100.00 (local April 1) + B5 300.50; B2 (local March 31) is outside; B6 is a draft
    expect(d.total).toBe(400.5);
    expect(d.avg_daily).toBe(80.1);
    expect(d.bookings).toBe(2);
    expect(d.cancelled_total).toBe(50);
    expect(d.series).toEqual([
      { date: '2026-04-01', revenue: 100, bookings: 1, cancelled: 0 },
      { date: '2026-04-02', revenue: 0, bookings: 0, cancelled: 0 },
      { date: '2026-04-03', revenue: 0, bookings: 0, cancelled: 50 },
      { date: '2026-04-04', revenue: 0, bookings: 0, cancelled: 0 },
      { date: '2026-04-05', revenue: 300.5, bookings: 1, cancelled: 0 },
    ]);
    expect(d.by_payment_method).toEqual([
      { method: 'card', revenue: 300.5, count: 1, percentage: 75 },
      { method: 'bank_transfer', revenue: 100, count: 1, percentage: 25 },
    ]);
    expect(d.monthly).toEqual([{ month: '2026-04', revenue: 400.5, bookings: 2 }]);
  });

  it('a range with no bookings still has one zero row per day', async () => {
    const d = await data('/reports/revenue?start_date=2025-12-30&end_date=2026-01-02');
    expect(d.series.map((s: { date: string }) => s.date)).toEqual([
      '2025-12-30',
      '2025-12-31',
      '2026-01-01',
      '2026-01-02',
    ]);
    expect(d.series.every((s: { revenue: number }) => s.revenue === 0)).toBe(true);
    expect(d.total).toBe(0);
    expect(d.monthly).toEqual([
      { month: '2025-12', revenue: 0, bookings: 0 },
      { month: '2026-01', revenue: 0, bookings: 0 },
    ]);
  });

  it('March 31 alone holds B2 only (B1 moved to April by the time zone)', async () => {
    const d = await data('/reports/revenue?start_date=2026-03-31&end_date=2026-03-31');
    expect(d.series).toEqual([{ date: '2026-03-31', revenue: 200, bookings: 1, cancelled: 0 }]);
  });
});

describe('GET /reports/bookings', () => {
  it('status distribution, daily counts, rates and mean duration', async () => {
    const d = await data(`/reports/bookings?${range}`);
    // in range: B1 confirmed, B3 cancelled, B4 pending, B5 completed, B7 in_progress
    expect(d.total).toBe(5);
    expect(d.cancelled).toBe(1);
    expect(d.cancellation_rate).toBe(20);
    expect(d.conversion_rate).toBe(60);
    expect(d.avg_duration_days).toBe(2); // (2+1+4+2+1)/5
    expect(d.status_distribution).toEqual([
      { status: 'cancelled', label: 'Cancelled', count: 1, percentage: 20 },
      { status: 'completed', label: 'Completed', count: 1, percentage: 20 },
      { status: 'confirmed', label: 'Confirmed', count: 1, percentage: 20 },
      { status: 'in_progress', label: 'In Progress', count: 1, percentage: 20 },
      { status: 'pending', label: 'Pending', count: 1, percentage: 20 },
    ]);
    expect(d.daily).toEqual([
      { date: '2026-04-01', bookings: 1, cancelled: 0 },
      { date: '2026-04-02', bookings: 0, cancelled: 0 },
      { date: '2026-04-03', bookings: 2, cancelled: 1 },
      { date: '2026-04-04', bookings: 0, cancelled: 0 },
      { date: '2026-04-05', bookings: 2, cancelled: 0 },
    ]);
    expect(d.by_kind).toEqual([{ kind: 'rental', count: 5 }]);
  });
});

describe('GET /reports/vehicles', () => {
  it('top vehicles, occupancy inside the range and category performance', async () => {
    const d = await data(`/reports/vehicles?${range}`);
    expect(d.top_vehicles).toEqual([
      {
        vehicle_id: fx.v1,
        name: 'Fiat Egea',
        category: 'economy',
        bookings: 3,
        revenue: 400.5,
        avg_revenue_per_booking: 133.5,
      },
      { vehicle_id: fx.v2, name: 'Dacia Duster', category: 'suv', bookings: 2, revenue: 0, avg_revenue_per_booking: 0 },
    ]);
    // range = [03-31T21:00Z, 04-05T21:00Z); V1: B1 2 d + B5 0.5 d; V2: B2 1 d + B7 1 d (B4 pending does not occupy)
    expect(d.occupancy).toEqual([
      { vehicle_id: fx.v1, name: 'Fiat Egea', booked_days: 2.5, total_days: 5, occupancy_rate: 50 },
      { vehicle_id: fx.v2, name: 'Dacia Duster', booked_days: 2, total_days: 5, occupancy_rate: 40 },
    ]);
    expect(d.category_performance).toEqual([
      { category: 'economy', vehicles: 1, bookings: 3, revenue: 400.5 },
      { category: 'suv', vehicles: 1, bookings: 2, revenue: 0 },
      { category: 'van', vehicles: 1, bookings: 0, revenue: 0 },
    ]);
    expect(d.summary).toEqual({
      total_vehicles: 3,
      active_vehicles: 2,
      vehicles_booked: 2,
      avg_occupancy_rate: 30,
      total_revenue: 400.5,
    });
  });
});

describe('GET /reports/customers', () => {
  it('new vs returning per day, segments and summary', async () => {
    const d = await data(`/reports/customers?${range}`);
    expect(d.lifecycle).toEqual([
      { date: '2026-04-01', new: 1, returning: 0 }, // A's first booking
      { date: '2026-04-02', new: 0, returning: 0 },
      { date: '2026-04-03', new: 1, returning: 1 }, // C first; A again
      { date: '2026-04-04', new: 0, returning: 0 },
      { date: '2026-04-05', new: 0, returning: 2 }, // B (first booked March 31) and C
    ]);
    expect(d.segments).toEqual({ vip: 0, regular: 0, new: 3 });
    expect(d.summary).toEqual({
      total_customers: 3,
      new_customers: 2,
      returning_customers: 1,
      repeat_customers: 2,
      loyalty_rate: 66.7,
      avg_spending: 146.83, // (100 + 300.50 + 40) / 3
      total_revenue: 440.5,
    });
    expect(d.top_customers[0]).toEqual({
      customer_id: fx.b,
      name: 'Burak Demir',
      email: 'burak@example.test',
      bookings: 1,
      total_spent: 300.5,
    });
  });
});

describe('GET /reports/overview', () => {
  it('holds the four summaries', async () => {
    const d = await data(`/reports/overview?${range}`);
    expect(d.revenue).toEqual({ total: 400.5, avg_daily: 80.1, bookings: 2, cancelled_total: 50 });
    expect(d.bookings).toEqual({
      total: 5,
      cancelled: 1,
      cancellation_rate: 20,
      conversion_rate: 60,
      avg_duration_days: 2,
    });
    expect(d.vehicles.avg_occupancy_rate).toBe(30);
    expect(d.customers.total_customers).toBe(3);
  });
});

describe('date validation', () => {
  const reports = ['overview', 'revenue', 'bookings', 'vehicles', 'customers'];
  it.each(reports)('%s: default range is the last 30 days ending today (store time zone)', async (name) => {
    const d = await data(`/reports/${name}`);
    expect(d.days).toBe(30);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Istanbul' }).format(new Date());
    expect(d.end_date).toBe(today);
  });
  it.each(reports)('%s: bad format → 400 INVALID_PARAMS', async (name) => {
    for (const q of [
      'start_date=not-a-date',
      'end_date=2026-4-1',
      'start_date=2026-02-30',
      'end_date=2026-04-01T00:00',
    ]) {
      const r = await get(`/reports/${name}?${q}`);
      expect(r.statusCode, q).toBe(400);
      expect(r.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    }
  });
  it.each(reports)('%s: start after end → 400 INVALID_DATE_RANGE; equal dates are fine', async (name) => {
    const r = await get(`/reports/${name}?start_date=2026-04-05&end_date=2026-04-01`);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ success: false, error_code: 'INVALID_DATE_RANGE' });
    expect((await get(`/reports/${name}?start_date=2026-04-05&end_date=2026-04-05`)).statusCode).toBe(200);
  });
  it('a range over 1096 days → 400 INVALID_DATE_RANGE with the limit; 1096 days is accepted', async () => {
    const r = await get('/reports/revenue?start_date=2020-01-01&end_date=2026-01-01');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ success: false, error_code: 'INVALID_DATE_RANGE', details: { max_days: 1096 } });
    const ok = await data('/reports/revenue?start_date=2023-01-01&end_date=2025-12-31');
    expect(ok.days).toBe(1096);
    expect(ok.series).toHaveLength(1096);
  });
  it('only start_date → ends today; only end_date → 30 days ending then', async () => {
    const d = await data('/reports/bookings?end_date=2026-04-05');
    expect(d.start_date).toBe('2026-03-07');
    expect(d.daily).toHaveLength(30);
  });
});

describe('daylight saving time (America/New_York, DST starts 2026-03-08)', () => {
  it('local midnights move with the offset', async () => {
    const ny = await makeAdminApp({ STORE_TIMEZONE: 'America/New_York' });
    try {
      const k = (await ny.userWithKey('administrator')).key;
      const db = ny.platform.db;
      const v = await insertVehicle(db, { name: 'VW Golf' });
      const c = await insertCustomer(db, { name: 'Nora York', email: 'nora@example.test' });
      await insertBooking(db, {
        vehicleId: v,
        customerId: c,
        status: 'completed',
        total: '10.00',
        createdAt: '2026-03-08T04:30:00Z',
      }); // 03-07 23:30 EST
      await insertBooking(db, {
        vehicleId: v,
        customerId: c,
        status: 'completed',
        total: '20.00',
        createdAt: '2026-03-09T03:30:00Z',
      }); // 03-08 23:30 EDT
      await insertBooking(db, {
        vehicleId: v,
        customerId: c,
        status: 'completed',
        total: '40.00',
        createdAt: '2026-03-09T04:30:00Z',
      }); // 03-09 00:30 EDT
      const r = await ny.inject({
        method: 'GET',
        url: `${API}/reports/revenue?start_date=2026-03-07&end_date=2026-03-09`,
        headers: { 'x-rova-api-key': k },
      });
      expect(r.json().data.series.map((d: { date: string; revenue: number }) => [d.date, d.revenue])).toEqual([
        ['2026-03-07', 10],
        ['2026-03-08', 20],
        ['2026-03-09', 40],
      ]);
    } finally {
      await ny.close();
    }
  });
});

describe('GET /reports/vehicles caps its lists at 10', () => {
  it('12 booked vehicles → top_vehicles and occupancy hold the 10 best, the summary counts all 12', async () => {
    const app = await makeAdminApp();
    try {
      const k = (await app.userWithKey('administrator')).key;
      const db = app.platform.db;
      const c = await insertCustomer(db, { name: 'Many Cars', email: 'many@example.test' });
      for (let i = 1; i <= 12; i++) {
        const v = await insertVehicle(db, { name: `Car ${String(i).padStart(2, '0')}`, category: 'economy' });
        // revenue and booked days grow with i: the 10 best are cars 12 … 3
        await insertBooking(db, {
          vehicleId: v,
          customerId: c,
          status: 'completed',
          total: `${i * 10}.00`,
          createdAt: '2026-05-02T10:00:00Z',
          pickupAt: '2026-05-03T00:00:00Z',
          returnAt: new Date(Date.parse('2026-05-03T00:00:00Z') + i * 3_600_000).toISOString(),
        });
      }
      const r = await app.inject({
        method: 'GET',
        url: `${API}/reports/vehicles?start_date=2026-05-01&end_date=2026-05-10`,
        headers: { 'x-rova-api-key': k },
      });
      expect(r.statusCode, r.body).toBe(200);
      const d = r.json().data;
      expect(d.top_vehicles.map((v: { name: string }) => v.name)).toEqual(
        Array.from({ length: 10 }, (_, i) => `Car ${String(12 - i).padStart(2, '0')}`),
      );
      expect(d.top_vehicles[0]).toMatchObject({ bookings: 1, revenue: 120, avg_revenue_per_booking: 120 });
      expect(d.occupancy).toHaveLength(10);
      expect(d.occupancy[0]).toMatchObject({ name: 'Car 12', booked_days: 0.5, total_days: 10, occupancy_rate: 5 });
      // Σ booked days = (1+…+12) h = 78 h = 3.25 d over 12 vehicles × 10 days → 2.7 %
      expect(d.summary).toEqual({
        total_vehicles: 12,
        active_vehicles: 12,
        vehicles_booked: 12,
        avg_occupancy_rate: 2.7,
        total_revenue: 780,
      });
    } finally {
      await app.close();
    }
  });
});
