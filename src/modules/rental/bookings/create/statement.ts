import { announceOnCommit } from '../../../../platform/db/announce.js';
import { TRANSACTION_ID_COLUMN, transactionIdKnown } from '../../../../platform/db/outcome.js';
import { rowsPreparedInTransaction, rowsPreparedText } from '../../../../platform/db/prepared.js';
import type { Db } from '../../../../platform/db/types.js';
import type { OutboxEvent } from '../../../../platform/events/emit.js';
import type { MailToStore } from '../../../../platform/mail/outbox.js';
import { bigintArray } from '../../sqlx.js';
import { HOLDS_TOPIC, holdKey, type BookingRow } from '../repo.js';
import type { BookingStatus } from '../status.js';
import type { DriverRecord } from '../driver/repo.js';

/*
 * The customer's booking write (POST /booking/create), whole: the two statements below are all the SQL it sends
 * besides the vehicle lock and the booking insert of the transactional path. Their text is fixed (prepared once per
 * connection), checked in as statement.sql and compared by test/rental/booking-statement.test.ts: a change here shows
 * in review as a change of that file (`UPDATE_SQL_SNAPSHOT=1 npx vitest run test/rental/booking-statement.test.ts`).
 * What differs between bookings is only data: typed below, sent as one jsonb parameter.
 */

/** The customer record a booking is written for, as the writer last saw it (the statement checks it is still so). */
export interface KnownCustomer {
  id: number;
  name: string;
  email: string;
  phone: string;
}

/** The columns of a customer's new rental, priced (the customer's columns come from its record). */
export interface RentalColumns {
  reference: string;
  vehicle_id: number;
  kind: 'rental';
  pickup_location_id: number | null;
  return_location_id: number | null;
  pickup_at: string;
  return_at: string;
  days: number;
  price_per_day: number;
  net_price: number;
  addons_total: number;
  tax: number;
  total: number;
  deposit: number;
  remaining: number;
  addons: unknown;
  breakdown: unknown;
  currency: string;
  payment_method: string | null;
  payment_deadline: string | null;
  status: BookingStatus;
  notes: string;
  source: string;
  buffer_minutes: number;
}

export interface OrderLine {
  kind: 'rental' | 'addon' | 'fee' | 'tax' | 'deposit' | 'full';
  code: string | null;
  description: string;
  amount: number;
  /** Units (extras); one when absent. */
  quantity?: number;
}

export interface CustomerOrder {
  user_id: number | null;
  payment_plan: 'deposit' | 'full';
  currency: string;
  total: number;
  amount_due: number;
}

/** Everything a customer's booking writes besides itself, all in its own transaction. */
export interface OrderWrites {
  order: CustomerOrder;
  /** In this order. */
  lines: readonly OrderLine[];
  /** The payment due now (pending; its provider starts it after the commit). */
  payment: { provider: 'offline' | 'stripe'; amount: number };
  /** The booking's outbox events (booking.created). */
  events: readonly OutboxEvent[];
  /** The booking_created mail, rendered; null when the customer has no address. */
  mail: MailToStore | null;
  /** The driver, flight and terms acceptance the customer gave (checked before), when any. */
  driver?: DriverRecord | null;
}

/** What a booking's writes answer. */
export interface OrderWritten {
  payment_id: number;
  /** The mail's outbox row (null: no mail). */
  mail_id: number | null;
}

/** One customer's booking for `bookVehiclesAtOnce`. */
export interface RentalAtOnce {
  accountId: number;
  customer: KnownCustomer;
  columns: RentalColumns;
  /**
   * Built before the booking exists: its events' `data.id`, `data.customer_id` and `data.total` are completed by the
   * statement (the id, and the total as the database stores it).
   */
  writes: OrderWrites;
}

export type BookedAtOnce =
  | { booking: BookingRow; written: OrderWritten }
  /**
   * Nothing was written for it: the vehicle is gone; another transaction holds the vehicle's lock (the statement
   * never waits for one: a long transaction on one vehicle must not hold up the bookings of the others); the account
   * has no customer record yet, or its record is no longer what the writer saw (renamed: the mail would greet the old
   * name); a hold of the vehicle lapsed (it must be swept first); the insert met a conflict (an overlapping holding
   * booking: the transaction under the vehicle lock decides and answers it); or PostgreSQL refused the whole statement
   * (nothing of it was written; each booking is decided alone).
   */
  | {
      fallback: 'no_vehicle' | 'busy' | 'no_customer' | 'customer_changed' | 'lapsed_holds' | 'conflict' | 'refused';
    };

