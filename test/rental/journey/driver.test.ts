// Driver and terms (issue 36.4): minimum age per category, terms acceptance, date of birth and licence checks, flight
// number for airport pick-ups; stored with the booking, shown to staff and the customer, mailed, erased with the customer.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { location, V1, vehicle } from '../helpers.js';
import { outboxMails } from '../../helpers/outbox.js';

const V2 = '/wp-json/rova-rental/v2';

describe('driver and terms on booking create', () => {
  let t: TestApp;
  let admin: string;
  let customer: string;
  let suv: number;
  let economy: number;
  let airport: number;
  let office: number;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    admin = (await t.userWithKey('administrator')).key;
    customer = (await t.userWithKey('customer')).key;
    airport = await location(t, { type: 'airport', name: 'Test Airport' });
    office = await location(t, { type: 'office' });
    suv = await vehicle(t, { category: 'suv', location_id: airport });
    economy = await vehicle(t, { category: 'economy', location_id: office });
  }, 240_000);
  afterAll(async () => t?.close());

  const as = (key: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    t.inject({ method, url, headers: { 'x-rova-api-key': key }, ...(payload === undefined ? {} : { payload }) });
  let day = 0;
  /** A fresh slot for each booking (pick-up 2032-03-01 + n days, one day). */
  const slot = (v: number) => {
    day += 2;
    const d = (n: number) => new Date(Date.UTC(2032, 2, 1 + n)).toISOString().slice(0, 10);
    return { vehicle_id: v, pickup_date: d(day), return_date: d(day + 1) };
  };
  const body = (v: number, extra: Record<string, unknown> = {}) => ({
    ...slot(v),
    payment_method: 'offline',
    payment_plan: 'full',
    ...extra,
  });
  const driver = (date_of_birth: string, licence_number = 'B1234567') => ({
    name: 'Ada  Lovelace',
    date_of_birth,
    licence_number,
  });
  const setSettings = (s: Record<string, unknown>) => as(admin, 'PUT', `${V2}/driver-settings`, s);

  it('publishes the rules, the terms (none yet) and the cancellation policy', async () => {
    const r = await t.inject({ method: 'GET', url: `${V2}/booking/driver-rules` });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toEqual({
      driver_required: false,
      min_age: 21,
      min_age_by_category: { suv: 25 },
      terms: null,
      cancellation: { free_cancel_hours: 24, fee_percent: 20 },
    });
  });

  it('refuses an under-age driver for the category with the reason; the same driver may take an economy car', async () => {
    // 22 on the pick-up day in March 2032
    const r = await as(customer, 'POST', `${V2}/booking/create`, body(suv, { driver: driver('2010-01-15') }));
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      success: false,
      error_code: 'INVALID_PARAMS',
      message: 'The driver must be at least 25 for an SUV; the driver is 22 on the pick-up date.',
      details: { field: 'driver.date_of_birth', reason: 'driver_under_age' },
    });
    const young = await as(customer, 'POST', `${V2}/booking/create`, body(economy, { driver: driver('2012-01-15') }));
    expect(young.statusCode).toBe(400);
    expect(young.json().message).toBe(
      'The driver must be at least 21 for an economy; the driver is 20 on the pick-up date.',
    );
    const ok = await as(customer, 'POST', `${V2}/booking/create`, body(economy, { driver: driver('2010-01-15') }));
    expect(ok.statusCode).toBe(201);
    const id = ok.json().data.booking.id;
    const staff = await as(admin, 'GET', `${V2}/bookings/${id}/driver`);
    expect(staff.statusCode).toBe(200);
    expect(staff.json().data).toEqual({
      name: 'Ada Lovelace',
      date_of_birth: '2010-01-15',
      licence_number: 'B1234567',
      flight_number: null,
      terms_version: null,
      terms_accepted_at: null,
    });
    const mine = await as(customer, 'GET', `${V2}/my/bookings/${id}/driver`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.name).toBe('Ada Lovelace');
    const other = (await t.userWithKey('customer')).key;
    expect((await as(other, 'GET', `${V2}/my/bookings/${id}/driver`)).statusCode).toBe(404);
    expect((await as(customer, 'GET', `${V2}/bookings/${id}/driver`)).statusCode).toBe(403);
    // the confirmation mail names the driver
    const [mail] = await outboxMails(t.platform, sql`m.about = ${`booking:${id}`} AND m.template = 'booking_created'`);
    const text = mail?.text_body ?? '';
    expect(text).toContain('Ada Lovelace (born 2010-01-15)');
    expect(text).toContain('B1234567');
  });

  it('400s a bad date of birth, a licence number of odd characters and an unknown driver field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [driver('2001-02-30'), 'driver.date_of_birth', 'driver.date_of_birth must be a real date, YYYY-MM-DD.'],
      [driver('2099-01-01'), 'driver.date_of_birth', 'driver.date_of_birth must be a date in the past.'],
      [
        driver('1990-01-01', 'AB<script>'),
        'driver.licence_number',
        'driver.licence_number must be 4–30 letters or digits (spaces, - and / allowed inside).',
      ],
      [
        driver('1990-01-01', 'X1'),
        'driver.licence_number',
        'driver.licence_number must be 4–30 letters or digits (spaces, - and / allowed inside).',
      ],
    ];
    for (const [d, field, message] of cases) {
      const r = await as(customer, 'POST', `${V2}/booking/create`, body(economy, { driver: d }));
      expect(r.statusCode, message).toBe(400);
      expect(r.json()).toMatchObject({ error_code: 'INVALID_PARAMS', message, details: { field } });
    }
    const extra = await as(
      customer,
      'POST',
      `${V2}/booking/create`,
      body(economy, { driver: { ...driver('1990-01-01'), nationality: 'x' } }),
    );
    expect(extra.statusCode).toBe(400);
    const left = await t.platform.db.execute(sql`SELECT count(*)::int AS n FROM rental_booking_drivers`);
    expect((left as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1); // nothing written by the refusals
  });

  it('stores the flight number of an airport pick-up; refuses one elsewhere', async () => {
    const r = await as(
      customer,
      'POST',
      `${V2}/booking/create`,
      body(suv, { driver: driver('1980-05-05'), flight_number: 'tk 1234', pickup_location_id: airport }),
    );
    expect(r.statusCode).toBe(201);
    const d = await as(admin, 'GET', `${V2}/bookings/${r.json().data.booking.id}/driver`);
    expect(d.json().data.flight_number).toBe('TK1234');
    const elsewhere = await as(
      customer,
      'POST',
      `${V2}/booking/create`,
      body(economy, { flight_number: 'TK1234', pickup_location_id: office }),
    );
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toMatchObject({
      message: 'flight_number is only for a pick-up at an airport.',
      details: { field: 'flight_number', reason: 'not_airport' },
    });
    const odd = await as(customer, 'POST', `${V2}/booking/create`, body(suv, { flight_number: '12-34' }));
    expect(odd.statusCode).toBe(400);
    expect(odd.json().details).toMatchObject({ field: 'flight_number' });
  });

  it('settings: admin only, checked; with terms, a booking without their acceptance is refused', async () => {
    expect((await as(customer, 'PUT', `${V2}/driver-settings`, { min_age: 30 })).statusCode).toBe(403);
    const noVersion = await setSettings({ terms_text: 'Drive carefully.' });
    expect(noVersion.statusCode).toBe(400);
    expect(noVersion.json()).toMatchObject({ details: { field: 'terms_version' } });
    expect((await setSettings({ terms_url: 'javascript:alert(1)', terms_version: '1' })).statusCode).toBe(400);
    expect((await setSettings({ min_age: 12 })).statusCode).toBe(400);
    expect((await setSettings({ surprise: true })).statusCode).toBe(400);
    const saved = await setSettings({ terms_text: 'Drive carefully.', terms_version: '2032-1', driver_required: true });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({ terms_version: '2032-1', driver_required: true, min_age: 21 });
    const rules = (await t.inject({ method: 'GET', url: `${V2}/booking/driver-rules` })).json().data;
    expect(rules.terms).toEqual({ version: '2032-1', text: 'Drive carefully.', url: '' });

    const noDriver = await as(customer, 'POST', `${V2}/booking/create`, body(economy, { terms_accepted: true }));
    expect(noDriver.statusCode).toBe(400);
    expect(noDriver.json().details).toMatchObject({ field: 'driver' });
    const unticked = await as(
      customer,
      'POST',
      `${V2}/booking/create`,
      body(economy, { driver: driver('1990-01-01') }),
    );
    expect(unticked.statusCode).toBe(400);
    expect(unticked.json()).toMatchObject({
      message: 'Accept the rental terms to book (terms_accepted: true).',
      details: { field: 'terms_accepted', reason: 'terms_not_accepted' },
    });
    const stale = await as(
      customer,
      'POST',
      `${V2}/booking/create`,
      body(economy, { driver: driver('1990-01-01'), terms_accepted: true, terms_version: '2031-9' }),
    );
    expect(stale.statusCode).toBe(400);
    expect(stale.json().details).toMatchObject({ reason: 'terms_changed' });
    const before = Date.now();
    const ok = await as(
      customer,
      'POST',
      `${V2}/booking/create`,
      body(economy, { driver: driver('1990-01-01'), terms_accepted: true, terms_version: '2032-1' }),
    );
    expect(ok.statusCode).toBe(201);
    const d = (await as(admin, 'GET', `${V2}/bookings/${ok.json().data.booking.id}/driver`)).json().data;
    expect(d.terms_version).toBe('2032-1');
    expect(Date.parse(d.terms_accepted_at)).toBeGreaterThanOrEqual(before - 5000);
    await setSettings({ terms_text: '', terms_version: '', driver_required: false });
  });

  it('admin create takes the driver under the same age rule; erasing the customer deletes the driver rows', async () => {
    const base = { ...slot(suv), customer: { name: 'Walk In', email: 'walkin-driver@example.test' } };
    const young = await as(admin, 'POST', `${V1}/bookings`, { ...base, driver: driver('2012-06-01') });
    expect(young.statusCode).toBe(400);
    expect(young.json().details).toMatchObject({ reason: 'driver_under_age' });
    const r = await as(admin, 'POST', `${V1}/bookings`, {
      ...base,
      driver: driver('1970-06-01', 'DE-99/123'),
      flight_number: 'LH 100',
    });
    expect(r.statusCode).toBe(201);
    const id = r.json().data.id;
    const d = (await as(admin, 'GET', `${V2}/bookings/${id}/driver`)).json().data;
    expect(d).toMatchObject({ name: 'Ada Lovelace', licence_number: 'DE-99/123', flight_number: 'LH100' });
    const booking = (await as(admin, 'GET', `${V1}/bookings/${id}`)).json().data;
    const del = await as(admin, 'DELETE', `${V1}/customers/bulk`, { ids: [booking.customer_id] });
    expect(del.statusCode).toBe(200);
    const gone = await as(admin, 'GET', `${V2}/bookings/${id}/driver`);
    expect(gone.statusCode).toBe(200);
    expect(gone.json().data).toBeNull();
  });
});
