/**
 * Report timing check (not part of the unit suite): seeds N synthetic bookings with the rental module's
 * seedBookings, then times every report and the dashboard for a 1-year range.
 *
 *   ROVA_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx test/rental/admin/perf-reports.ts [N=100000]
 *
 * Without ROVA_TEST_DATABASE_URL it runs on embedded PGlite (slower, not the reference figure).
 * Prints the best of 3 runs per endpoint and EXPLAIN ANALYZE of the daily revenue query.
 */
import { sql } from 'drizzle-orm';
import { seedBookings } from '../../../src/modules/rental/seed/bulk.js';
import { addDays, localDate } from '../../../src/modules/rental/shared/dates.js';
import { one, rows } from '../../../src/platform/db/types.js';
import { API, makeAdminApp } from './fixtures.js';

const N = Number(process.argv[2] ?? 100_000);
const LIMIT_MS = 500;

const t = await makeAdminApp({ STORE_TIMEZONE: 'Europe/Istanbul' });
try {
  const key = (await t.userWithKey('administrator')).key;
  let at = Date.now();
  await seedBookings(t.platform, N);
  await t.platform.db.execute(sql`ANALYZE`);
  const n = (await one<{ n: number }>(t.platform.db, sql`SELECT count(*)::int AS n FROM rental_bookings`))!.n;
  console.log(`seeded ${n} bookings in ${Date.now() - at} ms (${t.config.databaseUrl ? 'PostgreSQL' : 'PGlite'})`);

  const end = localDate(new Date(), 'Europe/Istanbul');
  const start = addDays(end, -364);
  const q = `start_date=${start}&end_date=${end}`;
  const paths = [
    ...['overview', 'revenue', 'bookings', 'vehicles', 'customers'].map((r) => `/reports/${r}?${q}`),
    '/dashboard/stats',
    '/dashboard/recent-bookings',
    '/dashboard/recent-transfers',
    '/customers?sort_by=total_spent',
    '/customers?sort_by=name&search=a',
  ];
  let failed = false;
  for (const p of paths) {
    const times: number[] = [];
    for (let i = 0; i < 4; i++) {
      at = performance.now();
      const r = await t.inject({ method: 'GET', url: `${API}${p}`, headers: { 'x-rova-api-key': key } });
      times.push(performance.now() - at);
      if (r.statusCode !== 200) throw new Error(`${p} → ${r.statusCode} ${r.body.slice(0, 300)}`);
    }
    const best = Math.min(...times.slice(1));
    const first = times[0]!;
    const ok = best <= LIMIT_MS;
    failed ||= !ok;
    console.log(
      `${ok ? 'ok  ' : 'SLOW'} ${best.toFixed(0).padStart(5)} ms best (cold ${first.toFixed(0)} ms)  GET ${p}`,
    );
  }
  const explained = await rows<Record<string, string>>(
    t.platform.db,
    sql`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)
        SELECT (b.created_at AT TIME ZONE 'Europe/Istanbul')::date AS day, sum(b.total) FILTER (WHERE b.status IN ('confirmed','completed'))
        FROM rental_bookings b
        WHERE b.created_at >= ((${start}::date)::timestamp AT TIME ZONE 'Europe/Istanbul')
          AND b.created_at < (((${end}::date) + 1)::timestamp AT TIME ZONE 'Europe/Istanbul') AND b.status <> 'draft'
        GROUP BY 1`,
  );
  console.log(
    '\nEXPLAIN ANALYZE (daily revenue aggregation):\n' + explained.map((r) => Object.values(r)[0]).join('\n'),
  );
  process.exitCode = failed ? 1 : 0;
} finally {
  await t.close();
}
