/**
 * POST /rova-rental/v2/booking/create, contention: 100 connections booking random slots of 20 vehicles, so most
 * attempts collide and are refused (409) — the lock path under pressure. Reports 201 and 409 counts and p99
 * (target ≤ 100 ms); at the end the number of overlapping holding bookings, which must be 0.
 * BENCH_DATABASE_URL=… for PostgreSQL (a fresh database).
 */
import { bookingBench } from './lib/booking.js';
import { runScenario, type BenchRequest } from './lib/harness.js';

const pg = Boolean(process.env.BENCH_DATABASE_URL);

await runScenario(
  {
    name: pg ? 'booking-contention-postgres' : 'booking-contention-pglite',
    connections: 100,
    duration: 10,
    random: true,
    targets: { maxP99Ms: 100 },
    verdicts: ({ app }) => [
      {
        target: `every answer a 201 or a 409 (201: ${app.statuses['201'] ?? 0}, 409: ${app.statuses['409'] ?? 0})`,
        met: Object.keys(app.statuses).every((s) => s === '201' || s === '409') && app.errors === 0,
      },
    ],
    async setup() {
      const b = await bookingBench(20);
      let seed = 7;
      const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      const requests: BenchRequest[] = [];
      for (let i = 0; i < 5000; i++) {
        requests.push(
          b.create(
            b.vehicleIds[Math.floor(rnd() * b.vehicleIds.length)]!,
            100 + Math.floor(rnd() * 200),
            1 + Math.floor(rnd() * 5),
          ),
        );
      }
      return { app: b.app, requests, close: b.close };
    },
  },
  import.meta.url,
);
