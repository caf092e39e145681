import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingIndexOf } from '../../src/modules/rental/availability/holding-index.js';
import { HOLDS_TOPIC, insertBooking } from '../../src/modules/rental/bookings/repo.js';
import type { Db } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { avail, rawBooking, vehicle } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ env: { RENTAL_PUBLIC_RATE_LIMIT: '100000', RENTAL_WRITE_RATE_LIMIT: '100000' } });
}, 240_000);
afterAll(async () => t?.close());

const at = (s: string) => new Date(s);
/** Resolves once the index has no reload in flight for the vehicle (its answer is no longer `undefined`). */
async function settled(v: number): Promise<void> {
  const idx = holdingIndexOf(t.platform);
  const until = Date.now() + 5_000;
  while (idx.overlaps(v, at('2000-01-01T00:00:00Z'), at('2000-01-02T00:00:00Z'), new Date()) === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 2));
}

describe('holding index', () => {
  it('answers the overlap rule of the database: half-open intervals, holding statuses only, a pending hold until its deadline, one booking left out', async () => {
    const v = await vehicle(t);
    const idx = holdingIndexOf(t.platform);
    const confirmed = await rawBooking(t, v, '2031-03-10T10:00:00Z', '2031-03-12T10:00:00Z', 'confirmed');
    await rawBooking(t, v, '2031-04-10T10:00:00Z', '2031-04-12T10:00:00Z', 'cancelled');
    await rawBooking(t, v, '2031-05-10T10:00:00Z', '2031-05-12T10:00:00Z', 'pending_payment', { payment_deadline: '2031-01-01T00:00:00Z' });
    expect(idx.overlaps(v, at('2031-03-11T00:00:00Z'), at('2031-03-11T01:00:00Z'), new Date()), 'reloading: ask the database').toBeUndefined();
    await settled(v);
    const now = at('2030-12-01T00:00:00Z');
    expect(idx.overlaps(v, at('2031-03-11T00:00:00Z'), at('2031-03-11T01:00:00Z'), now)).toBe(true);
    expect(idx.overlaps(v, at('2031-03-12T10:00:00Z'), at('2031-03-13T10:00:00Z'), now), 'ends as the next begins').toBe(false);
    expect(idx.overlaps(v, at('2031-03-08T10:00:00Z'), at('2031-03-10T10:00:00Z'), now), 'begins as the next ends').toBe(false);
    expect(idx.overlaps(v, at('2031-03-11T00:00:00Z'), at('2031-03-11T01:00:00Z'), now, confirmed), 'the booking being changed').toBe(false);
    expect(idx.overlaps(v, at('2031-04-11T00:00:00Z'), at('2031-04-11T01:00:00Z'), now), 'cancelled holds nothing').toBe(false);
    expect(idx.overlaps(v, at('2031-05-11T00:00:00Z'), at('2031-05-11T01:00:00Z'), now), 'before its deadline').toBe(true);
    expect(idx.overlaps(v, at('2031-05-11T00:00:00Z'), at('2031-05-11T01:00:00Z'), at('2031-01-01T00:00:01Z')), 'past its deadline').toBe(false);
    expect(idx.busy([v, v + 100_000], at('2031-03-11T00:00:00Z'), at('2031-05-11T00:00:00Z'), now)).toEqual({ busy: new Set([v]), unsure: [] });
  });

  it('a change made in a transaction is announced when it commits, and not at all when it rolls back', async () => {
    const v = await vehicle(t);
    const idx = holdingIndexOf(t.platform);
    await settled(v);
    const seen: string[] = [];
    const off = t.platform.bus.subscribe(HOLDS_TOPIC, (m) => seen.push(m));
    try {
      await t.platform.transaction(async (tx) => {
        await tx.execute(sql`SELECT 1`);
        await rawBookingIn(tx, v, 'confirmed');
        expect(seen, 'not before the commit').toEqual([]);
      });
      expect(seen).toEqual([String(v)]);
      await t.platform.transaction(async (tx) => {
        await rawBookingIn(tx, v, 'confirmed', '2032-06-10T10:00:00Z');
        throw new Error('roll back');
      }).catch(() => undefined);
      expect(seen).toEqual([String(v)]);
    } finally {
      off();
    }
    await settled(v);
    expect(idx.overlaps(v, at('2032-03-11T00:00:00Z'), at('2032-03-11T01:00:00Z'), new Date())).toBe(true);
    expect(idx.overlaps(v, at('2032-06-11T00:00:00Z'), at('2032-06-11T01:00:00Z'), new Date())).toBe(false);
  });

  it('"*" (the bus lost messages) makes it cold until reloaded; cold, availability asks the database and answers the same', async () => {
    const v = await vehicle(t);
    await rawBooking(t, v, '2033-03-10T10:00:00Z', '2033-03-12T10:00:00Z', 'confirmed');
    const idx = holdingIndexOf(t.platform);
    await t.platform.bus.publish(HOLDS_TOPIC, '*');
    expect(idx.ready).toBe(false);
    const cold = await avail(t, { vehicle_id: v, pickup_date: '2033-03-11', return_date: '2033-03-13' });
    expect(cold.json().data).toMatchObject({ available: false, reason: 'booked' });
    const until = Date.now() + 5_000;
    while (!idx.ready && Date.now() < until) await new Promise((r) => setTimeout(r, 2));
    expect(idx.ready).toBe(true);
    await settled(v);
    const warm = await avail(t, { vehicle_id: v, pickup_date: '2033-03-11', return_date: '2033-03-13' });
    expect(warm.json().data).toMatchObject({ available: false, reason: 'booked' });
    expect((await avail(t, { vehicle_id: v, pickup_date: '2033-03-13', return_date: '2033-03-15' })).json().data.available).toBe(true);
  });
});

let n = 0;
async function rawBookingIn(tx: Db, v: number, status: string, pickup = '2032-03-10T10:00:00Z'): Promise<void> {
  n += 1;
  const ret = new Date(new Date(pickup).getTime() + 2 * 86_400_000).toISOString();
  await insertBooking(tx, { reference: `HI-${n}-${Date.now()}`, vehicle_id: v, pickup_at: pickup, return_at: ret, days: 2, status });
}
