/**
 * POST /rova-rental/v2/booking/create: 100 connections booking random slots of 20 vehicles (most attempts
 * collide → 409, which is the point). When the run ends the bench counts, in the database, pairs of holding
 * bookings of one vehicle whose slots overlap, and prints the number: it must be 0. BENCH_DATABASE_URL=… for
 * PostgreSQL (use a fresh database).
 */
import { runScenario, type BenchRequest } from './lib/harness.js';

const pg = Boolean(process.env.BENCH_DATABASE_URL);

await runScenario(
  {
    name: pg ? 'booking-create-postgres' : 'booking-create-pglite',
    connections: 100,
    duration: 10,
    random: true,
    async setup() {
      const { buildApp, seedDemo } = await import('../src/app.js');
      const { loadConfig } = await import('../src/config.js');
      const { rows } = await import('../src/platform/db/types.js');
      const { sql } = await import('drizzle-orm');
      const config = loadConfig(
        { LOG_LEVEL: 'silent', STORE_CURRENCY: 'EUR', RENTAL_WRITE_RATE_LIMIT: '1000000000', ...(pg ? { DATABASE_URL: process.env.BENCH_DATABASE_URL! } : {}) },
        { ephemeral: true },
      );
      const { app, platform } = await buildApp(config, { logger: false });
      await seedDemo(platform);
      const u = await platform.auth.createUser({ login: 'bench-customer', email: 'bench@example.test', role: 'customer', password: 'bench password' });
      const { key } = await platform.auth.createApiKey({ userId: u.id, scopes: ['read', 'write'], name: 'bench' });
      const ids = (await rows<{ id: string }>(platform.db, sql`SELECT id FROM rental_vehicles WHERE status = 'active' AND service_type <> 'transfer' ORDER BY id LIMIT 20`)).map((r) => Number(r.id));
      let seed = 7;
      const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
      const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
      const requests: BenchRequest[] = [];
      for (let i = 0; i < 5000; i++) {
        const start = 100 + Math.floor(rnd() * 200);
        requests.push({
          method: 'POST', path: '/wp-json/rova-rental/v2/booking/create',
          headers: { 'content-type': 'application/json', 'x-rova-api-key': key },
          body: JSON.stringify({ vehicle_id: ids[Math.floor(rnd() * ids.length)], pickup_date: day(start), return_date: day(start + 1 + Math.floor(rnd() * 5)), payment_method: 'offline', payment_plan: 'deposit' }),
        });
      }
      const close = async () => {
        const [r] = await rows<{ n: number; held: number }>(platform.db, sql`SELECT
            (SELECT count(*)::int FROM rental_bookings a JOIN rental_bookings b ON a.vehicle_id = b.vehicle_id AND a.id < b.id
              AND a.holds_slot AND b.holds_slot AND a.slot && b.slot) AS n,
            (SELECT count(*)::int FROM rental_bookings WHERE source = 'storefront') AS held`);
        process.stdout.write(`\nbookings created: ${r!.held}; overlapping holding bookings: ${r!.n}\n`);
        await app.close();
      };
      return { app, requests, close };
    },
  },
  import.meta.url,
);
