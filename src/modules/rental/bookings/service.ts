import { randomBytes } from 'node:crypto';
import { emitBookingCreated, emitBookingStatus } from '../events.js';
import type { Platform } from '../../../platform/context.js';
import { toDate, type Db } from '../../../platform/db/types.js';
import { VehicleNotAvailable } from '../availability/not-available.js';
import { vehicleNotFound, bookingNotFound, invalidField, RentalErrors } from '../errors.js';
import {
  checkAvailability,
  parsePeriod,
  type AvailabilityInput,
  type AvailabilityResult,
  type Period,
} from '../availability/service.js';
import { catalogueOf } from '../catalogue.js';
import { customerOfAccount, resolveCustomer, type CustomerAccount } from '../customers/service.js';
import { rentalSettings } from '../settings.js';
import { utcToLocal } from '../time.js';
import { onBookingStatusChange } from '../ledger/commission.js';
import { deliverRefunds } from '../payments/refunds/service.js';
import { refundEverythingPaid } from '../payments/refunds/refund-paid.js';
import { LapsedHolds } from './expiry.js';
import { bookingMailInTransaction } from './mails.js';
import { lockBooking, type LockedBooking } from './lock.js';
import type { BookingPriceColumns, PaymentStatus } from './schema.js';
import { repriceBooking, type MoneyBalance } from './reprice.js';
import { startDuePayments } from '../payments/due.js';
import { cancelStaleIntents } from '../payments/stale.js';
import { supersedePayments } from '../payments/work-repo.js';
import { paymentsOf } from './create/repo.js';
import { announceOnCommit } from '../../../platform/db/announce.js';
import { Decimal } from '../money.js';
import {
  bookingById,
  bookingRefs,
  HOLDS_TOPIC,
  holdKey,
  findOverlap,
  insertBooking,
  listBookings,
  lockVehicleForBooking,
  isOverlapViolation,
  orderLinesOfBooking,
  paymentsOfBooking,
  refundsOfBooking,
  updateBooking,
  type BookingFilter,
  type BookingRow,
} from './repo.js';
import { writeOrderOfBooking, type OrderWrites, type OrderWritten, type RentalColumns } from './create/statement.js';
import { bookingDetailView } from './view.js';
import { moveTransfer, transferFields } from './transfer.js';
import { paymentDeadlineFor, type DeadlineSettings } from './deadline.js';
import { journeySettings } from './settings.js';
import { assertMove, BLOCKING, DEADLINE_BOUND, isBookingStatus, type BookingStatus } from './status.js';

export interface CreateBookingInput extends Omit<AvailabilityInput, 'return_date'> {
  /** Required for rentals; a transfer ends after the route's duration. */
  return_date?: string;
  kind?: 'rental' | 'transfer';
  transfer_route_id?: number;
  passengers?: number;
  customer_id?: number;
  customer?: { name: string; email: string; phone?: string };
  /** v2: the signed-in customer's account (its customer record is found or made in the booking's transaction). */
  customer_account?: CustomerAccount;
  status?: BookingStatus;
  notes?: string;
  payment_method?: string;
  source?: string;
  /**
   * v2 journey: minutes of the short hold (default RENTAL_PAYMENT_DEADLINE_MINUTES); `payment_method` pay_at_pickup
   * and bank_transfer have their own rules (paymentDeadlineFor).
   */
  hold_minutes?: number;
  return_location_id?: number;
}

export const BOOKINGS_TOPIC = 'rental:bookings';

function notAvailable(r: AvailabilityResult): VehicleNotAvailable {
  return new VehicleNotAvailable(`The vehicle is not available for these dates (${r.reason}).`, { reason: r.reason });
}

/** The database's exclusion constraint (migration 0500) refused an overlap the checks did not see → 409. */
export function rethrowOverlap(err: unknown): never {
  if (isOverlapViolation(err)) {
    throw new VehicleNotAvailable('The vehicle is not available for these dates (booked).', { reason: 'booked' });
  }
  throw err;
}

// A system call for five random bytes was 2 % of a booking's CPU: references take them from a pool filled 800 at a time
// (the same CSPRNG; no byte is handed out twice).
const REFERENCE_BYTES = 5;
let referencePool = Buffer.alloc(0);
let referenceAt = 0;

