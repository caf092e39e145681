import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { one, rows } from '../../../src/platform/db/types.js';
import type { TestApp } from '../../helpers/app.js';
import { API, insertBooking, insertCustomer, insertVehicle, makeAdminApp } from './fixtures.js';

let t: TestApp;
let key: string;
const ids = { anna: 0, bob: 0, cara: 0, dan: 0 };

beforeAll(async () => {
  t = await makeAdminApp();
  key = (await t.userWithKey('administrator')).key;
  const db = t.platform.db;
  const v = await insertVehicle(db, { name: 'Renault Clio' });
  ids.anna = await insertCustomer(db, {
    name: 'Anna Schmidt',
    email: 'anna@example.test',
    createdAt: '2026-01-05T00:00:00Z',
  });
  ids.bob = await insertCustomer(db, {
    name: 'bob Martin',
    email: 'bob@mail.example',
    createdAt: '2026-01-03T00:00:00Z',
  });
  ids.cara = await insertCustomer(db, {
    name: 'Cara 100%_Off',
    email: 'cara@example.test',
    createdAt: '2026-01-04T00:00:00Z',
  });
  ids.dan = await insertCustomer(db, {
    name: 'Dan Nobookings',
    email: 'dan@example.test',
    createdAt: '2026-01-01T00:00:00Z',
  });
  // anna: 3 bookings (confirmed 100, completed 50.25, cancelled 500) + a draft → count 3, spent 150.25
  await insertBooking(db, {
    vehicleId: v,
    customerId: ids.anna,
    status: 'confirmed',
    total: '100.00',
    createdAt: '2026-02-01T10:00:00Z',
  });
  await insertBooking(db, {
    vehicleId: v,
    customerId: ids.anna,
    status: 'completed',
    total: '50.25',
    createdAt: '2026-02-10T10:00:00Z',
  });
  await insertBooking(db, {
    vehicleId: v,
    customerId: ids.anna,
    status: 'cancelled',
    total: '500.00',
    createdAt: '2026-03-01T10:00:00Z',
  });
  await insertBooking(db, {
    vehicleId: v,
    customerId: ids.anna,
    status: 'draft',
    total: '900.00',
    createdAt: '2026-03-05T10:00:00Z',
  });
  // bob: 1 in_progress 700 → count 1, spent 700, last booking 2026-02-20
  await insertBooking(db, {
    vehicleId: v,
    customerId: ids.bob,
    status: 'in_progress',
    total: '700.00',
    createdAt: '2026-02-20T10:00:00Z',
  });
  // cara: 2 pending_payment 10 + refunded 20 → count 2, spent 0, last 2026-03-10
  await insertBooking(db, {
    vehicleId: v,
    customerId: ids.cara,
    status: 'pending_payment',
    total: '10.00',
    createdAt: '2026-01-20T10:00:00Z',
  });
  await insertBooking(db, {
    vehicleId: v,
    customerId: ids.cara,
    status: 'refunded',
    total: '20.00',
    createdAt: '2026-03-10T10:00:00Z',
  });
});
afterAll(async () => t?.close());

const h = () => ({ 'x-rova-api-key': key });
const list = async (q: string) => {
  const r = await t.inject({ method: 'GET', url: `${API}/customers${q}`, headers: h() });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data as {
    items: { id: number; name: string; bookings_count: number; total_spent: number }[];
    total: number;
    total_pages: number;
    page: number;
    per_page: number;
  };
};
const names = (d: { items: { name: string }[] }) => d.items.map((i) => i.name.split(' ')[0]);

