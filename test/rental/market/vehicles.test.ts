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

  const car = { name: 'Fiat Egea', price_per_day: 45.5, category: 'economy', brand: 'Fiat', model: 'Egea', year: 2023, seats: 5, transmission: 'manual', fuel_type: 'diesel' };

  it('create → pending_review (not bookable); admin approves → active; pause/resume; withdraw with a reason; edit rules', async () => {
    const v = await vendor(t);
    const c = await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles`, headers: v.h, payload: car });
    expect(c.statusCode).toBe(201);
    const id = c.json().data.id as number;
    expect(c.json().data).toMatchObject({ name: 'Fiat Egea', lifecycle: 'pending_review', status: 'inactive', price_per_day: 45.5, currency: 'USD' });
    expect((await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${id}/pause`, headers: v.h })).statusCode).toBe(409);
    const ok = await t.inject({ method: 'POST', url: `${V1}/vendor-management/vehicles/${id}/approve`, headers: admin });
    expect(ok.json()).toMatchObject({ success: true, data: { id, lifecycle: 'active' } });
    expect((await t.inject({ method: 'POST', url: `${V1}/vendor-management/vehicles/${id}/approve`, headers: admin })).statusCode).toBe(409);
    expect((await t.inject({ method: 'GET', url: `${V1}/vehicles/${id}`, headers: admin })).json().data.status).toBe('active');
    const paused = await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${id}/pause`, headers: v.h });
    expect(paused.json().data).toMatchObject({ lifecycle: 'paused', status: 'inactive' });
    expect((await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${id}/resume`, headers: v.h })).json().data).toMatchObject({ lifecycle: 'active', status: 'active' });
    const edited = await t.inject({ method: 'PUT', url: `${V1}/vendor/vehicles/${id}`, headers: v.h, payload: { price_per_day: 50 } });
    expect(edited.json().data.price_per_day).toBe(50);
    const w = await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${id}/withdraw`, headers: v.h, payload: { reason: 'Sold the car.' } });
    expect(w.json().data).toMatchObject({ lifecycle: 'withdrawn', status: 'inactive', withdrawal_reason: 'Sold the car.' });
    expect(w.json().data.withdrawn_at).not.toBeNull();
    expect((await t.inject({ method: 'PUT', url: `${V1}/vendor/vehicles/${id}`, headers: v.h, payload: { price_per_day: 60 } })).statusCode).toBe(409);
    const list = await t.inject({ method: 'GET', url: `${V1}/vendor/vehicles`, headers: v.h });
    expect(list.json().data).toMatchObject({ total: 1, items: [{ id, lifecycle: 'withdrawn' }] });
    const log = await t.inject({ method: 'GET', url: `${V1}/vendor-management/${v.id}/audit-log`, headers: admin });
    expect(log.json().data.items.map((x: { event_type: string }) => x.event_type)).toEqual(['vehicle_withdrawn', 'vehicle_resumed', 'vehicle_paused', 'vehicle_approved', 'vehicle_submitted']);
  });

  it('withdrawing or pausing with confirmed/in-progress bookings → 409; another vendor → 404; a customer → 403; bad input → 400', async () => {
    const v = await vendor(t);
    const other = await vendor(t);
    const id = (await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles`, headers: v.h, payload: car })).json().data.id as number;
    await t.inject({ method: 'POST', url: `${V1}/vendor-management/vehicles/${id}/approve`, headers: admin });
    await rawBooking(t, id, '2031-05-01T10:00:00Z', '2031-05-03T10:00:00Z', 'confirmed');
    for (const move of ['withdraw', 'pause']) {
      const r = await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${id}/${move}`, headers: v.h, payload: {} });
      expect(r.statusCode).toBe(409);
      expect(r.json()).toMatchObject({ success: false, error_code: 'STATE_CONFLICT', details: { reason: 'active_bookings_exist' } });
    }
    for (const [method, url] of [['GET', `${V1}/vendor/vehicles/${id}`], ['PUT', `${V1}/vendor/vehicles/${id}`], ['POST', `${V1}/vendor/vehicles/${id}/withdraw`], ['POST', `${V1}/vendor/vehicles/${id}/pause`]] as const) {
      const r = await t.inject({ method, url, headers: other.h, payload: method === 'GET' ? undefined : {} });
      expect(r.statusCode, url).toBe(404);
      expect(r.json().error_code).toBe('VEHICLE_NOT_FOUND');
    }
    const c = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    for (const [method, url] of [['GET', `${V1}/vendor/vehicles`], ['POST', `${V1}/vendor/vehicles`], ['GET', `${V1}/vendor/vehicles/${id}`]] as const) {
      expect((await t.inject({ method, url, headers: c, payload: method === 'POST' ? car : undefined })).statusCode, url).toBe(403);
    }
    expect((await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles`, headers: v.h, payload: { ...car, price_per_day: -1 } })).statusCode).toBe(400);
    expect((await t.inject({ method: 'POST', url: `${V1}/vendor-management/vehicles/${id}/approve`, headers: v.h })).statusCode).toBe(403);
    await t.inject({ method: 'POST', url: `${V1}/vendor-management/${v.id}/suspend`, headers: admin });
    const s = await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles`, headers: v.h, payload: car });
    expect(s.statusCode).toBe(403);
    expect(s.json().message).toMatch(/suspended/);
  });
});