/**
 * The writes that reference the new bookings `b` (each one's data `i.x`, joined on `i.ref = b.reference`): the
 * booking.created events (drafted ones completed from `b`), the order, its lines in order, the payment due, the
 * driver (and the terms accepted, at the database's now) and the mail (held `hold_seconds` before the delivery may
 * send it).
 */
const ORDER_WRITES = `ev AS (INSERT INTO rova_events (event_id, type, payload)
      SELECT e.j->>'eventId', e.j->>'type', CASE WHEN (i.x->>'draft')::boolean
          THEN jsonb_set(jsonb_set(jsonb_set((e.j->>'payload')::jsonb, '{data,id}', to_jsonb(b.id)), '{data,customer_id}', to_jsonb(b.customer_id)), '{data,total}', to_jsonb(b.total::text))
          ELSE (e.j->>'payload')::jsonb END
      FROM b JOIN i ON i.ref = b.reference CROSS JOIN LATERAL jsonb_array_elements(i.x->'events') WITH ORDINALITY AS e(j, ord) ORDER BY i.k, e.ord),
    o AS (INSERT INTO rental_orders (booking_id, user_id, payment_plan, currency, total, amount_due)
      SELECT b.id, (i.x#>>'{order,user_id}')::bigint, i.x#>>'{order,payment_plan}', i.x#>>'{order,currency}', (i.x#>>'{order,total}')::numeric, (i.x#>>'{order,amount_due}')::numeric
      FROM b JOIN i ON i.ref = b.reference ORDER BY i.k RETURNING id, booking_id),
    l AS (INSERT INTO rental_order_lines (order_id, kind, code, description, amount, quantity)
      SELECT o.id, x.j->>'kind', x.j->>'code', x.j->>'description', (x.j->>'amount')::numeric, coalesce((x.j->>'quantity')::int, 1)
      FROM o JOIN b ON b.id = o.booking_id JOIN i ON i.ref = b.reference CROSS JOIN LATERAL jsonb_array_elements(i.x->'lines') WITH ORDINALITY AS x(j, ord)
      ORDER BY i.k, x.ord),
    pay AS (INSERT INTO rental_payments (booking_id, provider, amount, currency)
      SELECT b.id, i.x#>>'{pay,provider}', (i.x#>>'{pay,amount}')::numeric, i.x#>>'{order,currency}' FROM b JOIN i ON i.ref = b.reference ORDER BY i.k RETURNING id, booking_id),
    drv AS (INSERT INTO rental_booking_drivers (booking_id, name, date_of_birth, licence_number, flight_number, terms_version, terms_accepted_at)
      SELECT b.id, d.name, d.date_of_birth, d.licence_number, d.flight_number, d.terms_version, CASE WHEN d.terms_version IS NULL THEN NULL ELSE now() END
      FROM b JOIN i ON i.ref = b.reference
        CROSS JOIN LATERAL jsonb_to_recordset(i.x->'drivers') AS d(name text, date_of_birth date, licence_number text, flight_number text, terms_version text)
      ORDER BY i.k),
    mail AS (INSERT INTO rova_mail_outbox (to_address, subject, text_body, html_body, template, status, not_before, about, attachments, draft)
      SELECT m."to", m.subject, m.text, m.html, m.template, m.status, now() + make_interval(secs => m.hold_seconds), 'booking:' || b.id, coalesce(m.attachments, '[]'::jsonb), m.draft
      FROM b JOIN i ON i.ref = b.reference
        CROSS JOIN LATERAL jsonb_to_recordset(i.x->'mails') AS m("to" text, subject text, text text, html text, template text, status text, hold_seconds int, attachments jsonb, draft jsonb)
      ORDER BY i.k RETURNING id, about)`;

/**
 * Customers' slot-holding rentals in ONE statement, in the caller's transaction (which has nothing else to do:
 * BEGIN, this statement, COMMIT). $1: the bookings (`i`), $2: their vehicles, $3: their accounts. For the batch (at
 * most one booking per vehicle):
 * - the vehicles' row locks, as every booking write takes its vehicle's first, skipping a vehicle whose lock another
 *   transaction holds (that booking goes the transactional way and waits there);
 * - each account's customer record, which must still be the one the booking's mail was rendered for, and the
 *   lapsed-hold note, read in the statement's snapshot as `lockVehicleForBooking` reads them;
 * - the bookings INSERT: where the exclusion constraint finds an overlap, that booking is skipped (ON CONFLICT DO
 *   NOTHING) and the others go on;
 * - ORDER_WRITES for the bookings written, all or nothing;
 * - per booking, why it was not written, what its writes answer, and the transaction's id (platform/db/outcome.ts:
 *   a COMMIT whose answer is lost is resolved from it).
 */
