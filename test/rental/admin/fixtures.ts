import { sql } from 'drizzle-orm';
import { adminRoutes } from '../../../src/modules/rental/routes.js';
import type { RovaModule } from '../../../src/modules/types.js';
import { platformModule } from '../../../src/platform/module.js';
import { one, type Db } from '../../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../../helpers/app.js';

/** The platform plus the rental namespace with only the admin routes: these tests do not depend on the rest of the rental module. */
export const adminOnlyModule: RovaModule = {
  name: 'rental-admin-under-test',
  namespaces: [{ name: 'rova-rental/v1', shape: 'rental' }],
  routes: adminRoutes,
};

export function makeAdminApp(env: Record<string, string> = {}): Promise<TestApp> {
  return makeApp({ env, modules: [platformModule, adminOnlyModule] });
}

export const API = '/wp-json/rova-rental/v1';

let seq = 0;

export async function insertVehicle(
  db: Db,
  v: { name: string; category?: string; status?: string; createdAt?: string },
): Promise<number> {
  seq += 1;
  const r = await one<{ id: number }>(
    db,
    sql`INSERT INTO rental_vehicles (name, slug, status, price_per_day, category, created_at)
        VALUES (${v.name}, ${`v-${seq}-${Math.random().toString(36).slice(2, 8)}`}, ${v.status ?? 'active'}, 50, ${v.category ?? 'economy'},
                ${v.createdAt ?? '2026-01-01T00:00:00Z'}::timestamptz)
        RETURNING id::int AS id`,
  );
  return r!.id;
}

export async function insertCustomer(
  db: Db,
  c: { name: string; email: string; createdAt?: string; userId?: number },
): Promise<number> {
  const r = await one<{ id: number }>(
    db,
    sql`INSERT INTO rental_customers (name, email, user_id, created_at)
        VALUES (${c.name}, ${c.email}, ${c.userId ?? null}, ${c.createdAt ?? '2026-01-01T00:00:00Z'}::timestamptz)
        RETURNING id::int AS id`,
  );
  return r!.id;
}

export interface BookingFixture {
  vehicleId: number;
  customerId?: number | null;
  status: string;
  total: string;
  createdAt: string;
  pickupAt?: string;
  returnAt?: string;
  days?: number;
  kind?: 'rental' | 'transfer';
  paymentMethod?: string | null;
  origin?: string;
  destination?: string;
}

export async function insertBooking(db: Db, b: BookingFixture): Promise<number> {
  seq += 1;
  // each default slot is its own (bookings holding one vehicle may not overlap: migration 0500's exclusion constraint)
  const pickup = b.pickupAt ?? new Date(Date.parse('2027-06-01T10:00:00Z') + seq * 3 * 86_400_000).toISOString();
  const ret = b.returnAt ?? new Date(Date.parse(pickup) + (b.days ?? 1) * 86_400_000).toISOString();
  const cust = b.customerId ?? null;
  const r = await one<{ id: number }>(
    db,
    sql`INSERT INTO rental_bookings (reference, vehicle_id, customer_id, customer_name, customer_email, customer_phone, kind, transfer_origin,
                                     transfer_destination, pickup_at, return_at, days, total, net_price, status, payment_method, created_at)
        SELECT ${`T-${seq}-${Math.random().toString(36).slice(2, 8)}`}, ${b.vehicleId}, ${cust},
               COALESCE((SELECT name FROM rental_customers WHERE id = ${cust}), ''), COALESCE((SELECT email FROM rental_customers WHERE id = ${cust}), ''),
               '+90 555 000 0000', ${b.kind ?? 'rental'}, ${b.origin ?? null}, ${b.destination ?? null},
               ${pickup}::timestamptz, ${ret}::timestamptz, ${b.days ?? 1}, ${b.total}::numeric, ${b.total}::numeric, ${b.status},
               ${b.paymentMethod ?? null}, ${b.createdAt}::timestamptz
        RETURNING id::int AS id`,
  );
  return r!.id;
}

