import { sql } from 'drizzle-orm';
import type { Platform } from '../../../platform/context.js';
import type { AuthUser } from '../../../platform/auth/types.js';
import { insertUser } from '../../../platform/auth/repo.js';
import { one } from '../../../platform/db/types.js';
import { insertBooking } from '../bookings/repo.js';
import { catalogueChanged } from '../catalogue.js';
import { clearCommission } from '../ledger/clearing.js';
import { applyBookingCommission } from '../ledger/commission.js';
import { recordVendorAudit } from '../ledger/audit.js';
import {
  applyWithdrawalPenalty,
  monthlyAverageIncome,
  penaltyAmount,
  penaltyRate,
  withdrawalCount,
} from '../ledger/penalty.js';
import { recomputeReliability } from '../ledger/score.js';
import { marketplaceSettingsIn } from '../ledger/settings.js';
import { requestPayout } from '../payouts/service.js';
import { insertVehicle } from '../vehicles/repo.js';
import { insertApplication, insertDocument } from '../vendors/applications/repo.js';
import { encryptIban } from '../vendors/iban.js';
import { fileReport } from '../vendors/reports/service.js';
import { storeDocument } from '../vendors/applications/uploads.js';
import { setLifecycle } from '../vehicles/vendor-repo.js';
import { hideListedVehicles, setVendorStatus } from '../vendors/repo.js';
import { prng } from '../../../platform/prng.js';

const DAY = 86_400_000;

/** The demo vendor login (docs/staff/vendor-portal.md): Anatolia Cars signs in to the vendor portal with it. */
export const DEMO_VENDOR_LOGIN = 'demo-vendor-anatolia';
export const DEMO_VENDOR_PASSWORD = 'demo-vendor-2026';

interface DemoVendor {
  login: string;
  name: string;
  city: string;
  iban: string;
  status: 'active' | 'suspended';
  cars: [name: string, category: string, brand: string, model: string, price: number][];
}

const VENDORS: DemoVendor[] = [
  {
    login: DEMO_VENDOR_LOGIN,
    name: 'Anatolia Cars',
    city: 'Antalya',
    iban: 'TR330006100519786457841326',
    status: 'active',
    cars: [
      ['Renault Clio (Anatolia)', 'economy', 'Renault', 'Clio', 38],
      ['Toyota Corolla (Anatolia)', 'compact', 'Toyota', 'Corolla', 52],
      ['Fiat Doblo (Anatolia)', 'van', 'Fiat', 'Doblo', 61],
    ],
  },
  {
    login: 'demo-vendor-bosphorus',
    name: 'Bosphorus Rent',
    city: 'Istanbul',
    iban: 'DE89370400440532013000',
    status: 'active',
    cars: [
      ['VW Passat (Bosphorus)', 'midsize', 'Volkswagen', 'Passat', 74],
      ['Hyundai Tucson (Bosphorus)', 'suv', 'Hyundai', 'Tucson', 89],
    ],
  },
  {
    login: 'demo-vendor-aegean',
    name: 'Aegean Wheels',
    city: 'Izmir',
    iban: 'GB82WEST12345698765432',
    status: 'suspended',
    cars: [['Dacia Sandero (Aegean)', 'economy', 'Dacia', 'Sandero', 33]],
  },
];

/** The smallest well-formed PDF and PNG: enough for the sniffing and the admin download links. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
);
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const asUser = (id: number, login: string, name: string): AuthUser => ({
  id,
  login,
  email: `${login}@example.com`,
  displayName: name,
  role: 'vendor',
});

/**
 * Marketplace demo (issue 8): two active vendors with listed vehicles and a year of completed bookings (commission
 * and clearing through the ledger functions, so `rova ledger verify` is clean), a withdrawal penalty, one open
 * penalty appeal and one pending payout; a suspended vendor whose listing is hidden; a pending application with
 * its documents. Bookings are `source = 'marketplace-demo'`; vehicle slugs start with `market-`. Idempotent.
 */
