/**
 * GET /rova-rental/v2/vehicles/search with the date filter on (every card priced for the dates, busy vehicles
 * excluded by one overlap query) over the demo fleet (20+ vehicles) plus 20,000 bulk bookings, cycling 4
 * currencies (base + 3 enabled), vs a bare route. BENCH_DATABASE_URL=postgres://… runs it on PostgreSQL.
 */
import { runScenario, type BenchRequest } from './lib/harness.js';

const pg = Boolean(process.env.BENCH_DATABASE_URL);

await runScenario(
  {
    name: pg ? 'search-postgres' : 'search-pglite',
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
      const currencies = ['EUR', 'USD', 'GBP', 'TRY'];
      const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
      const requests: BenchRequest[] = [];
      for (let i = 0; i < 200; i++) {
        const start = 1 + (i % 90);
        const sort = ['relevance', 'price_asc', 'price_desc', 'name', 'year_desc'][i % 5];
        requests.push({
          method: 'GET',
          path: `/wp-json/rova-rental/v2/vehicles/search?pickup_date=${day(start)}&return_date=${day(start + 1 + (i % 7))}&sort=${sort}&currency=${currencies[i % 4]}`,
        });
      }
      return { app, requests };
    },
  },
  import.meta.url,
);
