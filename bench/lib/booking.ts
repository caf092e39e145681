/**
 * Shared set-up of the booking-create scenarios: the real app on PGlite or BENCH_DATABASE_URL with the demo data,
 * one customer API key, the fleet grown to `vehicles` rentable cars (copies of the demo's), the store's rental terms
 * accepted in every request, and at the end the check that matters more than speed — holding bookings of one vehicle
 * whose slots overlap, which must be 0.
 */
import type { FastifyInstance } from 'fastify';
import type { BenchRequest } from './harness.js';

/** What a create body adds for the store's rental terms: their acceptance, or nothing when the store has none. */
export type TermsAccepted = { terms_accepted: true; terms_version: string } | Record<string, never>;

export interface BookingBench {
  app: FastifyInstance;
  key: string;
  vehicleIds: number[];
  /** The demo store asks for its terms (issue 36.4): the customer accepts the current version, as the widget does. */
  accepted: TermsAccepted;
  /** One request body per slot; `start` is days from today. */
  create(vehicleId: number, start: number, days: number): BenchRequest;
  close(): Promise<void>;
}

export async function bookingBench(vehicles: number): Promise<BookingBench> {
  const { buildApp, seedDemo } = await import('../../src/app.js');
  const { loadConfig } = await import('../../src/config.js');
  const { rows } = await import('../../src/platform/db/types.js');
  const { driverSettings, termsAsked } = await import('../../src/modules/rental/bookings/driver/settings.js');
  const { sql } = await import('drizzle-orm');
  const url = process.env.BENCH_DATABASE_URL;
  const config = loadConfig(
    {
      LOG_LEVEL: 'silent',
      STORE_CURRENCY: 'EUR',
      RENTAL_WRITE_RATE_LIMIT: '1000000000',
      ...(url ? { DATABASE_URL: url } : {}),
    },
    { ephemeral: true },
  );
  const { app, platform } = await buildApp(config, { logger: false });
  await seedDemo(platform);
  const u = await platform.auth.createUser({
    login: 'bench-customer',
    email: 'bench@example.test',
    role: 'customer',
    password: 'bench password',
  });
  const { key } = await platform.auth.createApiKey({ userId: u.id, scopes: ['read', 'write'], name: 'bench' });
  const terms = await driverSettings(platform);
  const accepted: TermsAccepted = termsAsked(terms) ? { terms_accepted: true, terms_version: terms.terms_version } : {};
  const rentable = sql`status = 'active' AND service_type <> 'transfer'`;
  const have = (
    await rows<{ id: string }>(platform.db, sql`SELECT id FROM rental_vehicles WHERE ${rentable} ORDER BY id`)
  ).map((r) => Number(r.id));
  if (have.length < vehicles) {
    // Copies of the demo cars (every column but the identity ones), so prices and rules stay the demo's.
    const cols = (
      await rows<{ c: string }>(
        platform.db,
        sql`SELECT column_name AS c FROM information_schema.columns
      WHERE table_name = 'rental_vehicles' AND table_schema = current_schema() AND column_name NOT IN ('id', 'name', 'slug', 'created_at', 'updated_at')
      ORDER BY ordinal_position`,
      )
    )
      .map((r) => `"${r.c}"`)
      .join(', ');
    const copies = Math.ceil((vehicles - have.length) / have.length);
    await platform.db.execute(
      sql.raw(`INSERT INTO rental_vehicles (name, slug, ${cols})
      SELECT v.name || ' #' || g, v.slug || '-bench-' || g, ${cols
        .split(', ')
        .map((c) => `v.${c}`)
        .join(', ')}
      FROM rental_vehicles v CROSS JOIN generate_series(1, ${copies}) AS g WHERE v.id IN (${have.join(',')})`),
    );
  }
  const vehicleIds = (
    await rows<{ id: string }>(
      platform.db,
      sql`SELECT id FROM rental_vehicles WHERE ${rentable} ORDER BY id LIMIT ${vehicles}`,
    )
  ).map((r) => Number(r.id));
  return {
    app,
    key,
    vehicleIds,
    accepted,
    create: (vehicleId, start, days) => createRequest(key, vehicleId, start, days, accepted),
    async close() {
      const [r] = await rows<{ n: number; held: number }>(
        platform.db,
        sql`SELECT
          (SELECT count(*)::int FROM rental_bookings a JOIN rental_bookings b ON a.vehicle_id = b.vehicle_id AND a.id < b.id
            AND a.holds_slot AND b.holds_slot AND a.slot && b.slot) AS n,
          (SELECT count(*)::int FROM rental_bookings WHERE source = 'storefront') AS held`,
      );
      process.stdout.write(`\nbookings created: ${r!.held}; overlapping holding bookings: ${r!.n} (must be 0)\n`);
      await app.close();
    },
  };
}

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** POST /booking/create of one slot (`start`: days from today), as `key`'s customer, who accepted the terms. */
export function createRequest(
  key: string,
  vehicleId: number,
  start: number,
  days: number,
  accepted: TermsAccepted,
): BenchRequest {
  return {
    method: 'POST',
    path: '/wp-json/rova-rental/v2/booking/create',
    headers: { 'content-type': 'application/json', 'x-rova-api-key': key },
    body: JSON.stringify({
      vehicle_id: vehicleId,
      pickup_date: day(start),
      return_date: day(start + days),
      payment_method: 'offline',
      payment_plan: 'deposit',
      ...accepted,
    }),
  };
}