function reference(): string {
  if (referenceAt + REFERENCE_BYTES > referencePool.length) {
    referencePool = randomBytes(REFERENCE_BYTES * 800);
    referenceAt = 0;
  }
  const hex = referencePool.toString('hex', referenceAt, referenceAt + REFERENCE_BYTES);
  referenceAt += REFERENCE_BYTES;
  return 'RB-' + hex.toUpperCase();
}

function priceFields(
  r: AvailabilityResult,
): Omit<RentalPrice, 'kind' | 'pickup_location_id' | 'return_location_id' | 'pickup_at' | 'return_at'> {
  const q = r.quote;
  return {
    days: q.days,
    price_per_day: q.price_per_day,
    net_price: q.net_price,
    addons_total: q.addons_total,
    tax: q.tax,
    total: q.total,
    deposit: q.deposit,
    remaining: q.remaining,
    addons: q.breakdown.addons,
    breakdown: q.breakdown,
  };
}

/** A new booking's checks done before its transaction (see `prepareBooking`). */
export interface PreparedBooking {
  status: BookingStatus;
  /** null for a transfer (it ends after its route's duration). */
  period: Period | null;
  catalogue: Awaited<ReturnType<ReturnType<typeof catalogueOf>['get']>>;
  /** The pre-check's decision of the rules from the catalogue (a rental, not a draft); null otherwise. */
  pre: AvailabilityResult | null;
}

/**
 * A new booking's checks before anything is locked: the period, and for a rental that holds its slot the pre-check,
 * which fails fast without the vehicle lock when the slot is visibly taken: under a rush for one vehicle the losers
 * answer 409 at once instead of queueing on its row lock (and on the pool). A slot the holding index sees free costs
 * no query here; one it sees taken is confirmed by the database. The locked check of the transaction decides.
 */
export async function prepareBooking(p: Platform, input: CreateBookingInput): Promise<PreparedBooking> {
  const status = input.status ?? 'pending_payment';
  const transfer = input.kind === 'transfer';
  if (!transfer && input.return_date === undefined) throw invalidField('return_date', 'return_date is required.');
  const period = transfer ? null : parsePeriod(p, { ...input, return_date: input.return_date });
  const catalogue = await catalogueOf(p).get();
  let pre: AvailabilityResult | null = null;
  if (period && status !== 'draft') {
    pre = await checkAvailability(
      p,
      p.db,
      { ...input, return_date: period.returnDate },
      { period, catalogue, confirmBooked: true },
    );
    if (!pre.available) throw notAvailable(pre);
  }
  return { status, period, catalogue, pre };
}

/**
 * Creates a booking (rental or transfer) for an operator or an API v1 caller: the transactional path with its
 * booking.created event and nothing else (`bookInTransaction`) — but the caller's `record` (its Idempotency-Key),
 * which commits with the booking.
 */
export async function createBooking(
  p: Platform,
  input: CreateBookingInput,
  record?: (tx: Db, booking: BookingRow) => Promise<void>,
): Promise<BookingRow> {
  return (await bookInTransaction(p, input, await prepareBooking(p, input), undefined, record)).booking;
}

/** What a customer's booking writes besides itself on the transactional path (bookings/create). */
export interface WritesInTransaction {
  /** The order, lines, payment, event and mail of the booking as inserted (pure: data for ORDER_OF_BOOKING). */
  writes(booking: BookingRow): OrderWrites;
  /** The caller's record kept in step with the booking (its Idempotency-Key), in the booking's transaction. */
  record?(tx: Db, booking: BookingRow, written: OrderWritten): Promise<void>;
}

/**
 * Check and insert in ONE transaction that first locks the vehicle row (SELECT … FOR UPDATE), so two requests for
 * the same slot are serialised and the second sees the first's booking → 409 VEHICLE_NOT_AVAILABLE; then either the
 * booking.created event (and the operator's `record`), or `customer`'s writes (ORDER_OF_BOOKING, then its record).
 * Works the same on PGlite and PostgreSQL.
 */
