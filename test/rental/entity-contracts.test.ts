import { FormatRegistry, type TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvailabilityView, BookingCheckView } from '../../src/modules/rental/availability/schema.js';
import { availabilityView, checkAvailability } from '../../src/modules/rental/availability/service.js';
import { bookingById } from '../../src/modules/rental/bookings/repo.js';
import { BookingDetailView, BookingView } from '../../src/modules/rental/bookings/schema.js';
import { bookingDetail } from '../../src/modules/rental/bookings/service.js';
import { bookingView } from '../../src/modules/rental/bookings/view.js';
import { customerById } from '../../src/modules/rental/customers/repo.js';
import { CustomerView } from '../../src/modules/rental/customers/schema.js';
import { customerView } from '../../src/modules/rental/customers/service.js';
import { CreatedBookingView } from '../../src/modules/rental/bookings/create/schema.js';
import { MyBookingDetail, MyBookingItem, MyCancellation } from '../../src/modules/rental/bookings/my/schema.js';
import { locationById } from '../../src/modules/rental/locations/repo.js';
import { locationView } from '../../src/modules/rental/locations/routes.js';
import { LocationView, PublicLocation } from '../../src/modules/rental/locations/schema.js';
import { ruleById } from '../../src/modules/rental/pricing/repo.js';
import { ruleView } from '../../src/modules/rental/pricing/routes.js';
import { PricingRuleView } from '../../src/modules/rental/pricing/schema.js';
import { routeById } from '../../src/modules/rental/transfer-routes/repo.js';
import { routeView } from '../../src/modules/rental/transfer-routes/routes.js';
import { TransferRouteView } from '../../src/modules/rental/transfer-routes/schema.js';
import { vehicleById } from '../../src/modules/rental/vehicles/repo.js';
import { VehicleView } from '../../src/modules/rental/vehicles/schema.js';
import { vehicleView } from '../../src/modules/rental/views.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { rule, V1 } from './helpers.js';

