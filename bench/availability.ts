/**
 * POST /rova-rental/v1/availability for random demo vehicles and dates (demo data + 20,000 bulk bookings so
 * the overlap query has rows to look at), vs a bare route answering the same-size JSON. The public read
 * limiter stays ON with a huge limit, so its cost is measured. BENCH_DATABASE_URL=postgres://… runs it on
 * PostgreSQL (use a fresh database), else embedded PGlite.
 */
import { runScenario, type BenchRequest } from './lib/harness.js';

const pg = Boolean(process.env.BENCH_DATABASE_URL);

await runScenario(
  {
    name: pg ? 'availability-postgres' : 'availability-pglite',
    connections: 50,
    duration: 10,
    targets: { minRatio: 0.5, maxP99Ms: 15 },
    async setup() {
      const { buildApp, seedDemo } = await import('../src/app.js');
      const { loadConfig } = await import('../src/config.js');
      const { rentalModule } = await import('../src/modules/rental/module.js');
      const config = loadConfig(
        {
          LOG_LEVEL: 'silent',
          STORE_CURRENCY: 'EUR',
          STORE_TIMEZONE: 'Europe/Istanbul',
          RENTAL_PUBLIC_RATE_LIMIT: '1000000000',
          ...(pg ? { DATABASE_URL: process.env.BENCH_DATABASE_URL! } : {}),
        },
        { ephemeral: true },
      );
      const { app, platform } = await buildApp(config, { logger: false });
      await seedDemo(platform);
      await rentalModule.seedBookings!(platform, 20_000);
      const list = (await app.inject({ method: 'GET', url: '/wp-json/rova-rental/v1/locations' })).json() as {
        success: boolean;
      };
      if (!list.success) throw new Error('locations failed');
      const { rows } = await import('../src/platform/db/types.js');
      const { sql } = await import('drizzle-orm');
      const ids = (
        await rows<{ id: string }>(platform.db, sql`SELECT id FROM rental_vehicles WHERE status = 'active' ORDER BY id`)
      ).map((r) => Number(r.id));
      let seed = 42;
      const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
      const requests: BenchRequest[] = [];
      for (let i = 0; i < 500; i++) {
        const start = 1 + Math.floor(rnd() * 120);
        const len = 1 + Math.floor(rnd() * 14);
        requests.push({
          method: 'POST',
          path: '/wp-json/rova-rental/v1/availability',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            vehicle_id: ids[Math.floor(rnd() * ids.length)],
            pickup_date: day(start),
            return_date: day(start + len),
            ...(i % 3 === 0 ? { addons: ['child_seat'] } : {}),
          }),
        });
      }
      return { app, requests };
    },
  },
  import.meta.url,
);
