import { sql } from 'drizzle-orm';
import type { TestApp } from '../../helpers/app.js';
import { rawBooking, vehicle } from '../helpers.js';
import { changeStatus } from '../../../src/modules/rental/bookings/service.js';
import { rows } from '../../../src/platform/db/types.js';

export const V2 = '/wp-json/rova-rental/v2';

/** A vendor user with an API key and an active vendor record. */
export async function vendor(t: TestApp, f: { commission_rate?: string } = {}): Promise<{ id: number; key: string; h: Record<string, string> }> {
  const u = await t.userWithKey('vendor');
  await t.platform.db.execute(sql`INSERT INTO rental_vendors (user_id, status, commission_rate, approved_at) VALUES (${u.userId}, 'active', ${f.commission_rate ?? null}, now())`);
  return { id: u.userId, key: u.key, h: { 'x-rova-api-key': u.key } };
}

/** A vehicle of the vendor, listed (lifecycle active). */
export async function vendorVehicle(t: TestApp, vendorId: number, f: { commission_rate?: string; lifecycle?: string } = {}): Promise<number> {
  const v = await vehicle(t, { vendor_id: vendorId });
  await t.platform.db.execute(sql`INSERT INTO vendor_listings (vehicle_id, vendor_id, lifecycle, commission_rate)
    VALUES (${v}, ${vendorId}, ${f.lifecycle ?? 'active'}, ${f.commission_rate ?? null})`);
  return v;
}

let day = 0;
/** A booking of `total` (major units) on the vehicle, moved in_progress → completed through the status machine. */
export async function completedBooking(t: TestApp, vehicleId: number, total: string): Promise<number> {
  day += 3;
  const start = new Date(Date.UTC(2031, 0, 1) + day * 86_400_000);
  const id = await rawBooking(t, vehicleId, start.toISOString(), new Date(start.getTime() + 86_400_000).toISOString(), 'in_progress', { total, currency: 'USD' });
  await changeStatus(t.platform, id, 'completed');
  return id;
}

/** Every ledger transaction's entry sum (must all be 0). */
export async function transactionSums(t: TestApp): Promise<number[]> {
  const r = await rows<{ s: string }>(t.platform.db, sql`SELECT coalesce(sum(e.amount), 0)::text AS s FROM ledger_transactions x
    LEFT JOIN ledger_entries e ON e.transaction_id = x.id GROUP BY x.id`);
  return r.map((x) => Number(x.s));
}