export async function bookInTransaction(
  p: Platform,
  input: CreateBookingInput,
  prepared: PreparedBooking,
  customer?: WritesInTransaction,
  record?: (tx: Db, booking: BookingRow) => Promise<void>,
): Promise<{ booking: BookingRow; written: OrderWritten | null }> {
  const { status, period, catalogue } = prepared;
  const expired = new LapsedHolds(p);
  let wake: (() => Promise<void>) | undefined;
  const created = await p
    .transaction(async (tx) => {
      const locked = await lockVehicleForBooking(tx, input.vehicle_id, input.customer_account?.id ?? null);
      if (!locked) throw vehicleNotFound(input.vehicle_id);
      const { has_lapsed_holds: lapsed, linked_customer: linked, ...vehicle } = locked;
      if (lapsed) await expired.sweep(tx, input.vehicle_id);
      let fields: BookingPriceColumns;
      if (period) {
        const r = await checkAvailability(
          p,
          tx,
          { ...input, return_date: period.returnDate },
          { period, catalogue, overlapByConstraint: BLOCKING.includes(status) },
        );
        if (!r.available && status !== 'draft') throw notAvailable(r);
        fields = { ...rentalFields(input, period, r) };
      } else {
        fields = await transferFields(p, tx, vehicle, catalogue.rules, input);
      }
      const person = input.customer_account
        ? (linked ?? (await customerOfAccount(tx, input.customer_account)))
        : await resolveCustomer(tx, input.customer_id, input.customer);
      const booking = await insertBooking(tx, {
        reference: reference(),
        vehicle_id: input.vehicle_id,
        customer_id: Number(person.id),
        customer_name: person.name,
        customer_email: person.email,
        customer_phone: person.phone,
        ...fields,
        ...bookingTerms(p, input, status, String(fields.pickup_at)),
      });
      if (!customer) {
        await emitBookingCreated(tx, booking);
        if (record) await record(tx, booking);
        // the operator's booking: its customer is told, in this transaction (a draft is not a booking yet)
        if (status !== 'draft')
          wake = await bookingMailInTransaction(
            tx,
            p,
            status === 'confirmed' ? 'booking_confirmed' : 'booking_created',
            booking,
          );
        return { booking, written: null };
      }
      const written = await writeOrderOfBooking(tx, Number(booking.id), customer.writes(booking));
      if (customer.record) await customer.record(tx, booking, written);
      return { booking, written };
    })
    .catch(rethrowOverlap);
  await wake?.();
  expired.delivered();
  return created;
}

type RentalPrice = Pick<
  RentalColumns,
  | 'kind'
  | 'pickup_location_id'
  | 'return_location_id'
  | 'pickup_at'
  | 'return_at'
  | 'days'
  | 'price_per_day'
  | 'net_price'
  | 'addons_total'
  | 'tax'
  | 'total'
  | 'deposit'
  | 'remaining'
  | 'addons'
  | 'breakdown'
>;

function rentalFields(input: CreateBookingInput, period: Period, r: AvailabilityResult): RentalPrice {
  const home = r.vehicle.location_id;
  const loc = input.location_id ?? (home === null || home === undefined ? null : Number(home));
  return {
    kind: 'rental',
    pickup_location_id: loc,
    return_location_id: input.return_location_id ?? loc,
    pickup_at: period.pickupAt.toISOString(),
    return_at: period.returnAt.toISOString(),
    ...priceFields(r),
  };
}

type BookingTerms = Pick<
  RentalColumns,
  'currency' | 'payment_method' | 'payment_deadline' | 'status' | 'notes' | 'source' | 'buffer_minutes'
>;

/** The rule settings of a payment deadline; `holdMinutes`: the short hold (v2 journey's, or the admin API's). */
function deadlineSettings(p: Platform, holdMinutes?: number): DeadlineSettings {
  return {
    holdMinutes: holdMinutes ?? rentalSettings(p).paymentDeadlineMinutes,
    bankTransferDays: journeySettings(p).bankTransferDays,
  };
}