const V2 = '/wp-json/rova-rental/v2';
// Value.Check knows no formats by itself; the views' instants are ISO-8601 UTC with milliseconds
if (!FormatRegistry.Has('date-time'))
  FormatRegistry.Set('date-time', (s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(s));

/** The keys a value of `schema` names: every required property, and the optional ones `v` has. */
function schemaKeys(schema: TObject, v: object): string[] {
  const required = new Set(schema.required ?? []);
  return Object.keys(schema.properties)
    .filter((k) => required.has(k) || Object.hasOwn(v, k))
    .sort();
}

/**
 * `v` is exactly what `schema` describes: its keys are the schema's properties (at the top, and through the
 * schemas' `additionalProperties: false` at every depth) and each value has the schema's type, null only where
 * the schema allows it (fast-json-stringify would turn a stray null into "" or 0).
 */
function expectShape(schema: TObject, v: unknown): void {
  expect(v).toBeTypeOf('object');
  expect(Object.keys(v as object).sort()).toEqual(schemaKeys(schema, v as object));
  expect([...Value.Errors(schema, v)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
}

describe('core entity contracts: every answer is its schema, every view is its schema', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let customer: Record<string, string>;
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, body?: object) => {
    const r = await t.inject({ method, url, headers, ...(body ? { payload: body } : {}) });
    expect(r.statusCode, r.body).toBeLessThan(300);
    return r.json().data as Record<string, unknown> & { id: number };
  };

  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
    customer = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    await rule(t, { name: 'VAT', kind: 'tax', percent: '18' });
  }, 240_000);
  afterAll(async () => t?.close());

  it('locations, vehicles, customers, transfer routes and pricing rules: answers and views', async () => {
    const db = t.platform.db;
    const loc = await call('POST', `${V1}/locations`, admin, {
      name: 'Contract Airport',
      type: 'airport',
      city: 'Izmir',
      latitude: 38.29,
      longitude: 27.15,
      opening_hours: { mon: { open: '08:00', close: '20:00' } },
    });
    expectShape(LocationView, loc);
    expectShape(LocationView, await call('PUT', `${V1}/locations/${loc.id}`, admin, { address: 'Gate 1' }));
    expectShape(LocationView, locationView((await locationById(db, loc.id))!));
    const pub = await call('GET', `${V1}/locations?city=Izmir`, {});
    expect((pub.items as unknown[]).length).toBeGreaterThan(0);
    for (const l of pub.items as object[]) expectShape(PublicLocation, l);

    const car = await call('POST', `${V1}/vehicles`, admin, {
      name: 'Contract Clio',
      price_per_day: 40,
      deposit_percent: 25,
      year: 2024,
      location_id: loc.id,
      features: ['bluetooth'],
      blocked_dates: ['2031-01-01'],
    });
    expectShape(VehicleView, car);
    const bare = await call('POST', `${V1}/vehicles`, admin, { name: 'Contract Bare', price_per_day: 30 });
    expectShape(VehicleView, bare);
    expect(bare).toMatchObject({ deposit_percent: null, year: null, location_id: null, vendor_id: null });
    expectShape(VehicleView, await call('GET', `${V1}/vehicles/${car.id}`, admin));
    expectShape(VehicleView, await call('PUT', `${V1}/vehicles/${car.id}`, admin, { seats: 5 }));
    for (const v of (await call('GET', `${V1}/vehicles`, admin)).items as object[]) expectShape(VehicleView, v);
    expectShape(VehicleView, vehicleView((await vehicleById(db, car.id))!));

    const c = await call('POST', `${V1}/customers`, admin, { name: 'Contract Cem', email: 'contract@example.test' });
    expectShape(CustomerView, c);
    expectShape(CustomerView, await call('PUT', `${V1}/customers/${c.id}`, admin, { phone: '+90 1' }));
    expectShape(CustomerView, customerView((await customerById(db, c.id))!));

    const route = await call('POST', `${V1}/transfer-routes`, admin, {
      origin: 'Airport',
      destination: 'Old town',
      origin_location_id: loc.id,
      distance_km: 20,
      pricing: 'calculated',
      base_price: 10,
      price_per_km: 1.5,
      min_price: 35,
    });
    expectShape(TransferRouteView, route);
    expectShape(TransferRouteView, await call('GET', `${V1}/transfer-routes/${route.id}`, admin));
    for (const r of (await call('GET', `${V1}/transfer-routes`, admin)).items as object[])
      expectShape(TransferRouteView, r);
    expectShape(TransferRouteView, routeView((await routeById(db, route.id))!));

    const season = await call('POST', `${V1}/pricing-rules`, admin, {
      name: 'Contract season',
      kind: 'season',
      start_date: '2000-06-01',
      end_date: '2000-06-30',
      multiplier: 1.2,
    });
    expectShape(PricingRuleView, season);
    const addon = await call('POST', `${V1}/pricing-rules`, admin, {
      name: 'Contract seat',
      kind: 'addon',
      code: 'contract_seat',
      amount: 5,
      charge: 'per_day',
    });
    expectShape(PricingRuleView, addon);
    expectShape(PricingRuleView, await call('PUT', `${V1}/pricing-rules/${addon.id}`, admin, { amount: 6 }));
    for (const r of (await call('GET', `${V1}/pricing-rules`, admin)).items as object[])
      expectShape(PricingRuleView, r);
    expectShape(PricingRuleView, ruleView((await ruleById(db, season.id))!));
  });

  it('bookings (admin), availability and booking check: answers and views', async () => {
    const db = t.platform.db;
    const v = await call('POST', `${V1}/vehicles`, admin, { name: 'Contract Egea', price_per_day: 50 });
    const q = await call(
      'POST',
      `${V1}/availability`,
      {},
      {
        vehicle_id: v.id,
        pickup_date: '2031-03-01',
        return_date: '2031-03-04',
      },
    );
    expectShape(AvailabilityView, q);
    expect(q.available).toBe(true);

    const b = await call('POST', `${V1}/bookings`, admin, {
      vehicle_id: v.id,
      customer: { name: 'Contract Ada', email: 'contract-ada@example.test' },
      pickup_date: '2031-03-01',
      return_date: '2031-03-04',
    });
    expectShape(BookingView, b);
    expectShape(BookingView, await call('PUT', `${V1}/bookings/${b.id}`, admin, { notes: 'window seat' }));
    for (const x of (await call('GET', `${V1}/bookings?vehicle_id=${v.id}`, admin)).items as object[])
      expectShape(BookingView, x);
    const detail = await call('GET', `${V1}/bookings/${b.id}`, admin);
    expectShape(BookingDetailView, detail);
    const moved = await call('POST', `${V1}/bookings/${b.id}/status`, admin, { status: 'confirmed' });
    expect(Object.keys(moved).sort()).toEqual(['booking', 'previous_status']);
    expectShape(BookingView, moved.booking);
    expectShape(BookingView, bookingView((await bookingById(db, b.id))!));
    expectShape(BookingDetailView, await bookingDetail(db, b.id));

    const desk = await call('POST', `${V1}/bookings`, admin, {
      vehicle_id: v.id,
      customer: { name: 'Contract Desk', email: 'contract-desk@example.test' },
      pickup_date: '2031-04-01',
      return_date: '2031-04-03',
    });
    const recorded = await call(
      'POST',
      `${V2}/bookings/${desk.id}/payments`,
      { ...admin, 'idempotency-key': 'contract-desk-1' },
      { kind: 'full', method: 'cash' },
    );
    expect(Object.keys(recorded).sort()).toEqual(['amount', 'booking', 'due', 'outcome', 'paid', 'payment_id']);
    expectShape(BookingView, recorded.booking);
    expectShape(BookingDetailView, await call('GET', `${V1}/bookings/${desk.id}`, admin));

    const busy = await call(
      'POST',
      `${V1}/availability`,
      {},
      {
        vehicle_id: v.id,
        pickup_date: '2031-03-02',
        return_date: '2031-03-03',
      },
    );
    expectShape(AvailabilityView, busy);
    expect(busy).toMatchObject({ available: false, reason: 'booked' });
    const r = await checkAvailability(t.platform, db, {
      vehicle_id: v.id,
      pickup_date: '2031-03-02',
      return_date: '2031-03-03',
    });
    expectShape(AvailabilityView, availabilityView(t.platform, r));

    await call('POST', `${V1}/vehicles`, admin, { name: 'Contract Egea 2', price_per_day: 55 });
    const check = await call(
      'POST',
      `${V2}/booking/check`,
      {},
      {
        vehicle_id: v.id,
        pickup_date: '2031-03-02',
        return_date: '2031-03-03',
      },
    );
    expectShape(BookingCheckView, check);
    expect((check.alternatives as unknown[]).length).toBeGreaterThan(0);
    const free = await call(
      'POST',
      `${V2}/booking/check`,
      {},
      {
        vehicle_id: v.id,
        pickup_date: '2031-05-02',
        return_date: '2031-05-03',
      },
    );
    expectShape(BookingCheckView, free);
    expect(free).not.toHaveProperty('alternatives');
  });

  it('the customer journey: created booking, my bookings, my booking, mark-paid and cancel', async () => {
    const v = await call('POST', `${V1}/vehicles`, admin, { name: 'Contract Corolla', price_per_day: 60 });
    const create = (d1: string, d2: string) =>
      call('POST', `${V2}/booking/create`, customer, {
        vehicle_id: v.id,
        pickup_date: d1,
        return_date: d2,
        payment_method: 'offline',
        payment_plan: 'deposit',
      });
    const made = await create('2032-04-01', '2032-04-03');
    expectShape(CreatedBookingView, made);
    const id = (made.booking as { id: number }).id;

    const mine = await call('GET', `${V2}/my/bookings`, customer);
    for (const x of mine.items as object[]) expectShape(MyBookingItem, x);
    const one = await call('GET', `${V2}/my/bookings/${id}`, customer);
    expectShape(MyBookingDetail, one);
    expect(one.order).not.toBeNull();

    const paid = await call('POST', `${V2}/bookings/${id}/mark-paid`, admin);
    expect(Object.keys(paid).sort()).toEqual(['booking', 'outcome']);
    expect(paid.outcome).toBe('confirmed');
    expectShape(BookingView, paid.booking);
    expectShape(MyBookingDetail, await call('GET', `${V2}/my/bookings/${id}`, customer));

    const cancelled = await call('POST', `${V2}/my/bookings/${id}/cancel`, customer);
    expectShape(MyCancellation, cancelled);
  });
});
