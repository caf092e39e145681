import type { TestApp } from '../helpers/app.js';
import { catalogueChanged } from '../../src/modules/rental/catalogue.js';
import { insertBooking } from '../../src/modules/rental/bookings/repo.js';
import type { BookingInsert } from '../../src/modules/rental/bookings/schema.js';
import type { BookingStatus } from '../../src/modules/rental/bookings/status.js';
import { insertCustomer } from '../../src/modules/rental/customers/repo.js';
import { insertLocation } from '../../src/modules/rental/locations/repo.js';
import { insertRule } from '../../src/modules/rental/pricing/repo.js';
import type { PricingRuleInsert } from '../../src/modules/rental/pricing/schema.js';
import { insertVehicle } from '../../src/modules/rental/vehicles/repo.js';

export const V1 = '/wp-json/rova-rental/v1';
let seq = 0;

export async function vehicle(t: TestApp, f: Record<string, unknown> = {}): Promise<number> {
  seq += 1;
  const v = await insertVehicle(t.platform.db, {
    name: `Car ${seq}`,
    slug: `car-${seq}-${Math.random().toString(36).slice(2, 8)}`,
    price_per_day: '100.00',
    category: 'economy',
    ...f,
  });
  await catalogueChanged(t.platform);
  return Number(v.id);
}

export async function location(t: TestApp, f: Record<string, unknown> = {}): Promise<number> {
  seq += 1;
  const l = await insertLocation(t.platform.db, {
    name: `Loc ${seq}`,
    slug: `loc-${seq}-${Math.random().toString(36).slice(2, 8)}`,
    type: 'office',
    city: 'Istanbul',
    ...f,
  });
  await catalogueChanged(t.platform);
  return Number(l.id);
}

export async function rule(t: TestApp, f: PricingRuleInsert): Promise<number> {
  const r = await insertRule(t.platform.db, { scope: 'global', ...f });
  await catalogueChanged(t.platform);
  return r.id;
}

export async function customer(t: TestApp): Promise<number> {
  seq += 1;
  return Number(
    (
      await insertCustomer(t.platform.db, {
        name: `Cust ${seq}`,
        email: `c${seq}-${Math.random().toString(36).slice(2, 8)}@example.test`,
      })
    ).id,
  );
}

/** Inserts a booking row directly (any status, any deadline). */
export async function rawBooking(
  t: TestApp,
  vehicleId: number,
  pickup: string,
  ret: string,
  status: BookingStatus,
  extra: Partial<BookingInsert> = {},
): Promise<number> {
  seq += 1;
  const b = await insertBooking(t.platform.db, {
    reference: `T-${seq}-${Math.random().toString(36).slice(2, 8)}`,
    vehicle_id: vehicleId,
    pickup_at: pickup,
    return_at: ret,
    days: 1,
    status,
    ...extra,
  });
  return Number(b.id);
}

export function avail(t: TestApp, body: Record<string, unknown>) {
  return t.inject({ method: 'POST', url: `${V1}/availability`, payload: body });
}