export const BOOKINGS_AT_ONCE = `WITH
    i AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(k int, vehicle_id bigint, account_id bigint, ref text, customer jsonb, f jsonb, x jsonb)),
    known AS (SELECT v.id FROM rental_vehicles v WHERE v.id = ANY($2::bigint[])),
    v AS (SELECT v.id FROM rental_vehicles v WHERE v.id = ANY($2::bigint[]) ORDER BY v.id FOR UPDATE OF v SKIP LOCKED),
    c AS (SELECT DISTINCT ON (c.user_id) c.user_id, c.id, c.name, c.email, c.phone FROM rental_customers c
      WHERE c.user_id = ANY($3::bigint[]) ORDER BY c.user_id, c.id),
    seen AS (SELECT i.k FROM i JOIN c ON c.user_id = i.account_id
      WHERE c.id = (i.customer->>'id')::bigint AND c.name = i.customer->>'name' AND c.email = i.customer->>'email' AND c.phone = i.customer->>'phone'),
    lapsed AS (SELECT u.vehicle_id FROM unnest($2::bigint[]) AS u(vehicle_id) CROSS JOIN LATERAL (SELECT 1 FROM rental_bookings x
      WHERE x.vehicle_id = u.vehicle_id AND x.status IN ('pending_payment', 'pending') AND x.payment_deadline <= now()
        AND (x.holds_slot OR (x.status = 'pending_payment' AND x.payment_status = 'unpaid')) LIMIT 1) AS one),
    b AS (INSERT INTO rental_bookings (customer_id, customer_name, customer_email, customer_phone, reference, vehicle_id, kind,
        pickup_location_id, return_location_id, pickup_at, return_at, days, price_per_day, net_price, addons_total, tax, total,
        deposit, remaining, addons, breakdown, currency, payment_method, payment_deadline, status, notes, source, buffer_minutes)
      SELECT c.id, c.name, c.email, c.phone, r.reference, r.vehicle_id, r.kind,
        r.pickup_location_id, r.return_location_id, r.pickup_at, r.return_at, r.days, r.price_per_day, r.net_price, r.addons_total, r.tax, r.total,
        r.deposit, r.remaining, r.addons, r.breakdown, r.currency, r.payment_method, r.payment_deadline, r.status, r.notes, r.source, r.buffer_minutes
      FROM i JOIN v ON v.id = i.vehicle_id JOIN c ON c.user_id = i.account_id JOIN seen ON seen.k = i.k
        CROSS JOIN LATERAL jsonb_populate_record(NULL::rental_bookings, i.f) AS r
      WHERE NOT EXISTS (SELECT 1 FROM lapsed WHERE lapsed.vehicle_id = i.vehicle_id)
      ORDER BY i.k
      ON CONFLICT DO NOTHING RETURNING *),
    ${ORDER_WRITES}
    SELECT i.k, known.id IS NOT NULL AS has_vehicle, v.id IS NOT NULL AS locked, c.id IS NOT NULL AS has_customer,
      seen.k IS NOT NULL AS customer_current, lapsed.vehicle_id IS NOT NULL AS has_lapsed_holds, b.id IS NOT NULL AS booked,
      (SELECT pay.id::int FROM pay WHERE pay.booking_id = b.id) AS payment_id,
      (SELECT mail.id::int FROM mail WHERE mail.about = 'booking:' || b.id) AS mail_id,
      ${TRANSACTION_ID_COLUMN} AS commit_xid, b.*
    FROM i LEFT JOIN known ON known.id = i.vehicle_id LEFT JOIN v ON v.id = i.vehicle_id LEFT JOIN c ON c.user_id = i.account_id
      LEFT JOIN seen ON seen.k = i.k LEFT JOIN lapsed ON lapsed.vehicle_id = i.vehicle_id
      LEFT JOIN b ON b.reference = i.ref
    ORDER BY i.k`;

/**
 * ORDER_WRITES for a booking the caller's transaction inserted before (the transactional path): $1 the booking's
 * id, $2 its writes (`i.x`, not drafted). One round trip.
 */
export const ORDER_OF_BOOKING = `WITH
    b AS (SELECT $1::bigint AS id, 'b'::text AS reference, NULL::bigint AS customer_id, NULL::numeric AS total),
    i AS (SELECT 0 AS k, 'b'::text AS ref, $2::jsonb AS x),
    ${ORDER_WRITES}
    SELECT (SELECT id::int FROM pay) AS payment_id, (SELECT id::int FROM mail) AS mail_id`;

