import { sql } from 'drizzle-orm';
import type { Platform } from '../../../platform/context.js';
import { one, type Db } from '../../../platform/db/types.js';
import { catalogueChanged } from '../catalogue.js';
import { insertCustomers, type CustomerRow } from '../customers/repo.js';
import type { CustomerInsert } from '../customers/schema.js';
import { insertLocation } from '../locations/repo.js';
import { quote } from '../pricing/engine.js';
import { allRules, insertRule } from '../pricing/repo.js';
import type { PricingRuleInsert } from '../pricing/schema.js';
import { insertBookings } from '../bookings/repo.js';
import type { BookingInsert } from '../bookings/schema.js';
import type { BookingStatus } from '../bookings/status.js';
import { rentalSettings } from '../settings.js';
import { insertRoute } from '../transfer-routes/repo.js';
import { routePrice } from '../transfer-routes/routes.js';
import { insertVehicle, type VehicleRow } from '../vehicles/repo.js';
import { utcToLocal } from '../time.js';
import { DEMO_LOCATIONS, DEMO_VEHICLES, FIRST, LAST } from './data.js';
import { prng } from '../../../platform/prng.js';
import { seedDemoTerms } from './terms.js';

const DAY = 86_400_000;

async function seedCatalogue(
  tx: Db,
  currency: string,
  now: Date,
): Promise<{ vehicles: VehicleRow[]; locIds: number[] }> {
  const locIds: number[] = [];
  for (const l of DEMO_LOCATIONS)
    locIds.push(Number((await insertLocation(tx, { ...l, address: `${l.name}, ${l.city}` })).id));
  const vehicles: VehicleRow[] = [];
  for (const [
    i,
    [name, category, brand, model, price, seats, transmission, fuel, service],
  ] of DEMO_VEHICLES.entries()) {
    vehicles.push(
      await insertVehicle(tx, {
        name,
        slug: `demo-${name
          .toLowerCase()
          .normalize('NFKD')
          .replace(/[^a-z0-9]+/g, '-')}`,
        category,
        brand,
        model,
        price_per_day: price.toFixed(2),
        seats,
        doors: seats > 5 ? 4 : 5,
        transmission,
        fuel_type: fuel,
        service_type: service,
        year: 2019 + (i % 6),
        features: ['air_conditioning', 'bluetooth', ...(transmission === 'automatic' ? ['cruise_control'] : [])],
        location_id: locIds[i % locIds.length],
        currency,
        status: i === 6 ? 'maintenance' : 'active',
        deposit_percent: category === 'premium' ? '30' : null,
        transfer_max_passengers: service === 'rental' ? null : seats - 1,
        transfer_max_luggage: service === 'rental' ? null : seats,
        blocked_dates: [],
        // the fleet was built up over the past year (a vehicle added "now" shows as this month's growth on the dashboard)
        created_at: new Date(now.getTime() - (200 + i * 9) * DAY).toISOString(),
      }),
    );
  }
  await insertRoute(tx, {
    origin: 'Istanbul Airport',
    destination: 'Taksim',
    origin_location_id: locIds[0],
    destination_location_id: locIds[2],
    distance_km: '45',
    duration_min: 60,
    pricing: 'fixed',
    base_price: '60.00',
  });
  await insertRoute(tx, {
    origin: 'Antalya Airport',
    destination: 'Antalya Marina',
    origin_location_id: locIds[4],
    destination_location_id: locIds[5],
    distance_km: '18',
    duration_min: 30,
    pricing: 'calculated',
    base_price: '10.00',
    price_per_km: '1.50',
    min_price: '35.00',
  });
  await insertRoute(tx, {
    origin: 'Izmir Airport',
    destination: 'Alsancak',
    origin_location_id: locIds[6],
    destination_location_id: locIds[7],
    distance_km: '20',
    duration_min: 35,
    pricing: 'calculated',
    base_price: '12.00',
    price_per_km: '1.40',
    min_price: '40.00',
  });
  const rules: PricingRuleInsert[] = [
    {
      name: 'Summer season',
      kind: 'season',
      start_date: '2000-06-15',
      end_date: '2000-09-15',
      recurring: true,
      multiplier: '1.25',
    },
    {
      name: 'Winter low season',
      kind: 'season',
      start_date: '2000-11-15',
      end_date: '2000-03-01',
      recurring: true,
      multiplier: '0.9',
    },
    { name: 'Weekend', kind: 'weekend', multiplier: '1.1' },
    { name: 'Week or longer', kind: 'duration', min_days: 7, percent: '-10' },
    { name: 'Month or longer', kind: 'duration', min_days: 21, percent: '-15' },
    { name: 'Child seat', kind: 'addon', code: 'child_seat', amount: '5.00', charge: 'per_day', max_per_day: 3 },
    { name: 'Additional driver', kind: 'addon', code: 'extra_driver', amount: '25.00', charge: 'per_booking' },
    { name: 'Full insurance', kind: 'addon', code: 'full_insurance', amount: '12.00', charge: 'per_day' },
    { name: 'VAT', kind: 'tax', percent: '18' },
    { name: 'Deposit', kind: 'deposit', percent: '20' },
    { name: 'One-way fee', kind: 'one_way', amount: '35.00' },
  ];
  for (const r of rules) await insertRule(tx, { scope: 'global', ...r });
  return { vehicles, locIds };
}

