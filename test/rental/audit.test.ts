import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { queryAudit } from '../../src/platform/audit/log.js';
import { V1, vehicle } from './helpers.js';

/** Design §2: every write of the rental namespace and every authentication failure is in the audit log. */
describe('rental audit log', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '2' } });
    admin = (await t.userWithKey('administrator')).key;
  });
  afterAll(async () => t?.close());

  const log = async () =>
    (await queryAudit(t.platform.db, { routeContains: 'rova-rental', page: 1, perPage: 100 })).items;

  it('booking create and status change (with targets), a refused write, a 429 and anonymous/denied calls are recorded; public reads are not', async () => {
    const vid = await vehicle(t);
    const h = { 'x-rova-api-key': admin };
    const created = await t.inject({
      method: 'POST',
      url: `${V1}/bookings`,
      headers: h,
      payload: {
        vehicle_id: vid,
        customer: { name: 'Audit', email: 'audit@example.test' },
        pickup_date: '2030-01-01',
        return_date: '2030-01-02',
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as number;
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${V1}/bookings/${id}/status`,
          headers: h,
          payload: { status: 'teleported' },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${V1}/bookings/${id}/status`,
          headers: h,
          payload: { status: 'confirmed' },
        })
      ).statusCode,
    ).toBe(429);
    expect((await t.inject({ method: 'GET', url: `${V1}/bookings` })).statusCode).toBe(401);
    expect(
      (await t.inject({ method: 'GET', url: `${V1}/bookings`, headers: { 'x-rova-api-key': 'rk_bogus' } })).statusCode,
    ).toBe(401);
    expect((await t.inject({ method: 'GET', url: `${V1}/locations` })).statusCode).toBe(200);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${V1}/availability`,
          payload: { vehicle_id: vid, pickup_date: '2030-02-01', return_date: '2030-02-02' },
        })
      ).statusCode,
    ).toBe(200);

    const rows = (await log()).reverse();
    const brief = rows.map((r) => `${r.method} ${r.route} ${r.status} ${r.outcome} ${r.target ?? '-'}`);
    expect(brief).toEqual([
      `POST /wp-json/rova-rental/v1/bookings 201 success booking:${id}`,
      `POST /wp-json/rova-rental/v1/bookings/:id/status 400 failure ${id}`,
      `POST /wp-json/rova-rental/v1/bookings/:id/status 429 failure ${id}`,
      'GET /wp-json/rova-rental/v1/bookings 401 denied -',
      'GET /wp-json/rova-rental/v1/bookings 401 denied -',
    ]);
    expect(rows[0]!.apiKeyId).not.toBeNull();
    expect(JSON.stringify(rows)).not.toContain(admin);
  });
});