/** The statements as checked in (statement.sql). */
export function statementSnapshot(): string {
  return [
    '-- Generated from src/modules/rental/bookings/create/statement.ts: do not edit (see that file).',
    '',
    "-- BOOKINGS_AT_ONCE: customers' rentals, at most one per vehicle, with their writes, in one statement",
    `${BOOKINGS_AT_ONCE};`,
    '',
    '-- ORDER_OF_BOOKING: the same writes for a booking inserted by its transaction',
    `${ORDER_OF_BOOKING};`,
    '',
  ].join('\n');
}

/** `i.x`: the statement reads these names. */
function orderData(w: OrderWrites, draft: boolean): Record<string, unknown> {
  const drivers = w.driver
    ? [
        {
          name: w.driver.driver?.name ?? null,
          date_of_birth: w.driver.driver?.date_of_birth ?? null,
          licence_number: w.driver.driver?.licence_number ?? null,
          flight_number: w.driver.flight_number,
          terms_version: w.driver.terms_version,
        },
      ]
    : [];
  return {
    draft,
    events: w.events,
    order: w.order,
    lines: w.lines,
    pay: w.payment,
    mails: w.mail ? [w.mail] : [],
    drivers,
  };
}

interface FoundAtOnce {
  k: number;
  has_vehicle: boolean;
  locked: boolean;
  has_customer: boolean;
  customer_current: boolean;
  has_lapsed_holds: boolean;
  booked: boolean;
  payment_id: number | null;
  mail_id: number | null;
  commit_xid: string;
}

/** Why a booking of the statement was not written (a row of BOOKINGS_AT_ONCE that booked nothing). */
function fallbackOf(r: FoundAtOnce | undefined): Extract<BookedAtOnce, { fallback: unknown }>['fallback'] {
  if (!r?.has_vehicle) return 'no_vehicle';
  if (!r.locked) return 'busy';
  if (!r.has_customer) return 'no_customer';
  if (!r.customer_current) return 'customer_changed';
  if (r.has_lapsed_holds) return 'lapsed_holds';
  return 'conflict';
}

/**
 * BOOKINGS_AT_ONCE in `tx` (Not autocommit: the statement's answer comes before the COMMIT, and the transaction's id
 * it reads lets a COMMIT whose answer is lost be resolved — every booking of the batch answered as committed, or
 * none). Answers in the order of `items`; the bookings written are announced to the holding index in one message.
 */
export async function bookVehiclesAtOnce(tx: Db, items: readonly RentalAtOnce[]): Promise<BookedAtOnce[]> {
  if (!items.length) return [];
  const input = items.map((b, k) => ({
    k,
    vehicle_id: b.columns.vehicle_id,
    account_id: b.accountId,
    ref: b.columns.reference,
    customer: b.customer,
    f: b.columns,
    x: orderData(b.writes, true),
  }));
  const found = await rowsPreparedInTransaction<FoundAtOnce & BookingRow>(tx, BOOKINGS_AT_ONCE, [
    JSON.stringify(input),
    bigintArray(items.map((b) => b.columns.vehicle_id)),
    bigintArray(items.map((b) => b.accountId)),
  ]);
  if (found[0]) transactionIdKnown(tx, found[0].commit_xid);
  const byK = new Map(found.map((r) => [Number(r.k), r]));
  const made = items.map((_, k): BookedAtOnce => {
    const r = byK.get(k);
    if (!r?.booked) return { fallback: fallbackOf(r) };
    const {
      k: _k,
      has_vehicle: _v,
      locked: _lk,
      has_customer: _c,
      customer_current: _cc,
      has_lapsed_holds: _l,
      booked: _b,
      payment_id,
      mail_id,
      commit_xid: _x,
      ...booking
    } = r;
    return { booking, written: { payment_id: Number(payment_id), mail_id: mail_id === null ? null : Number(mail_id) } };
  });
  announceOnCommit(
    tx,
    HOLDS_TOPIC,
    made.flatMap((m) => ('booking' in m ? [holdKey(m.booking)] : [])),
  );
  return made;
}

/** ORDER_OF_BOOKING in the transaction that inserted booking `bookingId`. */
export async function writeOrderOfBooking(tx: Db, bookingId: number, w: OrderWrites): Promise<OrderWritten> {
  const [r] = await rowsPreparedText<{ payment_id: number; mail_id: number | null }>(tx, ORDER_OF_BOOKING, [
    bookingId,
    JSON.stringify(orderData(w, false)),
  ]);
  return { payment_id: Number(r!.payment_id), mail_id: r!.mail_id === null ? null : Number(r!.mail_id) };
}
