import { sql } from 'drizzle-orm';
import type { Platform } from '../../../platform/context.js';
import { announceOnCommit } from '../../../platform/db/announce.js';
import { one } from '../../../platform/db/types.js';
import { HOLDS_TOPIC } from '../bookings/repo.js';
import { seedRentalDemo } from './demo.js';
import { refreshPlannerStatistics } from '../../../platform/db/statistics.js';

/**
 * `rova seed --bookings N`: N synthetic bookings in one INSERT … SELECT generate_series per 50,000 rows,
 * over the existing vehicles and customers (the demo is seeded first when there are none). Mostly
 * non-blocking statuses so availability stays meaningful; prices are days × price_per_day + 18 % tax.
 */
export async function seedBookings(p: Platform, count: number): Promise<void> {
  if (
    !(await one(p.db, sql`SELECT 1 FROM rental_vehicles LIMIT 1`)) ||
    !(await one(p.db, sql`SELECT 1 FROM rental_customers LIMIT 1`))
  )
    await seedRentalDemo(p);
  const currency = p.storeCurrency.code;
  for (let done = 0; done < count; done += 50_000) {
    const n = Math.min(50_000, count - done);
    await p.transaction(async (tx) => {
      await tx.execute(sql`
        WITH v AS (SELECT id, price_per_day, location_id, row_number() OVER (ORDER BY id) - 1 AS i, count(*) OVER () AS n FROM rental_vehicles),
             c AS (SELECT id, name, email, phone, row_number() OVER (ORDER BY id) - 1 AS i, count(*) OVER () AS n FROM rental_customers),
             g AS (SELECT g, (random() * 1e9)::bigint AS r1, (random() * 1e9)::bigint AS r2, 1 + (random() * 9)::int AS days,
                          now() - interval '180 days' + (random() * 240) * interval '1 day' AS pickup, random() AS s
                   FROM generate_series(1, ${n}) AS g)
        INSERT INTO rental_bookings (reference, vehicle_id, customer_id, customer_name, customer_email, customer_phone, kind,
          pickup_location_id, return_location_id, pickup_at, return_at, days, price_per_day, net_price, tax, total, deposit, remaining,
          currency, payment_status, payment_method, status, source, created_at, updated_at)
        SELECT 'RB-B' || md5(random()::text || g.g::text), v.id, c.id, c.name, c.email, c.phone, 'rental',
          v.location_id, v.location_id, g.pickup, g.pickup + g.days * interval '1 day', g.days, v.price_per_day,
          v.price_per_day * g.days, round(v.price_per_day * g.days * 0.18, 2), round(v.price_per_day * g.days * 1.18, 2),
          0, round(v.price_per_day * g.days * 1.18, 2), ${currency},
          CASE WHEN g.s < 0.7 THEN 'paid' ELSE 'unpaid' END, 'card',
          CASE WHEN g.s < 0.7 THEN 'completed' WHEN g.s < 0.9 THEN 'cancelled' WHEN g.s < 0.95 THEN 'refunded' ELSE 'no_show' END,
          'bulk', g.pickup - interval '7 days', g.pickup - interval '7 days'
        FROM g JOIN v ON v.i = g.r1 % v.n JOIN c ON c.i = g.r2 % c.n`);
      announceOnCommit(tx, HOLDS_TOPIC, ['*']);
    });
  }
  await refreshPlannerStatistics(p.db);
}
