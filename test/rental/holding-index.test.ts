import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingIndexOf } from '../../src/modules/rental/availability/holding-index.js';
import {
  HOLDS_TOPIC,
  cancelLapsedUnpaid,
  insertBooking,
  insertBookings,
  updateBooking,
} from '../../src/modules/rental/bookings/repo.js';
import { holdIntervals } from '../../src/modules/rental/availability/repo.js';
import type { BookingStatus } from '../../src/modules/rental/bookings/status.js';
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
  while (
    idx.overlaps(v, at('2000-01-01T00:00:00Z'), at('2000-01-02T00:00:00Z'), new Date()) === undefined &&
    Date.now() < until
  )
    await new Promise((r) => setTimeout(r, 2));
}

describe('holding index', () => {
  it('answers the overlap rule of the database: half-open intervals, holding statuses only, a pending hold until its deadline, one booking left out', async () => {
    const v = await vehicle(t);
    const idx = holdingIndexOf(t.platform);
    const confirmed = await rawBooking(t, v, '2031-03-10T10:00:00Z', '2031-03-12T10:00:00Z', 'confirmed');
    await rawBooking(t, v, '2031-04-10T10:00:00Z', '2031-04-12T10:00:00Z', 'cancelled');
    await rawBooking(t, v, '2031-05-10T10:00:00Z', '2031-05-12T10:00:00Z', 'pending_payment', {
      payment_deadline: '2031-01-01T00:00:00Z',
    });
    expect(
      idx.overlaps(v, at('2031-03-11T00:00:00Z'), at('2031-03-11T01:00:00Z'), new Date()),
      'reloading: ask the database',
    ).toBeUndefined();
    await settled(v);
    const now = at('2030-12-01T00:00:00Z');
    expect(idx.overlaps(v, at('2031-03-11T00:00:00Z'), at('2031-03-11T01:00:00Z'), now)).toBe(true);
    expect(
      idx.overlaps(v, at('2031-03-12T10:00:00Z'), at('2031-03-13T10:00:00Z'), now),
      'ends as the next begins',
    ).toBe(false);
    expect(
      idx.overlaps(v, at('2031-03-08T10:00:00Z'), at('2031-03-10T10:00:00Z'), now),
      'begins as the next ends',
    ).toBe(false);
    expect(
      idx.overlaps(v, at('2031-03-11T00:00:00Z'), at('2031-03-11T01:00:00Z'), now, confirmed),
      'the booking being changed',
    ).toBe(false);
    expect(
      idx.overlaps(v, at('2031-04-11T00:00:00Z'), at('2031-04-11T01:00:00Z'), now),
      'cancelled holds nothing',
    ).toBe(false);
    expect(idx.overlaps(v, at('2031-05-11T00:00:00Z'), at('2031-05-11T01:00:00Z'), now), 'before its deadline').toBe(
      true,
    );
    expect(
      idx.overlaps(v, at('2031-05-11T00:00:00Z'), at('2031-05-11T01:00:00Z'), at('2031-01-01T00:00:01Z')),
      'past its deadline',
    ).toBe(false);
    expect(idx.busy([v, v + 100_000], at('2031-03-11T00:00:00Z'), at('2031-05-11T00:00:00Z'), now)).toEqual({
      busy: new Set([v]),
      unsure: [],
    });
  });

  it('names what holds a slot as the overlap query does: a booking before a vendor block, else the block, else free', async () => {
    const v = await vehicle(t);
    const idx = holdingIndexOf(t.platform);
    await t.platform.db.execute(
      sql`INSERT INTO rental_vehicle_blocks (vehicle_id, from_date, to_date, starts_at, ends_at, reason, note)
        VALUES (${v}, '2032-02-01', '2032-02-05', '2032-02-01T00:00:00Z', '2032-02-06T00:00:00Z', 'maintenance', '')`,
    );
    const booked = await rawBooking(t, v, '2032-02-07T10:00:00Z', '2032-02-09T10:00:00Z', 'confirmed');
    await t.platform.bus.publish(HOLDS_TOPIC, `${v}`);
    await settled(v);
    const now = at('2032-01-01T00:00:00Z');
    expect(idx.takenBy(v, at('2032-02-02T00:00:00Z'), at('2032-02-03T00:00:00Z'), now), 'the block alone').toBe(
      'blocked',
    );
    expect(idx.takenBy(v, at('2032-02-03T00:00:00Z'), at('2032-02-08T00:00:00Z'), now), 'both: the booking').toBe(
      'booked',
    );
    expect(
      idx.takenBy(v, at('2032-02-03T00:00:00Z'), at('2032-02-08T00:00:00Z'), now, booked),
      'not that booking',
    ).toBe('blocked');
    expect(idx.takenBy(v, at('2032-02-09T10:00:00Z'), at('2032-02-10T00:00:00Z'), now)).toBe('free');
    const asked = async (pickup: string, ret: string) => {
      const r = await t.inject({
        method: 'POST',
        url: '/wp-json/rova-rental/v1/availability',
        payload: { vehicle_id: v, pickup_date: pickup, return_date: ret },
      });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().data.reason as string | undefined;
    };
    expect(await asked('2032-02-02', '2032-02-03')).toBe('blocked');
    expect(await asked('2032-02-08', '2032-02-09')).toBe('booked');
    expect(await asked('2032-02-12', '2032-02-14')).toBeUndefined();
  });

  it('a change made in a transaction is announced when it commits, and not at all when it rolls back', async () => {
    const v = await vehicle(t);
    const idx = holdingIndexOf(t.platform);
    await settled(v);
    const seen: string[] = [];
    const off = t.platform.bus.subscribe(HOLDS_TOPIC, (m) => seen.push(m));
    try {
      let id = 0;
      await t.platform.transaction(async (tx) => {
        await tx.execute(sql`SELECT 1`);
        id = await rawBookingIn(tx, v, 'confirmed');
        expect(seen, 'not before the commit').toEqual([]);
      });
      expect(seen, 'the booking, as vehicle:booking').toEqual([`${v}:${id}`]);
      await t.platform
        .transaction(async (tx) => {
          await rawBookingIn(tx, v, 'confirmed', '2032-06-10T10:00:00Z');
          throw new Error('roll back');
        })
        .catch(() => undefined);
      expect(seen).toEqual([`${v}:${id}`]);
    } finally {
      off();
    }
    await settled(v);
    expect(idx.overlaps(v, at('2032-03-11T00:00:00Z'), at('2032-03-11T01:00:00Z'), new Date())).toBe(true);
    expect(idx.overlaps(v, at('2032-06-11T00:00:00Z'), at('2032-06-11T01:00:00Z'), new Date())).toBe(false);
  });

  it('an announced booking is read alone and put in place of what the list held for it: the list ends as a whole reload reads it', async () => {
    const v = await vehicle(t);
    const other = await vehicle(t);
    const idx = holdingIndexOf(t.platform);
    const ids = [];
    for (let i = 0; i < 6; i++)
      ids.push(
        await rawBooking(
          t,
          v,
          `2034-0${i + 1}-10T10:00:00Z`,
          `2034-0${i + 1}-12T10:00:00Z`,
          i % 2 ? 'pending_payment' : 'confirmed',
          i % 2 ? { payment_deadline: '2033-12-01T00:00:00Z' } : {},
        ),
      );
    const seen: string[] = [];
    const off = t.platform.bus.subscribe(HOLDS_TOPIC, (m) => seen.push(m));
    try {
      await updateBooking(t.platform.db, ids[0]!, { status: 'cancelled' });
      await updateBooking(t.platform.db, ids[2]!, {
        pickup_at: '2034-07-01T10:00:00Z',
        return_at: '2034-07-03T10:00:00Z',
      });
      await t.platform.db.execute(
        sql`UPDATE rental_bookings SET payment_deadline = '2000-01-01T00:00:00Z' WHERE id = ${ids[1]!}`,
      );
      expect(await cancelLapsedUnpaid(t.platform.db, v)).toHaveLength(1);
      await insertBookings(t.platform.db, [
        {
          reference: `HI-bulk-${Date.now()}`,
          vehicle_id: other,
          pickup_at: '2034-09-10T10:00:00Z',
          return_at: '2034-09-12T10:00:00Z',
          days: 2,
          status: 'confirmed',
        },
      ]);
    } finally {
      off();
    }
    expect(seen, 'one booking each, and a bulk insert names the vehicle').toEqual([
      `${v}:${ids[0]}`,
      `${v}:${ids[2]}`,
      `${v}:${ids[1]}`,
      String(other),
    ]);
    await settled(v);
    const sorted = (l: readonly { id: number }[]) => [...l].sort((a, b) => a.id - b.id);
    const whole = await holdIntervals(t.platform.db, [v], new Date(Date.now() - 2 * 86_400_000));
    expect(
      whole.map((h) => h.id),
      'cancelled and lapsed left out',
    ).toHaveLength(4);
    expect(sorted(idx.stateOf(v)!)).toEqual(sorted(whole));
    expect(idx.overlaps(v, at('2034-07-02T00:00:00Z'), at('2034-07-02T01:00:00Z'), new Date()), 'moved to July').toBe(
      true,
    );
    expect(
      idx.overlaps(v, at('2034-03-11T00:00:00Z'), at('2034-03-11T01:00:00Z'), new Date()),
      'not in March any more',
    ).toBe(false);
    await settled(other);
    expect(
      idx.overlaps(other, at('2034-09-11T00:00:00Z'), at('2034-09-11T01:00:00Z'), new Date()),
      'the bulk insert, reloaded whole',
    ).toBe(true);
  });

  it('while cold, an announced booking reloads its vehicle whole (a list not loaded whole cannot take one booking)', async () => {
    const v = await vehicle(t);
    const idx = holdingIndexOf(t.platform);
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push(await rawBooking(t, v, `2035-0${i + 1}-10T10:00:00Z`, `2035-0${i + 1}-12T10:00:00Z`, 'confirmed'));
    await settled(v);
    // the index forgets the vehicle and goes cold, as after a failed load
    (idx as unknown as { byVehicle: Map<number, unknown> }).byVehicle.delete(v);
    (idx as unknown as { warm: boolean }).warm = false;
    await t.platform.bus.publish(HOLDS_TOPIC, `${v}:${ids[1]}`);
    const until = Date.now() + 5_000;
    while ((idx as unknown as { reloading: Map<number, number> }).reloading.has(v) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 2));
    (idx as unknown as { warm: boolean }).warm = true;
    expect(
      idx
        .stateOf(v)!
        .map((h) => h.id)
        .sort((a, b) => a - b),
    ).toEqual(ids);
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
    expect(
      (await avail(t, { vehicle_id: v, pickup_date: '2033-03-13', return_date: '2033-03-15' })).json().data.available,
    ).toBe(true);
  });
});

let n = 0;
async function rawBookingIn(
  tx: Db,
  v: number,
  status: BookingStatus,
  pickup = '2032-03-10T10:00:00Z',
): Promise<number> {
  n += 1;
  const ret = new Date(new Date(pickup).getTime() + 2 * 86_400_000).toISOString();
  return Number(
    (
      await insertBooking(tx, {
        reference: `HI-${n}-${Date.now()}`,
        vehicle_id: v,
        pickup_at: pickup,
        return_at: ret,
        days: 2,
        status,
      })
    ).id,
  );
}
