import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPaymentReminders } from '../../src/modules/rental/bookings/reminders/service.js';
import { runHoldExpiry } from '../../src/modules/rental/bookings/jobs.js';
import { rows } from '../../src/platform/db/types.js';
import { twoNodes, type TwoNodes } from '../helpers/two-nodes.js';
import { DAY, HOUR, moveClock } from '../rental/clock.js';
import { vehicle } from '../rental/helpers.js';

// Issue 35.1: the payment reminder goes out once per booking, even when both nodes of a deployment run the job at
// the same moment, again and again; PostgreSQL, two pools.
const V2 = '/wp-json/rova-rental/v2';
let n: TwoNodes;
let admin: string;
beforeAll(async () => {
  n = await twoNodes({ RENTAL_WRITE_RATE_LIMIT: '1000000' });
  admin = (await n.a.userWithKey('administrator')).key;
}, 240_000);
afterAll(async () => n?.close());

describe('payment reminders on two nodes', () => {
  it('ten bank-transfer bookings near their deadline: both nodes run the job five times at once → ten reminders, one each', async () => {
    const v = await vehicle(n.a);
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await n.a.inject({
        method: 'POST',
        url: `${V2}/booking/create`,
        headers: { 'x-rova-api-key': admin },
        payload: {
          vehicle_id: v,
          pickup_date: `2041-0${1 + Math.floor(i / 3)}-${String(1 + (i % 3) * 9).padStart(2, '0')}`,
          return_date: `2041-0${1 + Math.floor(i / 3)}-${String(3 + (i % 3) * 9).padStart(2, '0')}`,
          payment_method: 'bank_transfer',
          payment_plan: 'full',
          customer: { name: 'Two Nodes', email: `reminded-${i}@example.test` },
        },
      });
      expect(r.statusCode, r.body).toBe(201);
      ids.push(r.json().data.booking.id as number);
    }
    await moveClock(n.a.platform.db, DAY + HOUR, ids); // 23 h before their deadlines
    const sent = await Promise.all(
      Array.from({ length: 5 }, () => [runPaymentReminders(n.a.platform), runPaymentReminders(n.b.platform)]).flat(),
    );
    expect(sent.reduce((a, x) => a + x, 0)).toBe(10);
    const mails = await rows<{ to_address: string; n: number }>(
      n.a.platform.db,
      sql`SELECT to_address, count(*)::int AS n FROM rova_mail_outbox WHERE template = 'payment_reminder' GROUP BY to_address ORDER BY to_address`,
    );
    expect(mails).toEqual(
      ids
        .map((_, i) => ({ to_address: `reminded-${i}@example.test`, n: 1 }))
        .sort((x, y) => x.to_address.localeCompare(y.to_address)),
    );
    // and the reminded bookings still hold until the deadline, then lapse
    expect(await runHoldExpiry(n.b.platform)).toBe(0);
    await moveClock(n.a.platform.db, DAY, ids);
    expect(await runHoldExpiry(n.b.platform)).toBe(10);
  });
});