/** The fields of a new booking that follow from the request and the settings, not from its customer or its price. */
function bookingTerms(p: Platform, input: CreateBookingInput, status: BookingStatus, pickupAt: string): BookingTerms {
  const s = rentalSettings(p);
  const deadline = DEADLINE_BOUND.includes(status)
    ? (paymentDeadlineFor(
        input.payment_method,
        new Date(pickupAt),
        new Date(),
        deadlineSettings(p, input.hold_minutes),
      )?.toISOString() ?? null)
    : null;
  return {
    currency: p.storeCurrency.code,
    payment_method: input.payment_method ?? null,
    payment_deadline: deadline,
    status,
    notes: input.notes ?? '',
    source: input.source ?? 'api',
    buffer_minutes: s.bufferMinutes,
  };
}

/**
 * The columns of a customer's rental for the one-statement path (BOOKINGS_AT_ONCE), from the pre-check's decision of
 * the rules from the catalogue (the transactional path decides them the same way). Undefined when it is not a rental
 * that holds its slot.
 */
export function rentalColumns(
  p: Platform,
  input: CreateBookingInput,
  prepared: PreparedBooking,
): RentalColumns | undefined {
  const { status, period, pre } = prepared;
  if (!period || !pre || input.kind === 'transfer' || !BLOCKING.includes(status)) return undefined;
  return {
    reference: reference(),
    vehicle_id: input.vehicle_id,
    ...rentalFields(input, period, pre),
    ...bookingTerms(p, input, status, period.pickupAt.toISOString()),
  };
}

export interface UpdateBookingInput {
  pickup_date?: string;
  return_date?: string;
  pickup_time?: string;
  return_time?: string;
  /** Another vehicle for a rental (the planner's drag to another row): re-checked and re-priced on that vehicle. */
  vehicle_id?: number;
  notes?: string;
}

const FROZEN: readonly string[] = ['completed', 'cancelled', 'no_show', 'refunded'];
const MOVES = ['pickup_date', 'return_date', 'pickup_time', 'return_time', 'vehicle_id'] as const;

/** What a change of a booking decided in its transaction (the caller commits it, or rolls it back for a quote). */
export interface BookingChange {
  previous: BookingRow;
  booking: BookingRow;
  money: MoneyBalance | null;
  mailAfterCommit?: () => Promise<void>;
}

/** The new price columns of a moved rental (from the engine's quote). */
export type MovedPrice = ReturnType<typeof priceFields>;

/**
 * A caller's own rules for a change (the customer's account), run in the change's transaction under the booking's
 * lock, so they decide from what is read there.
 */
export interface ChangeRules {
  /** Refuses the change from the booking as locked (before anything is checked or written); `vehicle`: the target. */
  guard?(tx: Db, cur: LockedBooking, vehicle: number): Promise<void>;
  /** The new price columns, adjusted from the booking as locked (a late shortening's fee kept). */
  price?(tx: Db, cur: LockedBooking, fields: MovedPrice): Promise<MovedPrice>;
  /** After the change, in its transaction (mail, Idempotency-Key); its answer runs after the commit. */
  within?(tx: Db, change: BookingChange): Promise<(() => Promise<void>) | undefined>;
  /**
   * The caller's own mail of the change says what is due and how to pay it (the customer's change: one mail), so the
   * re-pricing writes no `amount_due` mail of its own.
   */
  tellsDue?: boolean;
}

/**
 * The change itself, under the booking's lock (both vehicles' on a move to another one): new dates or vehicle of a
 * rental re-checked for overlap (excluding itself) and re-priced (repriceBooking settles the money).
 */