/**
 * The hand-computed report fixture (store time zone Europe/Istanbul, UTC+3 all year):
 *   B1 created 2026-03-31T22:30Z → local 2026-04-01 (April!) confirmed 100.00  A  V1 occupies 04-02T21:00Z..04-04T21:00Z (2 d)
 *   B2 created 2026-03-31T20:00Z → local 2026-03-31          completed 200.00  B  V2 occupies 03-30T21:00Z..04-01T21:00Z
 *   B3 created 2026-04-03T10:00Z → 04-03 cancelled 50.00  A  V1 (1 d)
 *   B4 created 2026-04-03T12:00Z → 04-03 pending   80.00  C  V2 (4 d)
 *   B5 created 2026-04-05T09:00Z → 04-05 completed 300.50 B  V1 card, occupies 04-05T09:00Z..04-07T09:00Z (2 d)
 *   B6 created 2026-04-02T10:00Z → draft 999.00 D (never counted)
 *   B7 created 2026-04-04T21:30Z → local 2026-04-05 in_progress 40.00 C V2 occupies 04-04T21:00Z..04-05T21:00Z (1 d)
 *   V3 maintenance van, no bookings.
 */
export async function insertReportFixture(db: Db) {
  const v1 = await insertVehicle(db, { name: 'Fiat Egea', category: 'economy' });
  const v2 = await insertVehicle(db, { name: 'Dacia Duster', category: 'suv' });
  const v3 = await insertVehicle(db, { name: 'Ford Transit', category: 'van', status: 'maintenance' });
  const a = await insertCustomer(db, { name: 'Ayse Yilmaz', email: 'ayse@example.test' });
  const b = await insertCustomer(db, { name: 'Burak Demir', email: 'burak@example.test' });
  const c = await insertCustomer(db, { name: 'Cem Kaya', email: 'cem@example.test' });
  const d = await insertCustomer(db, { name: 'Deniz Ak', email: 'deniz@example.test' });
  const ids = {
    b1: await insertBooking(db, {
      vehicleId: v1,
      customerId: a,
      status: 'confirmed',
      total: '100.00',
      createdAt: '2026-03-31T22:30:00Z',
      pickupAt: '2026-04-02T21:00:00Z',
      days: 2,
      paymentMethod: 'bank_transfer',
    }),
    b2: await insertBooking(db, {
      vehicleId: v2,
      customerId: b,
      status: 'completed',
      total: '200.00',
      createdAt: '2026-03-31T20:00:00Z',
      pickupAt: '2026-03-30T21:00:00Z',
      days: 2,
      paymentMethod: 'card',
    }),
    b3: await insertBooking(db, {
      vehicleId: v1,
      customerId: a,
      status: 'cancelled',
      total: '50.00',
      createdAt: '2026-04-03T10:00:00Z',
      pickupAt: '2026-04-03T12:00:00Z',
      days: 1,
    }),
    b4: await insertBooking(db, {
      vehicleId: v2,
      customerId: c,
      status: 'pending',
      total: '80.00',
      createdAt: '2026-04-03T12:00:00Z',
      pickupAt: '2026-04-10T12:00:00Z',
      days: 4,
    }),
    b5: await insertBooking(db, {
      vehicleId: v1,
      customerId: b,
      status: 'completed',
      total: '300.50',
      createdAt: '2026-04-05T09:00:00Z',
      pickupAt: '2026-04-05T09:00:00Z',
      days: 2,
      paymentMethod: 'card',
    }),
    b6: await insertBooking(db, {
      vehicleId: v1,
      customerId: d,
      status: 'draft',
      total: '999.00',
      createdAt: '2026-04-02T10:00:00Z',
      days: 1,
    }),
    b7: await insertBooking(db, {
      vehicleId: v2,
      customerId: c,
      status: 'in_progress',
      total: '40.00',
      createdAt: '2026-04-04T21:30:00Z',
      pickupAt: '2026-04-04T21:00:00Z',
      days: 1,
    }),
  };
  return { v1, v2, v3, a, b, c, d, ...ids };
}
