import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { one } from '../../src/platform/db/types.js';
import { V1, vehicle } from './helpers.js';

/** Bad input anywhere in the core rental API is a 4xx in the rental envelope, never a 500 or a partial write. */
describe('bad input → 4xx, never 500', () => {
  let t: TestApp;
  let admin: string;
  let vid: number;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    admin = (await t.userWithKey('administrator')).key;
    vid = await vehicle(t);
  });
  afterAll(async () => t?.close());

  const big = '99999999999999999999';
  const B = Number(big);
  const who = { name: 'Bad Input', email: 'bad-input@example.test' };
  const dates = { pickup_date: '2030-01-01', return_date: '2030-01-02' };
  const send = (m: string, u: string, body?: unknown) =>
    t.inject({
      method: m as 'GET',
      url: V1 + u,
      headers: { 'x-rova-api-key': admin, 'content-type': 'application/json' },
      ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });

  const CASES: [string, string, unknown, number, string][] = [
    ['GET', `/vehicles/${big}`, undefined, 400, 'INVALID_PARAMS'],
    ['GET', `/bookings/${big}`, undefined, 400, 'INVALID_PARAMS'],
    ['PUT', `/bookings/${big}`, { notes: 'x' }, 400, 'INVALID_PARAMS'],
    ['POST', `/bookings/${big}/status`, { status: 'cancelled' }, 400, 'INVALID_PARAMS'],
    ['PUT', `/customers/${big}`, { name: 'x' }, 400, 'INVALID_PARAMS'],
    ['GET', `/pricing-rules/${big}`, undefined, 400, 'INVALID_PARAMS'],
    ['GET', `/transfer-routes/${big}`, undefined, 400, 'INVALID_PARAMS'],
    ['GET', `/bookings?vehicle_id=${big}`, undefined, 400, 'INVALID_PARAMS'],
    ['GET', `/bookings?page=${big}`, undefined, 400, 'INVALID_PARAMS'],
    ['GET', `/vehicles?page=${big}`, undefined, 400, 'INVALID_PARAMS'],
    ['GET', `/locations?page=${big}`, undefined, 400, 'INVALID_PARAMS'],
    ['GET', '/bookings?pickup_from=2030-02-30', undefined, 400, 'INVALID_PARAMS'],
    ['POST', '/availability', { vehicle_id: B, ...dates }, 400, 'INVALID_PARAMS'],
    [
      'POST',
      '/availability',
      { vehicle_id: 1, pickup_date: '2030-01-01', return_date: '9999-12-31' },
      400,
      'INVALID_DATE_RANGE',
    ],
    [
      'POST',
      '/availability',
      { vehicle_id: 1, pickup_date: '2030-02-29', return_date: '2030-03-02' },
      400,
      'INVALID_PARAMS',
    ],
    ['POST', '/availability', { vehicle_id: 1, ...dates, return_time: '24:00' }, 400, 'INVALID_PARAMS'],
    ['POST', '/availability', { vehicle_id: 1, ...dates, addons: 'child_seat' }, 400, 'INVALID_PARAMS'],
    ['POST', '/availability', '{bad json', 400, 'INVALID_PARAMS'],
    ['POST', '/availability', '[]', 400, 'INVALID_PARAMS'],
    ['POST', '/availability', 'null', 400, 'INVALID_PARAMS'],
    ['POST', '/bookings', { vehicle_id: B, customer: who, ...dates }, 400, 'INVALID_PARAMS'],
    ['POST', '/bookings', { vehicle_id: 1, customer_id: B, ...dates }, 400, 'INVALID_PARAMS'],
    [
      'POST',
      '/bookings',
      { vehicle_id: 1, customer: who, pickup_date: '2030-02-30', return_date: '2030-03-02' },
      400,
      'INVALID_PARAMS',
    ],
    [
      'POST',
      '/bookings',
      { vehicle_id: 1, customer: who, pickup_date: '2030-01-01', return_date: '2031-06-01' },
      400,
      'INVALID_DATE_RANGE',
    ],
    ['POST', '/bookings', { vehicle_id: 1, customer: 'x', ...dates }, 400, 'INVALID_PARAMS'],
    [
      'POST',
      '/bookings',
      { vehicle_id: 1, customer: { name: 'x', email: 'not-an-email' }, ...dates },
      400,
      'INVALID_PARAMS',
    ],
    ['POST', '/vehicles', { name: 'x', price_per_day: 10, location_id: B }, 400, 'INVALID_PARAMS'],
    ['POST', '/vehicles', { name: 'x', price_per_day: 10, vendor_id: B }, 400, 'INVALID_PARAMS'],
    ['POST', '/vehicles', { name: 'x', price_per_day: 1e300 }, 400, 'INVALID_PARAMS'],
    ['POST', '/vehicles', { name: 'x', price_per_day: 'cheap' }, 400, 'INVALID_PARAMS'],
    ['POST', '/vehicles', '{"name": ', 400, 'INVALID_PARAMS'],
    ['POST', '/pricing-rules', { name: 'x', kind: 'duration', min_days: B, percent: 5 }, 400, 'INVALID_PARAMS'],
    ['POST', '/pricing-rules', { name: 'x', kind: 'weekend', priority: B, multiplier: 1 }, 400, 'INVALID_PARAMS'],
    [
      'POST',
      '/pricing-rules',
      { name: 'x', kind: 'season', recurring: false, start_date: '2030-03-01', end_date: '2030-02-01', multiplier: 1 },
      400,
      'INVALID_DATE_RANGE',
    ],
    ['POST', '/locations', { name: 'x', type: 'office', city: 'c', priority: B }, 400, 'INVALID_PARAMS'],
    ['POST', '/transfer-routes', { origin: 'a', destination: 'b', origin_location_id: B }, 400, 'INVALID_PARAMS'],
    ['POST', '/customers', { name: 'x', email: 'x@y.zz', user_id: B }, 400, 'INVALID_PARAMS'],
    ['PUT', `/vehicles/${1}`, { blocked_dates: ['2030-02-30'] }, 400, 'INVALID_PARAMS'],
    ['POST', '/customers', { name: 'nul\u0000name', email: 'nul@example.test' }, 400, 'INVALID_PARAMS'],
    ['GET', '/bookings?search=a%00b', undefined, 400, 'INVALID_PARAMS'],
    ['GET', '/vehicles?search=a%00b', undefined, 400, 'INVALID_PARAMS'],
    ['GET', '/locations?city=a%00b', undefined, 400, 'INVALID_PARAMS'],
    [
      'POST',
      '/bookings',
      { vehicle_id: 1, customer: { name: 'x\u0000', email: 'nul2@example.test' }, ...dates, notes: 'a\u0000' },
      400,
      'INVALID_PARAMS',
    ],
    ['POST', '/vehicles', { name: 'x\u0000y', price_per_day: 10 }, 400, 'INVALID_PARAMS'],
    ['POST', '/locations', { name: 'x', type: 'office', city: 'c\u0000' }, 400, 'INVALID_PARAMS'],
    ['POST', '/transfer-routes', { origin: 'a\u0000', destination: 'b' }, 400, 'INVALID_PARAMS'],
    ['POST', '/pricing-rules', { name: 'x\u0000', kind: 'weekend', multiplier: 1 }, 400, 'INVALID_PARAMS'],
  ];

  // vehicle id 1 in a case (body or /vehicles/1) stands for the test vehicle
  it.each(CASES)('%s %s %j → %i %s', async (m, u, body, status, code) => {
    const path = u.replace(/^\/(vehicles)\/1$/, `/vehicles/${vid}`);
    const r = await send(
      m,
      path,
      typeof body === 'object' &&
        body !== null &&
        'vehicle_id' in body &&
        (body as { vehicle_id: number }).vehicle_id === 1
        ? { ...body, vehicle_id: vid }
        : body,
    );
    expect(r.statusCode, r.body).toBe(status);
    expect(r.json()).toMatchObject({ success: false, error_code: code, message: expect.any(String) });
  });

  it('a refused booking leaves nothing behind (no customer created, no booking)', async () => {
    const email = 'atomic-refusal@example.test';
    const r = await send('POST', '/bookings', {
      vehicle_id: vid,
      customer: { name: 'A', email },
      pickup_date: '2030-01-01',
      return_date: '2030-01-02',
      addons: ['nope'],
    });
    expect(r.statusCode).toBe(400);
    const list = await send('GET', `/bookings?search=${encodeURIComponent(email)}`);
    expect(list.json().data.total).toBe(0);
    const n = await one<{ n: number }>(
      t.platform.db,
      sql`SELECT count(*)::int AS n FROM rental_customers WHERE email = ${email}`,
    );
    expect(n?.n).toBe(0);
  });
});