async function changeBooking(
  p: Platform,
  tx: Db,
  id: number,
  input: UpdateBookingInput,
  catalogue: PreparedBooking['catalogue'],
  expired: LapsedHolds,
  rules: ChangeRules = {},
): Promise<BookingChange> {
  const s = rentalSettings(p);
  const cur = await lockBooking(tx, id, expired, input.vehicle_id);
  await rules.guard?.(tx, cur, input.vehicle_id ?? Number(cur.vehicle_id));
  const datesChange = MOVES.some((k) => input[k] !== undefined);
  if (!datesChange)
    return { previous: cur, booking: (await updateBooking(tx, id, { notes: input.notes }))!, money: null };
  if (FROZEN.includes(cur.status))
    throw RentalErrors.stateConflict(`The dates of a ${cur.status} booking cannot change.`);
  const from = Number(cur.vehicle_id);
  const vehicle = input.vehicle_id ?? from;
  if (cur.kind === 'transfer') {
    if (vehicle !== from) throw invalidField('vehicle_id', 'A transfer keeps its vehicle: change its dates only.');
    return { previous: cur, booking: await moveTransfer(p, tx, cur, input), money: null };
  }
  const pu = utcToLocal(toDate(cur.pickup_at), s.timezone);
  const re = utcToLocal(toDate(cur.return_at), s.timezone);
  const merged = {
    vehicle_id: vehicle,
    // the booking's places: a one-way rental keeps its fee (and its return desk's hours) when moved
    ...(cur.pickup_location_id === null ? {} : { location_id: Number(cur.pickup_location_id) }),
    return_location_id: cur.return_location_id === null ? null : Number(cur.return_location_id),
    pickup_date: input.pickup_date ?? pu.date,
    return_date: input.return_date ?? re.date,
    pickup_time: input.pickup_time ?? pu.time,
    return_time: input.return_time ?? re.time,
    // the same extras in the same quantities (bookings from before quantities took one of each)
    addons: Array.isArray(cur.addons)
      ? (cur.addons as { code: string; quantity?: number }[]).map((a) => ({ code: a.code, quantity: a.quantity ?? 1 }))
      : [],
  };
  const period = parsePeriod(p, merged);
  const r = await checkAvailability(p, tx, merged, { period, excludeBookingId: id, catalogue });
  if (!r.available && BLOCKING.includes(cur.status as BookingStatus)) throw notAvailable(r);
  const price = rules.price ? await rules.price(tx, cur, priceFields(r)) : priceFields(r);
  const repriced = await repriceBooking(
    p,
    tx,
    cur,
    {
      ...(vehicle !== from ? { vehicle_id: vehicle } : {}),
      pickup_at: period.pickupAt.toISOString(),
      return_at: period.returnAt.toISOString(),
      ...price,
      notes: input.notes,
    },
    { tellsDue: rules.tellsDue === true },
  );
  // the old vehicle's holds lose this booking (updateBooking announces the new vehicle's)
  if (vehicle !== from) announceOnCommit(tx, HOLDS_TOPIC, [holdKey({ vehicle_id: from, id })]);
  return { previous: cur, booking: repriced.booking, money: repriced.money, mailAfterCommit: repriced.mailAfterCommit };
}

/**
 * Changes dates, vehicle and/or notes. New dates (or vehicle) of a rental are re-checked for overlap (excluding
 * itself) and re-priced under the booking's lock, and the price change settles its money (repriceBooking: the
 * overpaid part refunded, an amount due asked for); the refunds are delivered and the due payments started after
 * commit.
 */
export async function editBooking(
  p: Platform,
  id: number,
  input: UpdateBookingInput,
  rules: ChangeRules = {},
): Promise<BookingRow> {
  return (await changeBookingNow(p, id, input, rules)).booking;
}

/** `editBooking` answering the whole change (the previous booking and the money settled), `rules` applied. */
export async function changeBookingNow(
  p: Platform,
  id: number,
  input: UpdateBookingInput,
  rules: ChangeRules = {},
): Promise<BookingChange> {
  const catalogue = await catalogueOf(p).get();
  const expired = new LapsedHolds(p);
  let wake: (() => Promise<void>) | undefined;
  const change = await p
    .transaction(async (tx) => {
      const c = await changeBooking(p, tx, id, input, catalogue, expired, rules);
      wake = await rules.within?.(tx, c);
      return c;
    })
    .catch(rethrowOverlap);
  await wake?.();
  const money = change.money;
  // owed or due since the commit above; a provider failure leaves them pending (refunds: the journey job retries)
  if (money) {
    await deliverRefunds(p, money.refundIds);
    await startDuePayments(p, money.duePaymentIds);
    await cancelStaleIntents(p, money.staleIds);
  }
  await change.mailAfterCommit?.();
  expired.delivered();
  return change;
}