describe('GET /customers', () => {
  it('derived stats: non-draft count, spent over confirmed/in_progress/completed, first/last booking', async () => {
    const d = await list('?sort_by=name&sort_order=asc');
    expect(d).toMatchObject({ total: 4, total_pages: 1, page: 1, per_page: 20 });
    const anna = d.items.find((i) => i.id === ids.anna)!;
    expect(anna).toEqual({
      id: ids.anna,
      name: 'Anna Schmidt',
      email: 'anna@example.test',
      phone: '',
      address: '',
      user_id: null,
      created_at: '2026-01-05T00:00:00.000Z',
      bookings_count: 3,
      total_spent: 150.25,
      first_booking: '2026-02-01T10:00:00.000Z',
      last_booking: '2026-03-01T10:00:00.000Z',
      currency: 'USD',
    });
    expect(d.items.find((i) => i.id === ids.dan)).toMatchObject({
      bookings_count: 0,
      total_spent: 0,
      first_booking: null,
      last_booking: null,
    });
  });

  it.each([
    ['name', 'asc', ['Anna', 'bob', 'Cara', 'Dan']],
    ['name', 'desc', ['Dan', 'Cara', 'bob', 'Anna']],
    ['email', 'asc', ['Anna', 'bob', 'Cara', 'Dan']],
    ['bookings', 'desc', ['Anna', 'Cara', 'bob', 'Dan']],
    ['bookings', 'asc', ['Dan', 'bob', 'Cara', 'Anna']],
    ['total_spent', 'desc', ['bob', 'Anna', 'Dan', 'Cara']], // ties (0) break on id in the same direction
    ['last_booking', 'desc', ['Cara', 'Anna', 'bob', 'Dan']], // never booked last either way
    ['last_booking', 'asc', ['bob', 'Anna', 'Cara', 'Dan']],
    ['created', 'desc', ['Anna', 'Cara', 'bob', 'Dan']],
    ['created', 'asc', ['Dan', 'bob', 'Cara', 'Anna']],
  ])('sort_by=%s sort_order=%s', async (by, order, want) => {
    expect(names(await list(`?sort_by=${by}&sort_order=${order}`))).toEqual(want);
  });

  it('default sort is last_booking desc; sort_dir is accepted as an alias', async () => {
    expect(names(await list(''))).toEqual(['Cara', 'Anna', 'bob', 'Dan']);
    expect(names(await list('?sort_by=name&sort_dir=desc'))).toEqual(['Dan', 'Cara', 'bob', 'Anna']);
  });

  it('invalid sort_by or sort_order → 400 INVALID_PARAMS', async () => {
    for (const q of ['?sort_by=invalid_column', '?sort_by=password', '?sort_order=sideways']) {
      const r = await t.inject({ method: 'GET', url: `${API}/customers${q}`, headers: h() });
      expect(r.statusCode, q).toBe(400);
      expect(r.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    }
  });

  it('search: name or e-mail contains, case-insensitive; LIKE wildcards are literal', async () => {
    expect(names(await list('?search=SCHMIDT'))).toEqual(['Anna']);
    expect(names(await list('?search=mail.example'))).toEqual(['bob']);
    expect(names(await list('?search=100%25_'))).toEqual(['Cara']);
    expect((await list('?search=_')).total).toBe(1);
    const none = await list('?search=zzznoone_xyzzy');
    expect(none).toMatchObject({ total: 0, items: [], total_pages: 0 });
  });

  it('paging: per_page, page past the end → items []', async () => {
    const p1 = await list('?sort_by=name&sort_order=asc&per_page=3');
    expect(p1).toMatchObject({ total: 4, total_pages: 2, page: 1, per_page: 3 });
    expect(names(p1)).toEqual(['Anna', 'bob', 'Cara']);
    const p2 = await list('?sort_by=name&sort_order=asc&per_page=3&page=2');
    expect(names(p2)).toEqual(['Dan']);
    const p3 = await list('?page=9999');
    expect(p3).toMatchObject({ items: [], total: 4, page: 9999 });
    for (const q of ['?page=0', '?per_page=0', '?per_page=101', '?page=abc']) {
      expect((await t.inject({ method: 'GET', url: `${API}/customers${q}`, headers: h() })).statusCode, q).toBe(400);
    }
  });
});

describe('GET /customers/{id}', () => {
  it('detail with stats and recent bookings (newest first, drafts excluded)', async () => {
    const r = await t.inject({ method: 'GET', url: `${API}/customers/${ids.anna}`, headers: h() });
    expect(r.statusCode).toBe(200);
    const d = r.json().data;
    expect(d).toMatchObject({
      id: ids.anna,
      name: 'Anna Schmidt',
      bookings_count: 3,
      total_spent: 150.25,
      message_threads: 0,
    });
    expect(d.recent_bookings.map((b: { status: string }) => b.status)).toEqual(['cancelled', 'completed', 'confirmed']);
    expect(d.recent_bookings[0]).toMatchObject({
      vehicle_name: 'Renault Clio',
      total: 500,
      status_label: 'Cancelled',
      reference: expect.any(String),
    });
  });
  it('unknown id → 404 RESOURCE_NOT_FOUND; non-integer id → 400', async () => {
    const r = await t.inject({ method: 'GET', url: `${API}/customers/9999999`, headers: h() });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ success: false, error_code: 'RESOURCE_NOT_FOUND', message: 'Customer not found.' });
    expect((await t.inject({ method: 'GET', url: `${API}/customers/abc`, headers: h() })).statusCode).toBe(400);
  });
});

