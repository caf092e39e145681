import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBookings } from '../../src/modules/rental/seed/bulk.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { plannerCounts } from '../helpers/planner-counts.js';

// A bulk write leaves the query planner the row counts it wrote. PGlite runs no autovacuum: without ANALYZE its
// planner takes every table for empty (reltuples -1) after the demo seed, `rova seed --bookings` or an import (that
// one is checked on a real WordPress site's import, test/import/wordpress-real.test.ts).
let empty: TestApp;
let t: TestApp;
beforeAll(async () => {
  [empty, t] = await Promise.all([makeApp({ demo: false }), makeApp({ demo: true })]);
});
afterAll(async () => {
  await empty?.close();
  await t?.close();
});

describe('planner statistics after bulk writes', () => {
  it('a fresh store has none', async () => {
    expect(await plannerCounts(empty.platform.db)).toEqual([
      { relname: 'rental_bookings', planned: -1, actual: 0 },
      { relname: 'rental_vehicles', planned: -1, actual: 0 },
    ]);
  });

  it('the demo seed and `rova seed --bookings` leave the counts they wrote', async () => {
    const seeded = await plannerCounts(t.platform.db);
    for (const r of seeded) {
      expect(r.actual, r.relname).toBeGreaterThan(0);
      expect(r.planned, `${r.relname}: the planner's row count after the demo seed`).toBe(r.actual);
    }
    const before = seeded.find((r) => r.relname === 'rental_bookings')!.actual;
    await seedBookings(t.platform, 400);
    const bookings = (await plannerCounts(t.platform.db)).find((r) => r.relname === 'rental_bookings')!;
    expect(bookings.actual).toBe(before + 400);
    expect(bookings.planned, "the planner's row count after the bulk bookings").toBe(bookings.actual);
  });
});
