import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vehicle } from '../rental/helpers.js';
import { holdingIndexOf } from '../../src/modules/rental/availability/holding-index.js';
import { statementsDuring } from '../helpers/statements.js';
import { twoNodes, type TwoNodes } from '../helpers/two-nodes.js';

// The README ("Performance") promises at most this many statements for one POST /v2/booking/create by a
// customer's API key once its caches are warm, in one transaction (the pre-check is answered by the holding index).
const PROMISED = 7;
const V2 = '/wp-json/rova-rental/v2';
let n: TwoNodes;
beforeAll(async () => {
  n = await twoNodes({ RENTAL_WRITE_RATE_LIMIT: '1000000' });
}, 240_000);
afterAll(async () => {
  await n?.close();
});

describe('round trips of a booking', () => {
  it(`POST /v2/booking/create sends at most ${PROMISED} statements, one transaction, no lapsed-hold sweep and no re-read of what it wrote`, async () => {
    const v = await vehicle(n.a);
    const customer = (await n.a.userWithKey('customer')).key;
    const book = (y: number) => n.a.inject({ method: 'POST', url: `${V2}/booking/create`, headers: { 'x-rova-api-key': customer },
      payload: { vehicle_id: v, pickup_date: `${y}-05-01`, return_date: `${y}-05-03`, payment_method: 'offline', payment_plan: 'deposit' } });
    expect((await book(2041)).statusCode).toBe(201); // warms the key cache and makes the customer record
    // that booking's reload of the vehicle in node a's holding index is off its request's path: let it land, as it
    // has between two customers' requests (while it runs the index sends the pre-check to the database)
    const idx = holdingIndexOf(n.a.platform);
    const until = Date.now() + 10_000;
    while (idx.overlaps(v, new Date('2042-05-01T00:00:00Z'), new Date('2042-05-02T00:00:00Z'), new Date()) === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    let status = 0;
    let seen = await statementsDuring(async () => {
      status = (await book(2042)).statusCode;
    });
    expect(status).toBe(201);
    // each node reloads the vehicle in its holding index once the commit is announced: off the request's path
    const reloads = seen.filter((s) => s.startsWith('/* holding index */'));
    expect(reloads.length).toBeLessThanOrEqual(2);
    seen = seen.filter((s) => !s.startsWith('/* holding index */'));
    expect(seen.length, seen.join('\n')).toBeLessThanOrEqual(PROMISED);
    expect(seen.filter((s) => /^BEGIN/i.test(s))).toHaveLength(1);
    expect(seen.filter((s) => /^COMMIT/i.test(s))).toHaveLength(1);
    expect(seen.filter((s) => /^UPDATE rental_bookings/i.test(s)), 'no hold lapsed, so nothing is expired').toEqual([]);
    expect(seen.filter((s) => /FROM rova_api_keys|FROM rova_users/i.test(s)), 'the key is answered from memory').toEqual([]);
    expect(seen.filter((s) => /^SELECT .* FROM rental_bookings WHERE id =/i.test(s)), 'the booking is not read back').toEqual([]);
    expect(seen.filter((s) => /^INSERT INTO rental_bookings/i.test(s))).toHaveLength(1);
  }, 60_000);

  it('a booking of the slot of a lapsed unpaid hold cancels the hold in its own transaction and takes the slot', async () => {
    const v = await vehicle(n.a);
    const customer = (await n.a.userWithKey('customer')).key;
    const book = (y: number) => n.a.inject({ method: 'POST', url: `${V2}/booking/create`, headers: { 'x-rova-api-key': customer },
      payload: { vehicle_id: v, pickup_date: `${y}-05-01`, return_date: `${y}-05-03`, payment_method: 'offline', payment_plan: 'deposit' } });
    const first = await book(2043);
    expect(first.statusCode).toBe(201);
    const id = Number(first.json().data.booking.id);
    await n.a.platform.db.execute(sql`UPDATE rental_bookings SET status = 'pending_payment', payment_deadline = now() - interval '1 minute' WHERE id = ${id}`);
    const seen = await statementsDuring(async () => {
      expect((await book(2043)).statusCode).toBe(201);
    });
    expect(seen.filter((s) => /^UPDATE rental_bookings/i.test(s)).length).toBeGreaterThanOrEqual(1);
    expect(await rows(n.a.platform.db, sql`SELECT status FROM rental_bookings WHERE id = ${id}`)).toEqual([{ status: 'cancelled' }]);
  }, 60_000);
});
