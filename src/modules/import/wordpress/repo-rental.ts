import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import type { BookingLine, BookingPayment, BookingRow, MessageRow } from './map-bookings.js';
import type { PricingRuleRow } from './map-pricing.js';
import type { LocationRow, RouteRow, VehicleRow } from './map-rental.js';
import type { ReportRow, VendorRow } from './map-vendors.js';

/** SQL writes of the rental entities (each an upsert on the row's id: a re-run writes the same values in place). */

export async function upsertLocation(db: Db, l: LocationRow): Promise<void> {
  await db.execute(sql`INSERT INTO rental_locations (id, name, slug, type, city, priority, is_active, allow_rental, allow_transfer, created_at, updated_at)
    VALUES (${l.id}, ${l.name}, ${l.slug}, ${l.type}, ${l.city}, ${l.priority}, ${l.isActive}, ${l.allowRental}, ${l.allowTransfer}, ${l.createdAt}, ${l.createdAt})
    ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, slug = EXCLUDED.slug, type = EXCLUDED.type, city = EXCLUDED.city, priority = EXCLUDED.priority,
      is_active = EXCLUDED.is_active, allow_rental = EXCLUDED.allow_rental, allow_transfer = EXCLUDED.allow_transfer, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`);
}

export async function upsertRoute(db: Db, r: RouteRow): Promise<void> {
  await db.execute(sql`INSERT INTO rental_transfer_routes (id, origin_location_id, destination_location_id, origin, destination, distance_km, duration_min, pricing,
      base_price, price_per_km, min_price, is_active, created_at, updated_at)
    VALUES (${r.id}, ${r.originId}, ${r.destinationId}, ${r.origin}, ${r.destination}, ${r.distanceKm}, ${r.durationMin}, ${r.pricing}, ${r.basePrice}, ${r.pricePerKm},
      ${r.minPrice}, true, ${r.createdAt}, ${r.createdAt})
    ON CONFLICT (id) DO UPDATE SET origin_location_id = EXCLUDED.origin_location_id, destination_location_id = EXCLUDED.destination_location_id, origin = EXCLUDED.origin,
      destination = EXCLUDED.destination, distance_km = EXCLUDED.distance_km, duration_min = EXCLUDED.duration_min, pricing = EXCLUDED.pricing, base_price = EXCLUDED.base_price,
      price_per_km = EXCLUDED.price_per_km, min_price = EXCLUDED.min_price, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`);
}

export async function upsertVehicle(
  db: Db,
  v: VehicleRow,
  vendorId: number | null,
  locationId: number | null,
  currency: string,
): Promise<void> {
  await db.execute(sql`INSERT INTO rental_vehicles (id, name, slug, status, vendor_id, price_per_day, deposit_percent, currency, category, brand, model, year, seats, doors,
      transmission, fuel_type, features, description, location_id, service_type, transfer_max_passengers, transfer_max_luggage, blocked_dates, created_at, updated_at)
    VALUES (${v.id}, ${v.name}, ${v.slug}, ${v.status}, ${vendorId}, ${v.pricePerDay}, ${v.depositPercent}, ${currency}, ${v.category}, ${v.brand}, ${v.model}, ${v.year},
      ${v.seats}, ${v.doors}, ${v.transmission}, ${v.fuelType}, ${JSON.stringify(v.features)}::jsonb, ${v.description}, ${locationId}, ${v.serviceType},
      ${v.transferMaxPassengers}, ${v.transferMaxLuggage}, ${JSON.stringify(v.blockedDates)}::jsonb, ${v.createdAt}, ${v.updatedAt})
    ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, slug = EXCLUDED.slug, status = EXCLUDED.status, vendor_id = EXCLUDED.vendor_id, price_per_day = EXCLUDED.price_per_day,
      deposit_percent = EXCLUDED.deposit_percent, currency = EXCLUDED.currency, category = EXCLUDED.category, brand = EXCLUDED.brand, model = EXCLUDED.model, year = EXCLUDED.year,
      seats = EXCLUDED.seats, doors = EXCLUDED.doors, transmission = EXCLUDED.transmission, fuel_type = EXCLUDED.fuel_type, features = EXCLUDED.features,
      description = EXCLUDED.description, location_id = EXCLUDED.location_id, service_type = EXCLUDED.service_type, transfer_max_passengers = EXCLUDED.transfer_max_passengers,
      transfer_max_luggage = EXCLUDED.transfer_max_luggage, blocked_dates = EXCLUDED.blocked_dates, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`);
}

