/**
 * POST /rova-rental/v2/booking/create, writes: 100 connections, 250 vehicles, and every request a slot no other
 * request asks for (vehicle × a 3-day window, windows over the next ~20 years), so nearly every answer is a 201 and
 * the bench measures bookings written, not refusals. Runs pgbench on the same PostgreSQL first and sets the target
 * against it: created bookings per second ≥ 0.9 × pgbench's TPC-B tx/s, p99 ≤ 100 ms. Needs BENCH_DATABASE_URL
 * (a fresh database); on PGlite it runs without the pgbench reference.
 */
import { bookingBench, createRequest, type TermsAccepted } from './lib/booking.js';
import { runScenario, type BenchRequest } from './lib/harness.js';
import { pgbenchTps } from './lib/pgbench.js';

const url = process.env.BENCH_DATABASE_URL;
const VEHICLES = 250;
const WINDOWS = 2400; // 3-day windows: 250 × 2,400 = 600,000 distinct slots, more than a run can take

await runScenario(
  {
    name: url ? 'booking-throughput-postgres' : 'booking-throughput-pglite',
    connections: 100,
    duration: 10,
    once: true,
    targets: { maxP99Ms: 100 },
    before: async () => (url ? pgbenchTps(url) : { lines: ['pgbench: not run (no BENCH_DATABASE_URL)'], figures: {} }),
    verdicts: ({ app, duration, figures }) => {
      const created = (app.statuses['201'] ?? 0) / duration;
      const answered = Object.values(app.statuses).reduce((a, b) => a + b, 0);
      const out = [
        {
          target: `≥ 90 % of answers are 201 (${Math.round(((app.statuses['201'] ?? 0) / Math.max(1, answered)) * 100)} %)`,
          met: (app.statuses['201'] ?? 0) >= 0.9 * answered,
        },
      ];
      if (figures.pgbenchTps)
        out.push({
          target: `created bookings/s ≥ 0.9 × pgbench (${Math.round(created)} ≥ ${Math.round(figures.pgbenchTps * 0.9)}, ${(created / figures.pgbenchTps).toFixed(2)} ×)`,
          met: created >= figures.pgbenchTps * 0.9,
        });
      return out;
    },
    async setup() {
      const b = await bookingBench(VEHICLES);
      return {
        app: b.app,
        requests: { seed: { key: b.key, vehicleIds: b.vehicleIds, accepted: b.accepted } },
        close: b.close,
      };
    },
    // built in the parent: 600,000 bodies made in the server under test would stay in its resident memory
    requests(seed) {
      const { key, vehicleIds, accepted } = seed as { key: string; vehicleIds: number[]; accepted: TermsAccepted };
      // Window-major order: consecutive requests go to different vehicles, as real traffic would.
      const requests: BenchRequest[] = [];
      for (let w = 0; w < WINDOWS; w++)
        for (const v of vehicleIds) requests.push(createRequest(key, v, 30 + w * 3, 2, accepted));
      return requests;
    },
  },
  import.meta.url,
);