/** "Ayşe Yılmaz" → "ayse.yilmaz": accents dropped (not turned into dots), the dotless ı as i. */
export function emailLocalPart(name: string): string {
  return name
    .toLowerCase()
    .replaceAll('ı', 'i')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z]+/g, '.')
    .replace(/^\.|\.$/g, '');
}

/**
 * Demo data: 8 locations, 20 vehicles, 3 transfer routes, pricing rules, 60 customers, ~200 bookings, and rental
 * terms for customers to accept (seed/terms.ts). Idempotent, deterministic.
 */
export async function seedRentalDemo(p: Platform, now = new Date()): Promise<void> {
  const s = rentalSettings(p);
  const done = await one(p.db, sql`SELECT 1 FROM rental_locations WHERE slug = 'ist-airport'`);
  if (done) return;
  await p.transaction(async (tx) => {
    const { vehicles } = await seedCatalogue(tx, p.storeCurrency.code, now);
    const rules = await allRules(tx);
    const rnd = prng(20260301);
    const people: CustomerInsert[] = [];
    for (let i = 0; i < 60; i++) {
      const name = `${rnd.pick(FIRST)} ${rnd.pick(LAST)}`;
      const email = `${emailLocalPart(name)}.${i + 1}@example.com`;
      people.push({
        name,
        email,
        phone: `+90 5${rnd.int(30, 59)} ${rnd.int(100, 999)} ${rnd.int(1000, 9999)}`,
        address: `${rnd.int(1, 200)} Demo Street`,
        created_at: new Date(now.getTime() - rnd.int(30, 240) * DAY).toISOString(),
      });
    }
    // one statement each for the customers and the bookings: a first start seeds in a fraction of the time
    const customers: CustomerRow[] = await insertCustomers(tx, people);
    const bookings: BookingInsert[] = [];
    const routes = (await tx.execute(sql`SELECT * FROM rental_transfer_routes ORDER BY id`)) as unknown as {
      rows: Parameters<typeof routePrice>[0][];
    };
    let n = 0;
    for (const v of vehicles.filter((x) => x.status === 'active')) {
      let t = now.getTime() - 182 * DAY + rnd.int(0, 5) * DAY;
      while (t < now.getTime() + 45 * DAY && n < 200) {
        const transfer = v.service_type !== 'rental' && rnd.next() < 0.35;
        const days = transfer ? 1 : rnd.int(1, 12);
        const pickup = new Date(Math.floor(t / DAY) * DAY + rnd.int(7, 12) * 3_600_000);
        const ret = new Date(pickup.getTime() + (transfer ? 3_600_000 : days * DAY));
        const c = rnd.pick(customers);
        const past = ret.getTime() < now.getTime();
        const current = pickup.getTime() <= now.getTime() && !past;
        const roll = rnd.next();
        const status: BookingStatus = current
          ? 'in_progress'
          : past
            ? roll < 0.7
              ? 'completed'
              : roll < 0.85
                ? 'cancelled'
                : roll < 0.93
                  ? 'refunded'
                  : 'no_show'
            : roll < 0.5
              ? 'confirmed'
              : roll < 0.65
                ? 'pending_payment'
                : roll < 0.8
                  ? 'pending'
                  : roll < 0.9
                    ? 'draft'
                    : 'cancelled';
        const waiting = status === 'pending_payment' || status === 'pending';
        // booked 1–25 days ahead of pick-up, and never in the future: an upcoming booking was made some time in the past
        // weeks (clamping them all to "an hour ago" drew a spike of that day's bookings on the dashboard)
        const ahead = rnd.int(1, 25) * DAY + rnd.int(0, 23) * 3_600_000;
        const created = new Date(
          pickup.getTime() - ahead < now.getTime() - 3_600_000 ? pickup.getTime() - ahead : now.getTime() - ahead,
        );
        const addons = !transfer && rnd.next() < 0.3 ? ['child_seat'] : [];
        const q = quote(
          {
            id: Number(v.id),
            category: v.category,
            price_per_day: v.price_per_day,
            deposit_percent: v.deposit_percent,
          },
          rules,
          utcToLocal(pickup, s.timezone).date,
          days,
          addons,
        );
        const route = transfer ? rnd.pick(routes.rows) : null;
        const price = route ? routePrice(route) : 0;
        const tax = route ? Math.round(price * 18) / 100 : q.tax;
        n += 1;
        bookings.push({
          reference: `RB-DEMO${String(n).padStart(4, '0')}`,
          vehicle_id: Number(v.id),
          customer_id: Number(c.id),
          customer_name: c.name,
          customer_email: c.email,
          customer_phone: c.phone,
          kind: transfer ? 'transfer' : 'rental',
          transfer_route_id: route ? Number(route.id) : null,
          transfer_origin: route?.origin ?? null,
          transfer_destination: route?.destination ?? null,
          passengers: route ? rnd.int(1, 6) : null,
          pickup_location_id: v.location_id,
          return_location_id: v.location_id,
          pickup_at: pickup.toISOString(),
          return_at: ret.toISOString(),
          days,
          price_per_day: route ? price.toFixed(2) : String(q.price_per_day),
          net_price: route ? price.toFixed(2) : String(q.net_price),
          addons_total: route ? '0' : String(q.addons_total),
          tax: String(tax),
          total: route ? (price + tax).toFixed(2) : String(q.total),
          deposit: route ? '0' : String(q.deposit),
          remaining: route ? (price + tax).toFixed(2) : String(q.remaining),
          currency: p.storeCurrency.code,
          addons: route ? [] : q.breakdown.addons,
          breakdown: route ? null : q.breakdown,
          payment_status: ['completed', 'in_progress'].includes(status)
            ? 'paid'
            : status === 'refunded'
              ? 'refunded'
              : status === 'confirmed'
                ? 'deposit_paid'
                : 'unpaid',
          // the ones waiting for payment are pay-at-pick-up reservations (no deadline): a demo server restarted a day
          // later must not find them lapsed, cancel them and mail their customers (issue 35.1)
          payment_method: ((m) => (waiting ? 'pay_at_pickup' : m))(
            rnd.pick(['card', 'bank_transfer', 'cash', 'paypal']),
          ),
          payment_deadline: null,
          status,
          source: 'demo',
          created_at: created.toISOString(),
          updated_at: created.toISOString(),
        });
        t = ret.getTime() + rnd.int(1, 8) * DAY;
      }
    }
    for (let i = 0; i < bookings.length; i += 100) await insertBookings(tx, bookings.slice(i, i + 100));
  });
  await seedDemoTerms(p);
  await catalogueChanged(p);
}