export async function upsertListing(db: Db, vehicleId: number, vendorId: number, v: VehicleRow): Promise<void> {
  await db.execute(sql`INSERT INTO vendor_listings (vehicle_id, vendor_id, lifecycle, commission_rate, created_at, updated_at)
    VALUES (${vehicleId}, ${vendorId}, ${v.lifecycle}, ${v.commissionRate}, ${v.createdAt}, ${v.updatedAt})
    ON CONFLICT (vehicle_id) DO UPDATE SET vendor_id = EXCLUDED.vendor_id, lifecycle = EXCLUDED.lifecycle, commission_rate = EXCLUDED.commission_rate,
      created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`);
}

export async function vendorIbanOf(db: Db, userId: number): Promise<string | null> {
  return (
    (
      await one<{ iban_encrypted: string | null }>(
        db,
        sql`SELECT iban_encrypted FROM rental_vendors WHERE user_id = ${userId}`,
      )
    )?.iban_encrypted ?? null
  );
}

export async function upsertVendor(db: Db, userId: number, v: VendorRow, ibanSealed: string | null): Promise<boolean> {
  const existed = (await one(db, sql`SELECT 1 FROM rental_vendors WHERE user_id = ${userId}`)) !== undefined;
  await db.execute(sql`INSERT INTO rental_vendors (user_id, status, commission_rate, payout_freeze, approved_at, phone, city, iban_encrypted, account_holder, tax_office,
      tax_number, bio, service_areas, reliability_score, created_at, updated_at)
    VALUES (${userId}, ${v.status}, ${v.commissionRate}, ${v.payoutFreeze}, ${v.approvedAt}, ${v.phone}, ${v.city}, ${ibanSealed}, ${v.accountHolder}, ${v.taxOffice},
      ${v.taxNumber}, ${v.bio}, ${JSON.stringify(v.serviceAreas)}::jsonb, ${v.reliabilityScore}, ${v.approvedAt ?? new Date(0).toISOString()}, ${v.approvedAt ?? new Date(0).toISOString()})
    ON CONFLICT (user_id) DO UPDATE SET status = EXCLUDED.status, commission_rate = EXCLUDED.commission_rate, payout_freeze = EXCLUDED.payout_freeze,
      approved_at = EXCLUDED.approved_at, phone = EXCLUDED.phone, city = EXCLUDED.city, iban_encrypted = EXCLUDED.iban_encrypted, account_holder = EXCLUDED.account_holder,
      tax_office = EXCLUDED.tax_office, tax_number = EXCLUDED.tax_number, bio = EXCLUDED.bio, service_areas = EXCLUDED.service_areas,
      reliability_score = EXCLUDED.reliability_score, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`);
  return existed;
}

export async function routeBetween(db: Db, origin: number, destination: number): Promise<number | null> {
  const r = await one<{ id: string }>(
    db,
    sql`SELECT id::text FROM rental_transfer_routes WHERE origin_location_id = ${origin} AND destination_location_id = ${destination} ORDER BY id LIMIT 1`,
  );
  return r ? Number(r.id) : null;
}

export async function locationName(db: Db, id: number): Promise<string | null> {
  return (await one<{ name: string }>(db, sql`SELECT name FROM rental_locations WHERE id = ${id}`))?.name ?? null;
}

export interface BookingRefs {
  customerId: number | null;
  routeId: number | null;
  origin: string | null;
  destination: string | null;
  pickupLocationId: number | null;
  pricePerDay: string;
  currency: string;
}