/** What a change of dates or vehicle would do to a booking's price and money (`quoteBookingChange`). */
export interface BookingChangeQuote {
  booking: BookingRow;
  previous: BookingRow;
  refunded: string;
  due: string;
  payment_status: PaymentStatus;
}

class QuoteOnly extends Error {
  constructor(readonly change: BookingChange) {
    super('quote only');
  }
}

/**
 * The same change as `editBooking`, in the same transaction and by the same rules (lock, availability, re-price,
 * money settling), rolled back instead of committed: what the booking would become, and the refund it would owe or
 * the amount it would ask. Nothing is written, mailed or announced; a refusal is the same error the change would get.
 */
export async function quoteBookingChange(
  p: Platform,
  id: number,
  input: UpdateBookingInput,
  rules: Omit<ChangeRules, 'within'> = {},
): Promise<BookingChangeQuote> {
  const catalogue = await catalogueOf(p).get();
  try {
    await p.transaction(async (tx) => {
      throw new QuoteOnly(await changeBooking(p, tx, id, input, catalogue, new LapsedHolds(p), rules));
    });
  } catch (err) {
    if (!(err instanceof QuoteOnly)) rethrowOverlap(err);
    const { booking, previous, money } = err.change;
    return {
      booking,
      previous,
      refunded: (money?.refunded ?? new Decimal(0)).toFixed(2),
      due: (money?.due ?? new Decimal(0)).toFixed(2),
      payment_status: money?.payment_status ?? booking.payment_status,
    };
  }
  throw new Error('unreachable: a quote always rolls back');
}

/** Does the booking hold its vehicle now? (pending ones only until their payment deadline.) */
function holdsSlot(b: BookingRow, now = Date.now()): boolean {
  const st = b.status as BookingStatus;
  if (!BLOCKING.includes(st)) return false;
  return !DEADLINE_BOUND.includes(st) || b.payment_deadline === null || toDate(b.payment_deadline).getTime() > now;
}

/**
 * Moves a booking along the status machine (design §3). Entering a holding status when the booking does not
 * hold the slot (a non-holding status, or a pending one past its payment deadline) re-checks the slot under the
 * vehicle lock; entering pending_payment/pending starts a new payment deadline.
 */
export type CancelActor = 'customer' | 'vendor' | 'admin' | 'system';

export interface StatusChangeOptions {
  /** Who cancels (recorded on a move to cancelled; the reliability score counts vendor cancellations). */
  by?: CancelActor;
  /** Runs in the same transaction after the move (callers' own audit and bookkeeping). */
  within?: (tx: Db, booking: BookingRow) => Promise<void>;
  /**
   * Who decides the money of a move to cancelled/refunded. 'full' (default): everything still paid is refunded, as
   * an operator's or a vendor's cancel owes the customer; 'caller': the caller's `within` decides (a customer's own
   * cancel keeps its fee).
   */
  refunds?: 'full' | 'caller';
  /**
   * The mail that tells the customer of the move, stored in the outbox in the same transaction (after `within`, so
   * `extra` may name what `within` decided). Without it the operator's confirm and cancel are mailed (by: 'admin').
   */
  mail?: { kind: 'booking_confirmed' | 'booking_cancelled'; extra: (b: BookingRow) => [string, string][] };
}

/** The mail an operator's status move sends the customer. */
const OPERATOR_MAILS: Partial<
  Record<string, { mail: 'booking_confirmed' | 'booking_cancelled'; extra: [string, string][] }>
> = {
  confirmed: { mail: 'booking_confirmed', extra: [] },
  cancelled: { mail: 'booking_cancelled', extra: [['Reason', 'Cancelled by the store.']] },
};