export async function seedMarketplaceDemo(p: Platform, now = new Date()): Promise<void> {
  if (await one(p.db, sql`SELECT 1 FROM rova_users WHERE login = ${VENDORS[0]!.login}`)) {
    await ensureDemoVendorLogin(p);
    return;
  }
  const currency = p.storeCurrency.code;
  const rnd = prng(20260808);
  const ids: number[] = [];
  let penaltyTx = 0;
  // the applicant's files go to the storage first (as an upload does): the database storage must not wait on the
  // seed's own open transaction
  const documents = [await storeDocument(p.storage, PDF), await storeDocument(p.storage, PNG)] as const;
  await p.transaction(async (tx) => {
    const s = await marketplaceSettingsIn(tx);
    const customer = await one<{ id: string; name: string; email: string; phone: string }>(
      tx,
      sql`SELECT id, name, email, phone FROM rental_customers ORDER BY id LIMIT 1`,
    );
    for (const [vi, v] of VENDORS.entries()) {
      const u = await insertUser(tx, {
        login: v.login,
        email: `${v.login}@example.com`,
        displayName: v.name,
        role: 'vendor',
        passwordHash: null,
      });
      ids.push(u.id);
      const approved = new Date(now.getTime() - 400 * DAY).toISOString();
      await tx.execute(sql`INSERT INTO rental_vendors (user_id, status, approved_at, created_at, phone, city, iban_encrypted, account_holder, tax_office, tax_number, bio, service_areas)
        VALUES (${u.id}, 'active', ${approved}, ${approved}, ${`+90 5${30 + vi} 555 01 0${vi}`}, ${v.city}, ${encryptIban(p.config.secret, v.iban)}, ${v.name},
                ${`${v.city} Vergi Dairesi`}, ${`12345678${vi}0`}, ${`${v.name}: a family fleet in ${v.city}.`}, ${JSON.stringify([v.city])}::jsonb)`);
      await recordVendorAudit(tx, {
        vendorId: u.id,
        event: 'vendor_approved',
        note: 'Demo vendor approved.',
        at: approved,
      });
      for (const [ci, [name, category, brand, model, price]] of v.cars.entries()) {
        const loc = await one<{ id: string }>(
          tx,
          sql`SELECT id FROM rental_locations WHERE city = ${v.city} ORDER BY priority DESC, id LIMIT 1`,
        );
        const car = await insertVehicle(tx, {
          name,
          slug: `market-${name
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')
            .replace(/-$/, '')}`,
          category,
          brand,
          model,
          price_per_day: price.toFixed(2),
          seats: category === 'van' ? 7 : 5,
          doors: 5,
          transmission: ci % 2 ? 'automatic' : 'manual',
          fuel_type: 'petrol',
          service_type: 'rental',
          year: 2021 + ci,
          features: ['air_conditioning', 'bluetooth'],
          currency,
          status: 'active',
          vendor_id: u.id,
          blocked_dates: [],
          location_id: loc ? Number(loc.id) : null,
          created_at: approved,
        });
        const vehicleId = Number(car.id);
        await tx.execute(
          sql`INSERT INTO vendor_listings (vehicle_id, vendor_id, lifecycle, created_at) VALUES (${vehicleId}, ${u.id}, 'active', ${approved})`,
        );
        if (v.status !== 'active' || !customer) continue;
        // the van is withdrawn below; the other cars: a completed rental about every two months over the last year,
        // and the first car of each vendor one returned 3 days ago (still within the hold period: pending income)
        if (category === 'van') continue;
        const pickups: number[] = [];
        for (
          let t = now.getTime() - 365 * DAY + rnd.int(0, 20) * DAY;
          t < now.getTime() - 20 * DAY;
          t += rnd.int(55, 75) * DAY
        )
          pickups.push(t);
        if (ci === 0) pickups.push(now.getTime() - 7 * DAY);
        for (const t of pickups) {
          const days = t > now.getTime() - 10 * DAY ? 4 : rnd.int(2, 6);
          const pickup = new Date(Math.floor(t / DAY) * DAY + 10 * 3_600_000);
          const ret = new Date(pickup.getTime() + days * DAY);
          const net = price * days;
          const tax = Math.round(net * 18) / 100;
          const b = await insertBooking(tx, {
            reference: `RB-MKT${String(vehicleId).padStart(3, '0')}${String(pickup.getUTCMonth() + 1).padStart(2, '0')}${String(pickup.getUTCDate()).padStart(2, '0')}`,
            vehicle_id: vehicleId,
            customer_id: Number(customer.id),
            customer_name: customer.name,
            customer_email: customer.email,
            customer_phone: customer.phone,
            kind: 'rental',
            pickup_at: pickup.toISOString(),
            return_at: ret.toISOString(),
            days,
            price_per_day: price.toFixed(2),
            net_price: net.toFixed(2),
            addons_total: '0',
            tax: tax.toFixed(2),
            total: (net + tax).toFixed(2),
            deposit: '0',
            remaining: '0',
            currency,
            addons: [],
            breakdown: null,
            payment_status: 'paid',
            payment_method: 'card',
            payment_deadline: null,
            status: 'completed',
            source: 'marketplace-demo',
            created_at: new Date(pickup.getTime() - 7 * DAY).toISOString(),
            updated_at: ret.toISOString(),
          });
          const posted = await applyBookingCommission(tx, b, ret.toISOString());
          const clearAt = new Date(ret.getTime() + s.hold_days * DAY);
          if (posted && clearAt < now)
            await clearCommission(tx, posted.transaction, s.hold_days, clearAt.toISOString());
        }
      }
    }
    const [anatolia, , aegean] = ids as [number, number, number];
    // an upcoming confirmed rental of Anatolia's first car (the vendor portal's dashboard and bookings show it)
    const clio = await one<{ id: string; price_per_day: string }>(
      tx,
      sql`SELECT id, price_per_day FROM rental_vehicles WHERE vendor_id = ${anatolia} ORDER BY id LIMIT 1`,
    );
    if (clio && customer) {
      const pickup = new Date(Math.floor(now.getTime() / DAY) * DAY + 12 * DAY + 10 * 3_600_000);
      const days = 3;
      const net = Number(clio.price_per_day) * days;
      const tax = Math.round(net * 18) / 100;
      await insertBooking(tx, {
        reference: `RB-MKT${String(clio.id).padStart(3, '0')}NEXT`,
        vehicle_id: Number(clio.id),
        customer_id: Number(customer.id),
        customer_name: customer.name,
        customer_email: customer.email,
        customer_phone: customer.phone,
        kind: 'rental',
        pickup_at: pickup.toISOString(),
        return_at: new Date(pickup.getTime() + days * DAY).toISOString(),
        days,
        price_per_day: Number(clio.price_per_day).toFixed(2),
        net_price: net.toFixed(2),
        addons_total: '0',
        tax: tax.toFixed(2),
        total: (net + tax).toFixed(2),
        deposit: '0',
        remaining: '0',
        currency,
        addons: [],
        breakdown: null,
        payment_status: 'paid',
        payment_method: 'card',
        payment_deadline: null,
        status: 'confirmed',
        source: 'marketplace-demo',
        created_at: new Date(now.getTime() - DAY).toISOString(),
        updated_at: new Date(now.getTime() - DAY).toISOString(),
      });
    }
    // Anatolia withdraws its van: the first withdrawal in 12 months costs 10 % of the monthly average income
    const van = await one<{ id: string }>(
      tx,
      sql`SELECT id FROM rental_vehicles WHERE vendor_id = ${anatolia} AND category = 'van'`,
    );
    const vanId = Number(van!.id);
    await setLifecycle(tx, vanId, 'withdrawn', { reason: 'Sold the van.' });
    await recordVendorAudit(tx, {
      vendorId: anatolia,
      event: 'vehicle_withdrawn',
      vehicleId: vanId,
      note: 'withdrawn: Sold the van.',
    });
    const amount = penaltyAmount(
      await monthlyAverageIncome(tx, anatolia),
      penaltyRate(await withdrawalCount(tx, anatolia, s.rolling_window_months), s),
    );
    penaltyTx = Number(
      (await applyWithdrawalPenalty(tx, anatolia, vanId, amount, currency, 'demo'))?.transaction.id ?? 0,
    );
    await recomputeReliability(tx, anatolia, 'withdraw', vanId, s.rolling_window_months);
    // Aegean is suspended: its listed vehicle is hidden (and remembered for the unsuspension)
    const hidden = await hideListedVehicles(tx, aegean);
    await setVendorStatus(tx, aegean, 'suspended');
    await recordVendorAudit(tx, {
      vendorId: aegean,
      event: 'vendor_suspended',
      note: `Suspended; ${hidden.length} listed vehicle(s) hidden: ${hidden.join(', ')}.`,
    });
    // a customer who applied to become a vendor, with an identity document (PDF) and a licence (PNG)
    const applicant = await insertUser(tx, {
      login: 'demo-applicant-cappadocia',
      email: 'demo-applicant-cappadocia@example.com',
      displayName: 'Cappadocia Tours',
      role: 'customer',
      passwordHash: null,
    });
    const app = await insertApplication(tx, {
      user_id: applicant.id,
      phone: '+90 384 555 0101',
      city: 'Nevsehir',
      iban_encrypted: encryptIban(p.config.secret, 'TR320010009999901234567890'),
      account_holder: 'Cappadocia Tours',
      tax_office: 'Nevsehir Vergi Dairesi',
      tax_number: '9876543210',
      bio: 'Jeeps and minibuses around Goreme.',
      service_areas: ['Nevsehir', 'Kayseri'],
      terms_version: s.terms_version,
      created_at: new Date(now.getTime() - 2 * DAY).toISOString(),
    });
    for (const [kind, doc, name] of [
      ['id', documents[0], 'identity.pdf'],
      ['license', documents[1], 'licence.png'],
    ] as const) {
      await insertDocument(tx, { application_id: app!.id, kind, original_name: name, ...doc });
    }
  });
  const [anatolia, bosphorus] = ids as [number, number];
  // the open report and the pending payout go through the services a vendor's requests use
  if (penaltyTx) {
    await fileReport(p, asUser(anatolia, VENDORS[0]!.login, VENDORS[0]!.name), {
      context_type: 'penalty',
      context_id: penaltyTx,
      title: 'Van withdrawal penalty',
      description: 'The van was written off after a hailstorm; I could not keep it listed. Please waive the penalty.',
    });
  }
  await requestPayout(p, asUser(bosphorus, VENDORS[1]!.login, VENDORS[1]!.name), 250, 'demo-payout-1');
  await catalogueChanged(p);
  await ensureDemoVendorLogin(p);
}

/** Gives Anatolia Cars a password (DEMO_VENDOR_PASSWORD) unless it has one: also on a database seeded before it existed. */
async function ensureDemoVendorLogin(p: Platform): Promise<void> {
  const u = await one<{ id: string }>(
    p.db,
    sql`SELECT id::text FROM rova_users WHERE login = ${DEMO_VENDOR_LOGIN} AND password_hash IS NULL`,
  );
  if (u) await p.auth.setPassword(Number(u.id), DEMO_VENDOR_PASSWORD);
}