export async function upsertBooking(db: Db, b: BookingRow, r: BookingRefs): Promise<void> {
  await db.execute(sql`INSERT INTO rental_bookings (id, reference, vehicle_id, customer_id, customer_name, customer_email, customer_phone, kind, transfer_route_id,
      transfer_origin, transfer_destination, pickup_location_id, return_location_id, pickup_at, return_at, days, price_per_day, net_price, addons_total, tax, total,
      deposit, remaining, currency, addons, payment_status, payment_method, payment_deadline, status, source, created_at, updated_at)
    VALUES (${b.id}, ${b.reference}, ${b.vehicleId}, ${r.customerId}, ${b.customerName}, ${b.customerEmail}, ${b.customerPhone}, ${b.kind}, ${r.routeId}, ${r.origin},
      ${r.destination}, ${r.pickupLocationId}, ${r.pickupLocationId}, ${b.pickupAt}, ${b.returnAt}, ${b.days}, ${r.pricePerDay}, ${b.netPrice}, ${b.addonsTotal}, 0, ${b.total},
      ${b.deposit}, ${b.remaining}, ${r.currency}, ${JSON.stringify(b.addons)}::jsonb, ${b.paymentStatus}, ${b.paymentMethod}, ${b.paymentDeadline}, ${b.status}, 'wordpress',
      ${b.createdAt}, ${b.updatedAt})
    ON CONFLICT (id) DO UPDATE SET reference = EXCLUDED.reference, vehicle_id = EXCLUDED.vehicle_id, customer_id = EXCLUDED.customer_id, customer_name = EXCLUDED.customer_name,
      customer_email = EXCLUDED.customer_email, customer_phone = EXCLUDED.customer_phone, kind = EXCLUDED.kind, transfer_route_id = EXCLUDED.transfer_route_id,
      transfer_origin = EXCLUDED.transfer_origin, transfer_destination = EXCLUDED.transfer_destination, pickup_location_id = EXCLUDED.pickup_location_id,
      return_location_id = EXCLUDED.return_location_id, pickup_at = EXCLUDED.pickup_at, return_at = EXCLUDED.return_at, days = EXCLUDED.days,
      price_per_day = EXCLUDED.price_per_day, net_price = EXCLUDED.net_price, addons_total = EXCLUDED.addons_total, total = EXCLUDED.total, deposit = EXCLUDED.deposit,
      remaining = EXCLUDED.remaining, currency = EXCLUDED.currency, addons = EXCLUDED.addons, payment_status = EXCLUDED.payment_status,
      payment_method = EXCLUDED.payment_method, payment_deadline = EXCLUDED.payment_deadline, status = EXCLUDED.status, created_at = EXCLUDED.created_at,
      updated_at = EXCLUDED.updated_at`);
}

