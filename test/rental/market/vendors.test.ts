import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { encryptIban } from '../../../src/modules/rental/vendors/iban.js';
import { rows } from '../../../src/platform/db/types.js';
import { V1 } from '../helpers.js';
import { completedBooking, GOOD_IBAN, vendor, vendorVehicle } from './helpers.js';

const VM = `${V1}/vendor-management`;
const OTHER_IBAN = 'GB82WEST12345698765432';

describe('vendor management (design §6)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const bodies: string[] = [];
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
    admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    for (const b of bodies) {
      expect(b).not.toContain(GOOD_IBAN);
      expect(b).not.toContain(OTHER_IBAN);
    }
  });
  const call = async (o: Parameters<TestApp['inject']>[0]) => {
    const r = await t.inject(o);
    bodies.push(r.body);
    return r;
  };

  it('list: search, status filter, sort and paging; detail with masked IBAN and statistics', async () => {
    const a = await vendor(t);
    const b = await vendor(t);
    await t.platform.db.execute(
      sql`UPDATE rental_vendors SET iban_encrypted = ${encryptIban(t.platform.config.secret, GOOD_IBAN)}, city = 'Izmir' WHERE user_id = ${a.id}`,
    );
    await t.platform.db.execute(sql`UPDATE rova_users SET display_name = 'Zeta Cars' WHERE id = ${b.id}`);
    await completedBooking(t, await vendorVehicle(t, a.id), '100.00');
    const all = await call({ method: 'GET', url: `${VM}/vendors?per_page=100`, headers: admin });
    expect(all.statusCode).toBe(200);
    const ids = all.json().data.items.map((v: { id: number }) => v.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    const z = await call({ method: 'GET', url: `${VM}/vendors?search=zeta`, headers: admin });
    expect(z.json().data).toMatchObject({
      total: 1,
      items: [{ id: b.id, display_name: 'Zeta Cars', status: 'active', reliability_score: 100 }],
    });
    const sorted = await call({
      method: 'GET',
      url: `${VM}/vendors?sort_by=vehicle_count&sort_order=desc&per_page=1`,
      headers: admin,
    });
    expect(sorted.json().data.items[0].vehicle_count).toBeGreaterThanOrEqual(1);
    expect((await call({ method: 'GET', url: `${VM}/vendors?sort_by=iban`, headers: admin })).statusCode).toBe(400);
    expect((await call({ method: 'GET', url: `${VM}/vendors?status=gone`, headers: admin })).statusCode).toBe(400);
    const d = await call({ method: 'GET', url: `${VM}/${a.id}`, headers: admin });
    expect(d.statusCode).toBe(200);
    expect(d.json().data).toMatchObject({
      id: a.id,
      city: 'Izmir',
      iban_masked: 'DE** **** 3000',
      status: 'active',
      statistics: {
        pending: 85,
        available: 0,
        total_earned: 85,
        completed_bookings: 1,
        refunded_bookings: 0,
        vehicle_count: 1,
        currency: 'USD',
      },
      vehicles: [{ lifecycle: 'active', status: 'active' }],
    });
    expect((await call({ method: 'GET', url: `${VM}/999999`, headers: admin })).statusCode).toBe(404);
  });

  it('suspend hides exactly the listed vehicles; unsuspend restores exactly those; wrong state → 409; audit log records both', async () => {
    const v = await vendor(t);
    const listed = [await vendorVehicle(t, v.id), await vendorVehicle(t, v.id)];
    const maint = await vendorVehicle(t, v.id);
    await t.platform.db.execute(sql`UPDATE rental_vehicles SET status = 'maintenance' WHERE id = ${maint}`);
    const s = await call({ method: 'POST', url: `${VM}/${v.id}/suspend`, headers: admin, payload: {} });
    expect(s.statusCode).toBe(200);
    expect(s.json().data).toEqual({ vendor_id: v.id, status: 'suspended', vehicles_hidden: listed });
    const statuses = async () =>
      (
        await rows<{ id: string; status: string }>(
          t.platform.db,
          sql`SELECT id, status FROM rental_vehicles WHERE vendor_id = ${v.id} ORDER BY id`,
        )
      ).map((r) => r.status);
    expect(await statuses()).toEqual(['inactive', 'inactive', 'maintenance']);
    expect((await call({ method: 'POST', url: `${VM}/${v.id}/suspend`, headers: admin })).statusCode).toBe(409);
    const list = await call({ method: 'GET', url: `${VM}/vendors?status=suspended&per_page=100`, headers: admin });
    expect(list.json().data.items.map((x: { id: number }) => x.id)).toContain(v.id);
    const active = await call({ method: 'GET', url: `${VM}/vendors?status=active&per_page=100`, headers: admin });
    expect(active.json().data.items.map((x: { id: number }) => x.id)).not.toContain(v.id);
    const detail = await call({ method: 'GET', url: `${VM}/${v.id}`, headers: admin });
    expect(detail.json().data.status).toBe('suspended');
    const u = await call({ method: 'POST', url: `${VM}/${v.id}/unsuspend`, headers: admin });
    expect(u.json().data).toEqual({ vendor_id: v.id, status: 'active', vehicles_restored: listed });
    expect(await statuses()).toEqual(['active', 'active', 'maintenance']);
    expect((await call({ method: 'POST', url: `${VM}/${v.id}/unsuspend`, headers: admin })).statusCode).toBe(409);
    const log = await call({ method: 'GET', url: `${VM}/${v.id}/audit-log`, headers: admin });
    expect(log.json().data.items.map((x: { event_type: string }) => x.event_type)).toEqual([
      'vendor_unsuspended',
      'vendor_suspended',
    ]);
    const filtered = await call({
      method: 'GET',
      url: `${VM}/${v.id}/audit-log?event_type=vendor_suspended&per_page=1`,
      headers: admin,
    });
    expect(filtered.json().data).toMatchObject({
      total: 1,
      items: [{ event_type: 'vendor_suspended', admin_user_id: expect.any(Number) }],
    });
    expect((await call({ method: 'GET', url: `${VM}/999999/audit-log`, headers: admin })).statusCode).toBe(404);
  });

  it('IBAN change: the vendor requests, the admin approves; the clear IBAN never appears', async () => {
    const v = await vendor(t);
    await t.platform.db.execute(
      sql`UPDATE rental_vendors SET iban_encrypted = ${encryptIban(t.platform.config.secret, GOOD_IBAN)} WHERE user_id = ${v.id}`,
    );
    expect(
      (
        await call({
          method: 'POST',
          url: `${V1}/vendor/iban-change`,
          headers: v.h,
          payload: { iban: 'GB82WEST12345698765433' },
        })
      ).statusCode,
    ).toBe(400);
    const r = await call({
      method: 'POST',
      url: `${V1}/vendor/iban-change`,
      headers: v.h,
      payload: { iban: OTHER_IBAN },
    });
    expect(r.statusCode).toBe(202);
    expect((await call({ method: 'GET', url: `${VM}/${v.id}`, headers: admin })).json().data).toMatchObject({
      iban_masked: 'DE** **** 3000',
      pending_iban_masked: 'GB** **** 5432',
    });
    expect(
      (await call({ method: 'POST', url: `${VM}/${v.id}/iban-change/approve`, headers: admin })).json().data,
    ).toEqual({ vendor_id: v.id, status: 'approved' });
    expect((await call({ method: 'GET', url: `${V1}/vendor/profile`, headers: v.h })).json().data).toMatchObject({
      iban_masked: 'GB** **** 5432',
      pending_iban_masked: null,
    });
    expect((await call({ method: 'POST', url: `${VM}/${v.id}/iban-change/reject`, headers: admin })).statusCode).toBe(
      409,
    );
  });

  it('a customer on any vendor route → 403; a vendor on admin routes → 403; anonymous → 401', async () => {
    const c = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    const v = await vendor(t);
    for (const [method, url] of [
      ['GET', `${V1}/vendor/profile`],
      ['POST', `${V1}/vendor/iban-change`],
    ] as const) {
      const r = await call({ method, url, headers: c, payload: method === 'POST' ? { iban: OTHER_IBAN } : undefined });
      expect(r.statusCode, url).toBe(403);
      expect(r.json().error_code).toBe('PERMISSION_DENIED');
    }
    for (const [method, url] of [
      ['GET', `${VM}/vendors`],
      ['GET', `${VM}/${v.id}`],
      ['POST', `${VM}/${v.id}/suspend`],
      ['GET', `${VM}/${v.id}/audit-log`],
      ['GET', `${VM}/applications`],
    ] as const) {
      expect((await call({ method, url, headers: v.h })).statusCode, url).toBe(403);
      expect((await call({ method, url, headers: c })).statusCode, url).toBe(403);
      expect((await call({ method, url })).statusCode, url).toBe(401);
    }
  });
});
