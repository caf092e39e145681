import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { bookingsAtOnceOf } from '../../src/modules/rental/bookings/at-once.js';
import { readJourneySettings } from '../../src/modules/rental/bookings/settings.js';
import { writePath, type PathFacts } from '../../src/modules/rental/bookings/create/path.js';
import {
  BOOKINGS_AT_ONCE,
  ORDER_OF_BOOKING,
  statementSnapshot,
} from '../../src/modules/rental/bookings/create/statement.js';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { vehicle } from './helpers.js';

// The customer's booking statements are checked in as SQL (as immich-app/immich checks in its queries): a change of
// their text is a change of statement.sql in review. After a deliberate change:
// UPDATE_SQL_SNAPSHOT=1 npx vitest run test/rental/booking-statement.test.ts
const SNAPSHOT = new URL('../../src/modules/rental/bookings/create/statement.sql', import.meta.url);

describe('the booking statement', () => {
  it('is the text checked in as statement.sql', () => {
    if (process.env.UPDATE_SQL_SNAPSHOT === '1') writeFileSync(SNAPSHOT, statementSnapshot());
    expect(statementSnapshot()).toBe(readFileSync(SNAPSHOT, 'utf8'));
  });

  it('is fixed text: every value is a parameter ($1-$3 for the batch, $1-$2 for one booking)', () => {
    expect([...new Set(BOOKINGS_AT_ONCE.match(/\$\d+/g))].sort()).toEqual(['$1', '$2', '$3']);
    expect([...new Set(ORDER_OF_BOOKING.match(/\$\d+/g))].sort()).toEqual(['$1', '$2']);
    for (const text of [BOOKINGS_AT_ONCE, ORDER_OF_BOOKING]) {
      for (const write of [
        'INSERT INTO rova_events',
        'INSERT INTO rental_orders',
        'INSERT INTO rental_order_lines',
        'INSERT INTO rental_payments',
        'INSERT INTO rova_mail_outbox',
      ])
        expect(text, write).toContain(write);
    }
    expect(BOOKINGS_AT_ONCE).toContain('FOR UPDATE OF v SKIP LOCKED');
    expect(BOOKINGS_AT_ONCE).toContain('INSERT INTO rental_bookings');
  });
});

describe('writePath: which way a customer booking is written', () => {
  const base: PathFacts = { batching: true, keyed: false, signedIn: true, customerKnown: true };

  it('the one statement only for a signed-in customer with a known record, no Idempotency-Key, batching on', () => {
    expect(writePath(base)).toBe('statement');
    expect(writePath({ ...base, batching: false }), 'BOOKING_BATCHING=off').toBe('transaction');
    expect(writePath({ ...base, keyed: true }), 'the key commits with the booking').toBe('transaction');
    expect(writePath({ ...base, signedIn: false }), 'an API key acting for a customer').toBe('transaction');
    expect(writePath({ ...base, customerKnown: false }), "the account's first booking").toBe('transaction');
  });

  it('after the statement wrote nothing for it: the transaction decides, unless the vehicle is gone', () => {
    for (const tried of ['busy', 'no_customer', 'customer_changed', 'lapsed_holds', 'conflict', 'refused'] as const)
      expect(writePath(base, tried), tried).toBe('transaction');
    expect(writePath(base, 'no_vehicle')).toBe('not_found');
  });
});

