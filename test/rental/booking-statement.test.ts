import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writePath, type PathFacts } from '../../src/modules/rental/journey/create/path.js';
import {
  BOOKINGS_AT_ONCE,
  ORDER_OF_BOOKING,
  statementSnapshot,
} from '../../src/modules/rental/journey/create/statement.js';

// The customer's booking statements are checked in as SQL (as immich-app/immich checks in its queries): a change of
// their text is a change of statement.sql in review. After a deliberate change:
// UPDATE_SQL_SNAPSHOT=1 npx vitest run test/rental/booking-statement.test.ts
const SNAPSHOT = new URL('../../src/modules/rental/journey/create/statement.sql', import.meta.url);

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