/** The booking's order, its lines and its payment, as recorded (lines rewritten only when they differ). */
export async function putOrder(
  db: Db,
  bookingId: number,
  userId: number | null,
  b: BookingRow,
  currency: string,
  lines: BookingLine[],
  payment: BookingPayment | null,
): Promise<void> {
  const due = b.plan === 'deposit' && Number(b.remaining) > 0 ? b.deposit : b.total;
  const o = await one<{ id: string }>(
    db,
    sql`INSERT INTO rental_orders (booking_id, user_id, payment_plan, currency, total, amount_due, created_at)
    VALUES (${bookingId}, ${userId}, ${b.plan}, ${currency}, ${b.total}, ${due}, ${b.createdAt})
    ON CONFLICT (booking_id) DO UPDATE SET user_id = EXCLUDED.user_id, payment_plan = EXCLUDED.payment_plan, currency = EXCLUDED.currency, total = EXCLUDED.total,
      amount_due = EXCLUDED.amount_due, created_at = EXCLUDED.created_at RETURNING id::text`,
  );
  const orderId = Number(o!.id);
  const have = await rows<{ kind: string; code: string | null; description: string; amount: string }>(
    db,
    sql`SELECT kind, code, description, amount::text FROM rental_order_lines WHERE order_id = ${orderId} ORDER BY id`,
  );
  const same =
    have.length === lines.length &&
    have.every(
      (h, i) =>
        h.kind === lines[i]!.kind &&
        h.code === lines[i]!.code &&
        h.description === lines[i]!.description &&
        Number(h.amount) === Number(lines[i]!.amount),
    );
  if (!same) {
    await db.execute(sql`DELETE FROM rental_order_lines WHERE order_id = ${orderId}`);
    for (const l of lines)
      await db.execute(
        sql`INSERT INTO rental_order_lines (order_id, kind, code, description, amount) VALUES (${orderId}, ${l.kind}, ${l.code}, ${l.description}, ${l.amount})`,
      );
  }
  const ext = `wordpress:booking:${bookingId}`;
  if (payment) {
    await db.execute(sql`INSERT INTO rental_payments (booking_id, provider, external_id, amount, currency, status, refunded_amount, created_at, updated_at)
      VALUES (${bookingId}, ${payment.provider}, ${ext}, ${payment.amount}, ${currency}, ${payment.status}, ${payment.refunded}, ${b.createdAt}, ${b.updatedAt})
      ON CONFLICT (external_id) WHERE external_id IS NOT NULL DO UPDATE SET booking_id = EXCLUDED.booking_id, provider = EXCLUDED.provider, amount = EXCLUDED.amount, currency = EXCLUDED.currency,
        status = EXCLUDED.status, refunded_amount = EXCLUDED.refunded_amount, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`);
  } else {
    await db.execute(sql`DELETE FROM rental_payments WHERE external_id = ${ext}`);
  }
}

export async function upsertMessage(
  db: Db,
  m: MessageRow,
  refs: { customerId: number | null; authorId: number | null; bookingId: number | null },
): Promise<void> {
  await db.execute(sql`INSERT INTO rental_messages (id, thread_id, parent_id, customer_id, sender, author_user_id, customer_name, customer_email, subject, body, status, priority,
      category, booking_id, is_read, read_at, created_at, updated_at)
    VALUES (${m.id}, ${m.threadId}, ${m.parentId}, ${refs.customerId}, ${m.sender}, ${refs.authorId}, ${m.customerName}, ${m.customerEmail}, ${m.subject}, ${m.body}, ${m.status},
      ${m.priority}, ${m.category}, ${refs.bookingId}, ${m.isRead}, ${m.readAt}, ${m.createdAt}, ${m.createdAt})
    ON CONFLICT (id) DO UPDATE SET thread_id = EXCLUDED.thread_id, parent_id = EXCLUDED.parent_id, customer_id = EXCLUDED.customer_id, sender = EXCLUDED.sender,
      author_user_id = EXCLUDED.author_user_id, customer_name = EXCLUDED.customer_name, customer_email = EXCLUDED.customer_email, subject = EXCLUDED.subject, body = EXCLUDED.body,
      status = EXCLUDED.status, priority = EXCLUDED.priority, category = EXCLUDED.category, booking_id = EXCLUDED.booking_id, is_read = EXCLUDED.is_read,
      read_at = EXCLUDED.read_at, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`);
}

export async function ledgerTxIdByKey(db: Db, key: string): Promise<number | null> {
  const r = await one<{ id: string }>(db, sql`SELECT id::text FROM ledger_transactions WHERE idempotency_key = ${key}`);
  return r ? Number(r.id) : null;
}

/**
 * The imported income credit a WordPress refund row refunds: same vendor, currency and booking (or both without
 * one), cleared when the refund came from available (`live`), still pending otherwise, not refunded yet; the one
 * of the refund's amount first, then the latest before the refund.
 */
