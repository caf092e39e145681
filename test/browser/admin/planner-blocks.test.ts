import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn, windowOf } from '../../../admin/src/screens/planner/dates.js';
import {
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
  rental,
  startAdminRig,
  type AdminRig,
} from './helpers.js';

// Issue 35 item 5 on the operator's planner: a vendor's block of a vehicle (maintenance, own use) and a date the
// operator blocked on a vehicle are drawn on its row as what they are — not bookings: their own bars, with the reason.
let rig: AdminRig;
beforeAll(async () => {
  rig = await startAdminRig();
});
afterAll(async () => {
  await rig?.close();
});

interface Planner {
  vehicles: { id: number; name: string }[];
  bookings: { id: number }[];
  blocks: { vehicle_id: number; kind: string; from: string; to: string; reason: string; note: string }[];
}

describe('planner: blocks drawn apart from bookings', () => {
  it("a vendor's maintenance block and an operator's blocked date appear as block bars with their reason", async () => {
    const w = windowOf('week', todayIn('UTC', new Date()));
    const before = await rental<Planner>(rig, `/rova-rental/v1/admin/planner?from=${w.from}&to=${w.to}&limit=500`);
    const [first, second] = before.vehicles;
    const d1 = addDays(w.from, 1);
    const d2 = addDays(w.from, 2);
    const d4 = addDays(w.from, 4);
    const db = rig.shop.t.platform.db;
    await db.execute(
      sql`INSERT INTO rental_vehicle_blocks (vehicle_id, from_date, to_date, starts_at, ends_at, reason, note)
        VALUES (${first!.id}, ${d1}, ${d2}, ${`${d1}T00:00:00Z`}, ${`${addDays(d2, 1)}T00:00:00Z`}, 'maintenance', 'Brakes')`,
    );
    await db.execute(
      sql`UPDATE rental_vehicles SET blocked_dates = ${JSON.stringify([d4])}::jsonb WHERE id = ${second!.id}`,
    );
    const after = await rental<Planner>(rig, `/rova-rental/v1/admin/planner?from=${w.from}&to=${w.to}&limit=500`);
    expect(after.blocks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          vehicle_id: first!.id,
          kind: 'vendor_block',
          from: d1,
          to: d2,
          reason: 'maintenance',
          note: 'Brakes',
        }),
        expect.objectContaining({
          vehicle_id: second!.id,
          kind: 'blocked_date',
          from: d4,
          to: d4,
          reason: 'blocked_date',
        }),
      ]),
    );
    // blocks are not bookings: the bookings list is what it was
    expect(after.bookings.map((b) => b.id)).toEqual(before.bookings.map((b) => b.id));

    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a, { path: '/' });
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Planner' }).click();
    await page.getByRole('heading', { name: 'Planner', level: 1 }).waitFor();
    const row = (id: number) => page.locator(`[data-testid="planner-row"][data-vehicle-id="${id}"]`);
    const vendorBlock = row(first!.id).getByRole('img', {
      name: `Blocked by the vendor: maintenance — Brakes, ${d1} – ${d2}`,
    });
    await vendorBlock.waitFor();
    expect(await vendorBlock.textContent()).toBe('Blocked by the vendor: maintenance — Brakes');
    expect(await vendorBlock.getAttribute('data-testid')).toBe('planner-block');
    const dated = row(second!.id).getByRole('img', { name: `Blocked date (set on the vehicle), ${d4}` });
    await dated.waitFor();
    // drawn over its days: the vendor block spans the two day cells it covers
    const cell = await row(first!.id).locator(`[data-testid="planner-cell"][data-day="${d1}"]`).boundingBox();
    const bar = await vendorBlock.boundingBox();
    expect(Math.round(bar!.x)).toBe(Math.round(cell!.x));
    expect(Math.round(bar!.width)).toBe(Math.round(cell!.width * 2));
    // never a booking bar
    expect(await row(first!.id).getByTestId('planner-bar').filter({ hasText: 'Brakes' }).count()).toBe(0);
    await expectAxeClean(page, 'planner with blocks');
    expectNoPageErrors(a);
    await a.context.close();
  });
});