describe('DELETE /customers/bulk', () => {
  const del = (payload: unknown) =>
    t.inject({ method: 'DELETE', url: `${API}/customers/bulk`, headers: h(), payload: payload as object });

  it.each([
    ['missing', {}],
    ['empty', { ids: [] }],
    ['string', { ids: 'abc' }],
    ['scalar', { ids: 5 }],
    ['string id', { ids: ['5'] }],
    ['fraction', { ids: [1.5] }],
    ['zero', { ids: [0] }],
    ['negative', { ids: [-3] }],
    ['null', { ids: [null] }],
    ['too many', { ids: Array.from({ length: 1001 }, (_, i) => i + 1) }],
  ])('%s → 400 INVALID_PARAMS, nothing deleted', async (_label, payload) => {
    const r = await del(payload);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    expect((await list('')).total).toBe(4);
  });

  it('a failure mid-way writes nothing (one transaction)', async () => {
    const db = t.platform.db;
    // Make deleting Cara fail after Anna's bookings were already anonymised in the same transaction.
    await db.execute(
      sql.raw(`CREATE FUNCTION test_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF OLD.id = ${ids.cara} THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN OLD; END $$`),
    );
    await db.execute(
      sql.raw(
        'CREATE TRIGGER test_refuse BEFORE DELETE ON rental_customers FOR EACH ROW EXECUTE FUNCTION test_refuse_delete()',
      ),
    );
    try {
      const r = await del({ ids: [ids.anna, ids.cara] });
      expect(r.statusCode).toBe(500);
      expect(r.json()).toMatchObject({ success: false, error_code: 'INTERNAL_ERROR' });
      expect((await list('')).total).toBe(4);
      const anon = await one<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM rental_bookings WHERE customer_id IS NULL`,
      );
      expect(anon?.n).toBe(0);
    } finally {
      await db.execute(sql.raw('DROP TRIGGER test_refuse ON rental_customers'));
      await db.execute(sql.raw('DROP FUNCTION test_refuse_delete()'));
    }
  });

  it('deletes the customers, keeps their bookings anonymised with amounts, skips unknown ids', async () => {
    const db = t.platform.db;
    const r = await del({ ids: [ids.anna, ids.dan, 987654, ids.anna] });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      success: true,
      data: { deleted: 2, skipped: 1, deleted_ids: [ids.anna, ids.dan].sort((a, b) => a - b), anonymised_bookings: 4 },
      message: '2 customer(s) deleted.',
    });
    expect(names(await list('?sort_by=name&sort_order=asc'))).toEqual(['bob', 'Cara']);
    const kept = await rows<{
      customer_id: number | null;
      customer_name: string;
      customer_email: string;
      customer_phone: string;
      total: string;
    }>(
      db,
      sql`SELECT customer_id::int AS customer_id, customer_name, customer_email, customer_phone, total::text AS total FROM rental_bookings
          WHERE customer_id IS NULL ORDER BY total`,
    );
    expect(kept.map((b) => b.total)).toEqual(['100.00', '50.25', '500.00', '900.00'].sort());
    expect(
      kept.every((b) => b.customer_name === 'Deleted customer' && b.customer_email === '' && b.customer_phone === ''),
    ).toBe(true);
    expect((await t.inject({ method: 'GET', url: `${API}/customers/${ids.anna}`, headers: h() })).statusCode).toBe(404);
    // bob's booking untouched
    const bob = await one<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM rental_bookings WHERE customer_id = ${ids.bob} AND customer_email = 'bob@mail.example'`,
    );
    expect(bob?.n).toBe(1);
  });

  it('only unknown ids → {deleted:0, skipped:n}', async () => {
    const r = await del({ ids: [4444441, 4444442] });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({ deleted: 0, skipped: 2 });
  });
});