describe('BOOKING_BATCHING', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  it('is on unless turned off (true/false, on/off, 1/0, yes/no)', () => {
    const settings = (env: Record<string, string>) =>
      readJourneySettings({ ...loadConfig({}, { ephemeral: true }), env }).batching;
    expect(settings({})).toBe(true);
    expect(settings({ BOOKING_BATCHING: 'off' })).toBe(false);
    expect(settings({ BOOKING_BATCHING: 'false' })).toBe(false);
    expect(settings({ BOOKING_BATCHING: '1' })).toBe(true);
    expect(() => settings({ BOOKING_BATCHING: 'sometimes' })).toThrow(
      'BOOKING_BATCHING must be true or false (got "sometimes")',
    );
  });

  /** Two bookings of one customer (the first makes its customer record): which of them went in the one statement. */
  async function batchedOf(env: Record<string, string>): Promise<number[]> {
    const t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', ...env } });
    apps.push(t);
    const at = bookingsAtOnceOf(t.platform);
    const batched: number[] = [];
    const book = at.book.bind(at);
    at.book = (item) => {
      batched.push(item.columns.vehicle_id);
      return book(item);
    };
    const { key } = await t.userWithKey('customer');
    const [v1, v2] = [await vehicle(t), await vehicle(t)];
    for (const v of [v1, v2]) {
      const r = await t.inject({
        method: 'POST',
        url: '/wp-json/rova-rental/v2/booking/create',
        headers: { 'x-rova-api-key': key },
        payload: {
          vehicle_id: v,
          pickup_date: '2044-03-01',
          return_date: '2044-03-03',
          payment_method: 'offline',
          payment_plan: 'deposit',
        },
      });
      expect(r.statusCode, r.body).toBe(201);
    }
    return batched.map((v) => [v1, v2].indexOf(v));
  }

  it("on: a known customer's booking goes in the one statement; off: every booking in a transaction of its own", async () => {
    expect(await batchedOf({}), 'the second booking (the first made the customer record)').toEqual([1]);
    expect(await batchedOf({ BOOKING_BATCHING: 'off' })).toEqual([]);
  }, 240_000);

  it('a driver and the accepted terms go in the one statement with the booking (and in the transaction of the first)', async () => {
    const t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
    apps.push(t);
    const admin = (await t.userWithKey('administrator')).key;
    const saved = await t.inject({
      method: 'PUT',
      url: '/wp-json/rova-rental/v2/driver-settings',
      headers: { 'x-rova-api-key': admin },
      payload: { terms_text: 'Drive carefully.', terms_version: '2044-1' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const at = bookingsAtOnceOf(t.platform);
    const batched: number[] = [];
    const book = at.book.bind(at);
    at.book = (item) => {
      batched.push(item.columns.vehicle_id);
      return book(item);
    };
    const { key } = await t.userWithKey('customer');
    const ids: number[] = [];
    for (const [i, v] of [await vehicle(t), await vehicle(t)].entries()) {
      const r = await t.inject({
        method: 'POST',
        url: '/wp-json/rova-rental/v2/booking/create',
        headers: { 'x-rova-api-key': key },
        payload: {
          vehicle_id: v,
          pickup_date: '2044-03-01',
          return_date: '2044-03-03',
          payment_method: 'offline',
          payment_plan: 'deposit',
          driver: { name: `Driver ${i}`, date_of_birth: '1980-05-0' + String(i + 1), licence_number: 'B 1234' },
          terms_accepted: true,
          terms_version: '2044-1',
        },
      });
      expect(r.statusCode, r.body).toBe(201);
      ids.push(Number(r.json().data.booking.id));
      if (i === 1) expect(batched, 'the second booking went in the one statement').toEqual([v]);
    }
    const drivers = await rows<Record<string, unknown>>(
      t.platform.db,
      sql`SELECT booking_id::text, name, to_char(date_of_birth, 'YYYY-MM-DD') AS date_of_birth, licence_number, terms_version,
            terms_accepted_at IS NOT NULL AS accepted
          FROM rental_booking_drivers WHERE booking_id = ANY(${`{${ids.join(',')}}`}::bigint[]) ORDER BY booking_id`,
    );
    expect(drivers).toEqual([
      {
        booking_id: String(ids[0]),
        name: 'Driver 0',
        date_of_birth: '1980-05-01',
        licence_number: 'B 1234',
        terms_version: '2044-1',
        accepted: true,
      },
      {
        booking_id: String(ids[1]),
        name: 'Driver 1',
        date_of_birth: '1980-05-02',
        licence_number: 'B 1234',
        terms_version: '2044-1',
        accepted: true,
      },
    ]);
  }, 240_000);
});
