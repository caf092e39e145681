// @integration: the one-owner foreign key and the vendor money lock are server-side
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { rawBooking, V1 } from '../helpers.js';
import { vendor } from './helpers.js';

describe('vendor vehicles (design §6, reference §2.14)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
    admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
  }, 300_000);
  afterAll(async () => t?.close());

  const car = {
    name: 'Fiat Egea',
    price_per_day: 45.5,
    category: 'economy',
    brand: 'Fiat',
    model: 'Egea',
    year: 2023,
    seats: 5,
    transmission: 'manual',
    fuel_type: 'diesel',
  };

  it('create → pending_review (not bookable); admin approves → active; pause/resume; withdraw with a reason; edit rules', async () => {
    const v = await vendor(t);
    const c = await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles`, headers: v.h, payload: car });
    expect(c.statusCode).toBe(201);
    const id = c.json().data.id as number;
    expect(c.json().data).toMatchObject({
      name: 'Fiat Egea',
      lifecycle: 'pending_review',
      status: 'inactive',
      price_per_day: 45.5,
      currency: 'USD',
    });
    expect(
      (await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${id}/pause`, headers: v.h })).statusCode,
    ).toBe(409);
    const ok = await t.inject({
      method: 'POST',
      url: `${V1}/vendor-management/vehicles/${id}/approve`,
      headers: admin,
    });
    expect(ok.json()).toMatchObject({ success: true, data: { id, lifecycle: 'active' } });
    expect(
      (await t.inject({ method: 'POST', url: `${V1}/vendor-management/vehicles/${id}/approve`, headers: admin }))
        .statusCode,
    ).toBe(409);
    expect((await t.inject({ method: 'GET', url: `${V1}/vehicles/${id}`, headers: admin })).json().data.status).toBe(
      'active',
    );
    const paused = await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${id}/pause`, headers: v.h });
    expect(paused.json().data).toMatchObject({ lifecycle: 'paused', status: 'inactive' });
    expect(
      (await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${id}/resume`, headers: v.h })).json().data,
    ).toMatchObject({ lifecycle: 'active', status: 'active' });
    const edited = await t.inject({
      method: 'PUT',
      url: `${V1}/vendor/vehicles/${id}`,
      headers: v.h,
      payload: { price_per_day: 50 },
    });
    expect(edited.json().data.price_per_day).toBe(50);
    const w = await t.inject({
      method: 'POST',
      url: `${V1}/vendor/vehicles/${id}/withdraw`,
      headers: v.h,
      payload: { reason: 'Sold the car.' },
    });
    expect(w.json().data).toMatchObject({
      lifecycle: 'withdrawn',
      status: 'inactive',
      withdrawal_reason: 'Sold the car.',
    });
    expect(w.json().data.withdrawn_at).not.toBeNull();
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: `${V1}/vendor/vehicles/${id}`,
          headers: v.h,
          payload: { price_per_day: 60 },
        })
      ).statusCode,
    ).toBe(409);
    const list = await t.inject({ method: 'GET', url: `${V1}/vendor/vehicles`, headers: v.h });
    expect(list.json().data).toMatchObject({ total: 1, items: [{ id, lifecycle: 'withdrawn' }] });
    const log = await t.inject({ method: 'GET', url: `${V1}/vendor-management/${v.id}/audit-log`, headers: admin });
    expect(log.json().data.items.map((x: { event_type: string }) => x.event_type)).toEqual([
      'vehicle_withdrawn',
      'vehicle_resumed',
      'vehicle_paused',
      'vehicle_approved',
      'vehicle_submitted',
    ]);
  });

  it('writes take the documented fields only: status, owner, money and identity fields → 400 naming them; unknown location → 400; nothing changes (issue 19 item 1)', async () => {
    const v = await vendor(t);
    const other = await vendor(t);
    const before = (await t.platform.db.execute(sql`SELECT count(*)::int AS n FROM rental_vehicles`)) as unknown as {
      rows: { n: number }[];
    };
    const refused: [string, unknown][] = [
      ['status', 'active'],
      ['vendor_id', other.id],
      ['deposit_percent', 0],
      ['currency', 'EUR'],
      ['slug', 'mine'],
      ['created_at', '2020-01-01T00:00:00Z'],
      ['id', 1],
      ['no_such_column', 1],
      ['extra', { deep: { deeper: [1] } }],
    ];
    for (const [field, value] of refused) {
      const r = await t.inject({
        method: 'POST',
        url: `${V1}/vendor/vehicles`,
        headers: v.h,
        payload: { ...car, [field]: value },
      });
      expect(r.statusCode, `${field}: ${r.body}`).toBe(400);
      expect(r.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
      expect(JSON.stringify(r.json()), field).toContain(field);
    }
    const unknownPlace = await t.inject({
      method: 'POST',
      url: `${V1}/vendor/vehicles`,
      headers: v.h,
      payload: { ...car, location_id: 999999 },
    });
    expect(unknownPlace.statusCode).toBe(400);
    expect(unknownPlace.json()).toMatchObject({
      success: false,
      error_code: 'INVALID_PARAMS',
      details: { field: 'location_id' },
    });
    const after = (await t.platform.db.execute(sql`SELECT count(*)::int AS n FROM rental_vehicles`)) as unknown as {
      rows: { n: number }[];
    };
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);

    const id = (await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles`, headers: v.h, payload: car })).json()
      .data.id as number;
    for (const [field, value] of refused) {
      const r = await t.inject({
        method: 'PUT',
        url: `${V1}/vendor/vehicles/${id}`,
        headers: v.h,
        payload: { [field]: value },
      });
      expect(r.statusCode, `PUT ${field}: ${r.body}`).toBe(400);
    }
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: `${V1}/vendor/vehicles/${id}`,
          headers: v.h,
          payload: { location_id: 999999 },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${V1}/vendor/vehicles/${id}/withdraw`,
          headers: v.h,
          payload: { reason: 'x', status: 'active' },
        })
      ).statusCode,
    ).toBe(400);
    // still under review, still this vendor's: a customer cannot book it
    const row = (await t.platform.db.execute(
      sql`SELECT status, vendor_id::int AS vendor_id, currency FROM rental_vehicles WHERE id = ${id}`,
    )) as unknown as { rows: { status: string; vendor_id: number; currency: string }[] };
    expect(row.rows[0]).toEqual({ status: 'inactive', vendor_id: v.id, currency: 'USD' });
    expect(
      (await t.inject({ method: 'GET', url: `${V1}/vendor/vehicles/${id}`, headers: v.h })).json().data,
    ).toMatchObject({ lifecycle: 'pending_review', status: 'inactive' });
  });

  it('one owner: the database refuses a vehicle whose owner disagrees with its listing', async () => {
    const v = await vendor(t);
    const other = await vendor(t);
    const id = (await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles`, headers: v.h, payload: car })).json()
      .data.id as number;
    const sqlstate = async (q: Promise<unknown>) =>
      q.then(
        () => 'accepted',
        (e: { code?: string; cause?: { code?: string } }) => e.cause?.code ?? e.code,
      );
    // 23503 foreign_key_violation (vendor_listings_one_owner)
    expect(
      await sqlstate(t.platform.db.execute(sql`UPDATE rental_vehicles SET vendor_id = ${other.id} WHERE id = ${id}`)),
    ).toBe('23503');
    expect(
      await sqlstate(
        t.platform.db.execute(sql`UPDATE vendor_listings SET vendor_id = ${other.id} WHERE vehicle_id = ${id}`),
      ),
    ).toBe('23503');
  });

  it('withdrawing or pausing with confirmed/in-progress bookings → 409; another vendor → 404; a customer → 403; bad input → 400', async () => {
    const v = await vendor(t);
    const other = await vendor(t);
    const id = (await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles`, headers: v.h, payload: car })).json()
      .data.id as number;
    await t.inject({ method: 'POST', url: `${V1}/vendor-management/vehicles/${id}/approve`, headers: admin });
    await rawBooking(t, id, '2031-05-01T10:00:00Z', '2031-05-03T10:00:00Z', 'confirmed');
    for (const move of ['withdraw', 'pause']) {
      const r = await t.inject({
        method: 'POST',
        url: `${V1}/vendor/vehicles/${id}/${move}`,
        headers: v.h,
        payload: {},
      });
      expect(r.statusCode).toBe(409);
      expect(r.json()).toMatchObject({
        success: false,
        error_code: 'STATE_CONFLICT',
        details: { reason: 'active_bookings_exist' },
      });
    }
    for (const [method, url] of [
      ['GET', `${V1}/vendor/vehicles/${id}`],
      ['PUT', `${V1}/vendor/vehicles/${id}`],
      ['POST', `${V1}/vendor/vehicles/${id}/withdraw`],
      ['POST', `${V1}/vendor/vehicles/${id}/pause`],
    ] as const) {
      const r = await t.inject({ method, url, headers: other.h, payload: method === 'GET' ? undefined : {} });
      expect(r.statusCode, url).toBe(404);
      expect(r.json().error_code).toBe('VEHICLE_NOT_FOUND');
    }
    const c = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    for (const [method, url] of [
      ['GET', `${V1}/vendor/vehicles`],
      ['POST', `${V1}/vendor/vehicles`],
      ['GET', `${V1}/vendor/vehicles/${id}`],
    ] as const) {
      expect(
        (await t.inject({ method, url, headers: c, payload: method === 'POST' ? car : undefined })).statusCode,
        url,
      ).toBe(403);
    }
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${V1}/vendor/vehicles`,
          headers: v.h,
          payload: { ...car, price_per_day: -1 },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await t.inject({ method: 'POST', url: `${V1}/vendor-management/vehicles/${id}/approve`, headers: v.h }))
        .statusCode,
    ).toBe(403);
    await t.inject({ method: 'POST', url: `${V1}/vendor-management/${v.id}/suspend`, headers: admin });
    const s = await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles`, headers: v.h, payload: car });
    expect(s.statusCode).toBe(403);
    expect(s.json().message).toMatch(/suspended/);
  });
});