export async function creditRefundable(
  db: Db,
  vendorId: number,
  currency: string,
  r: { booking: number | null; net: number; live: boolean },
  at: string,
): Promise<number | null> {
  const cleared = sql`EXISTS (SELECT 1 FROM ledger_transactions k WHERE k.kind = 'commission_clearing' AND k.settles_tx_id = c.id)`;
  const row = await one<{ id: string }>(
    db,
    sql`SELECT c.id::text FROM ledger_transactions c
    WHERE c.kind = 'commission' AND c.vendor_id = ${vendorId} AND c.currency = ${currency} AND c.idempotency_key LIKE 'wordpress:ledger:%'
      AND (c.memo->>'booking_id') IS NOT DISTINCT FROM ${r.booking === null ? null : String(r.booking)}
      AND ${r.live ? cleared : sql`NOT ${cleared}`}
      AND NOT EXISTS (SELECT 1 FROM ledger_transactions x WHERE x.kind = 'commission_refund' AND x.settles_tx_id = c.id)
    ORDER BY ((c.memo->>'net')::bigint = ${r.net}) DESC, (c.created_at <= ${at}::timestamptz) DESC, c.created_at DESC, c.id DESC LIMIT 1`,
  );
  return row ? Number(row.id) : null;
}

export async function accountBalance(db: Db, code: string): Promise<number> {
  const r = await one<{ balance: string }>(db, sql`SELECT balance::text FROM ledger_accounts WHERE code = ${code}`);
  return r ? Number(r.balance) : 0;
}

export async function upsertVendorReport(
  db: Db,
  id: number,
  r: ReportRow,
  vendorId: number,
  contextId: number | null,
  adminId: number | null,
): Promise<void> {
  await db.execute(sql`INSERT INTO vendor_reports (id, vendor_id, context_type, context_id, title, description, status, admin_note, admin_user_id, created_at, updated_at, resolved_at)
    VALUES (${id}, ${vendorId}, ${r.contextType}, ${contextId}, ${r.title}, ${r.description}, ${r.status}, ${r.adminNote}, ${adminId}, ${r.createdAt}, ${r.updatedAt}, ${r.resolvedAt})
    ON CONFLICT (id) DO UPDATE SET vendor_id = EXCLUDED.vendor_id, context_type = EXCLUDED.context_type, context_id = EXCLUDED.context_id, title = EXCLUDED.title,
      description = EXCLUDED.description, status = EXCLUDED.status, admin_note = EXCLUDED.admin_note, admin_user_id = EXCLUDED.admin_user_id,
      created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, resolved_at = EXCLUDED.resolved_at`);
}

export async function openReportHeld(
  db: Db,
  id: number,
  vendorId: number,
  contextType: string,
  contextId: number | null,
): Promise<boolean> {
  return (
    (await one(
      db,
      sql`SELECT 1 FROM vendor_reports WHERE vendor_id = ${vendorId} AND context_type = ${contextType} AND coalesce(context_id, 0) = ${contextId ?? 0}
    AND status IN ('open', 'in_review') AND id <> ${id}`,
    )) !== undefined
  );
}

export async function upsertPricingRule(db: Db, id: number, r: PricingRuleRow): Promise<void> {
  await db.execute(sql`INSERT INTO rental_pricing_rules (id, name, kind, scope, multiplier, percent, is_active, created_at, updated_at)
    VALUES (${id}, ${r.name}, ${r.kind}, 'global', ${r.multiplier}, ${r.percent}, true, now(), now())
    ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, kind = EXCLUDED.kind, multiplier = EXCLUDED.multiplier, percent = EXCLUDED.percent
    WHERE (rental_pricing_rules.name, rental_pricing_rules.kind, rental_pricing_rules.multiplier, rental_pricing_rules.percent)
      IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.kind, EXCLUDED.multiplier, EXCLUDED.percent)`);
}

export async function marketplaceOption(db: Db): Promise<Record<string, unknown>> {
  return (
    (
      await one<{ value: Record<string, unknown> }>(
        db,
        sql`SELECT value FROM rova_options WHERE name = 'marketplace_settings'`,
      )
    )?.value ?? {}
  );
}