export async function changeStatus(
  p: Platform,
  id: number,
  to: string,
  opts: StatusChangeOptions = {},
): Promise<{ booking: BookingRow; previous: BookingStatus }> {
  if (!isBookingStatus(to)) throw invalidField('status', `Unknown status "${to}".`);
  const s = rentalSettings(p);
  const expired = new LapsedHolds(p);
  const owed: number[] = [];
  const stale: number[] = [];
  let wake: (() => Promise<void>) | undefined;
  const moved = await p
    .transaction(async (tx) => {
      const cur = await lockBooking(tx, id, expired);
      const from = cur.status as BookingStatus;
      // its own payment deadline had just passed: it is cancelled already, which is what was asked
      if (to === 'cancelled' && expired.has(id)) return { booking: cur, previous: 'pending_payment' as BookingStatus };
      assertMove(from, to);
      if (BLOCKING.includes(to) && !holdsSlot(cur)) {
        const buf = s.bufferMinutes * 60_000;
        const pickup = toDate(cur.pickup_at);
        const ret = toDate(cur.return_at);
        const clash = await findOverlap(
          tx,
          Number(cur.vehicle_id),
          new Date(pickup.getTime() - buf),
          new Date(ret.getTime() + buf),
          id,
        );
        if (clash)
          throw new VehicleNotAvailable('The vehicle is no longer available for these dates (booked).', {
            reason: 'booked',
          });
      }
      // back to waiting for payment: the deadline its payment method's rule gives from now (null: held until pick-up)
      const deadline = DEADLINE_BOUND.includes(to)
        ? (paymentDeadlineFor(
            cur.payment_method,
            toDate(cur.pickup_at),
            new Date(),
            deadlineSettings(p),
          )?.toISOString() ?? null)
        : undefined;
      const cancel =
        to === 'cancelled'
          ? { cancelled_by: opts.by ?? null, cancelled_at: new Date().toISOString() }
          : { cancelled_by: null, cancelled_at: null };
      const booking = (await updateBooking(tx, id, {
        status: to,
        payment_deadline: deadline,
        ...(deadline !== undefined ? { payment_reminded_at: null } : {}),
        ...cancel,
      }))!;
      await emitBookingStatus(tx, booking, from);
      // vendor income moves with the status, in this same transaction (commission on completion, reversal on leaving it)
      await onBookingStatusChange(tx, booking, from, to);
      if (opts.within) await opts.within(tx, booking);
      // an ended booking asks for nothing more: its open intents are cancelled at the provider
      if (to === 'cancelled' || to === 'refunded')
        stale.push(
          ...(await supersedePayments(
            tx,
            (await paymentsOf(tx, id, true)).filter((x) => x.provider !== 'offline'),
          )),
        );
      if ((to === 'cancelled' || to === 'refunded') && opts.refunds !== 'caller') {
        owed.push(
          ...(await refundEverythingPaid(
            tx,
            id,
            to === 'refunded' ? 'booking_refunded' : opts.by === 'vendor' ? 'vendor_cancelled' : 'operator_cancelled',
          )),
        );
      }
      const after = owed.length ? (await bookingById(tx, id))! : booking;
      // the operator's confirmation or cancellation: its customer is told, in this transaction
      const told = opts.by === 'admin' ? OPERATOR_MAILS[to] : undefined;
      if (opts.mail) {
        const told = (await bookingById(tx, id))!;
        wake = await bookingMailInTransaction(tx, p, opts.mail.kind, told, opts.mail.extra(told));
      } else if (told) wake = await bookingMailInTransaction(tx, p, told.mail, after, told.extra);
      return { booking: after, previous: from };
    })
    .catch(rethrowOverlap);
  await wake?.();
  // owed since the commit above; a provider failure leaves them pending for the journey job to retry
  await deliverRefunds(p, owed);
  await cancelStaleIntents(p, stale);
  expired.delivered();
  return moved;
}

/** One page of the back office's booking list (newest first) and the number of bookings the filter matches. */
export function bookingsPage(
  db: Db,
  filter: BookingFilter,
  limit: number,
  offset: number,
): Promise<{ items: BookingRow[]; total: number }> {
  return listBookings(db, filter, limit, offset);
}

/** The detail of one booking: the vehicle and locations by name, price lines, payments and refunds; 404 when absent. */
export async function bookingDetail(db: Db, id: number) {
  const b = await bookingById(db, id);
  if (!b) throw bookingNotFound(id);
  const [refs, lines, payments, refunds] = await Promise.all([
    bookingRefs(db, b),
    orderLinesOfBooking(db, id),
    paymentsOfBooking(db, id),
    refundsOfBooking(db, id),
  ]);
  return bookingDetailView(b, refs, lines, payments, refunds);
}
