import type { Platform } from '../../../../platform/context.js';
import { toDate, type Db } from '../../../../platform/db/types.js';
import { invalidField, RentalErrors, vehicleNotFound } from '../../errors.js';
import { catalogueOf } from '../../catalogue.js';
import { Decimal } from '../../money.js';
import { paymentsOf } from '../create/repo.js';
import type { LockedBooking } from '../lock.js';
import { bookingMailInTransaction } from '../mails.js';
import { dueRows } from '../reprice.js';
import type { BookingRow } from '../repo.js';
import {
  changeBookingNow,
  quoteBookingChange,
  type BookingChange,
  type ChangeRules,
  type MovedPrice,
} from '../service.js';
import type { PaymentStatus } from '../schema.js';
import { journeySettings } from '../settings.js';
import { cancelTerms, myBooking } from './service.js';

/** New dates and times, and optionally another vehicle of the same category, asked by the booking's customer. */
export interface MyChangeInput {
  pickup_date: string;
  return_date: string;
  pickup_time?: string;
  return_time?: string;
  vehicle_id?: number;
}

/** A price line of the booking as changed (what the widget lists). */
export interface ChangeLine {
  kind: 'rental' | 'addon' | 'tax' | 'change_fee';
  code: string | null;
  description: string;
  amount: number;
}

/** What a customer's change does (quote) or did (change) to the booking's price and money. */
export interface MyChangeOutcome {
  booking: BookingRow;
  vehicle_name: string | null;
  vehicle_category: string;
  previous_total: Decimal;
  total: Decimal;
  /** Kept of what the shortening refunds (the cancellation fee's rule, after the free-cancellation deadline). */
  fee: Decimal;
  refund: Decimal;
  due: Decimal;
  payment_status: PaymentStatus;
  lines: ChangeLine[];
}

/** The statuses a customer may move; a booking picked up, ended or a transfer is the store's to change. */
const CHANGEABLE = ['pending_payment', 'pending', 'confirmed'];

const kept = (x: { status: string; amount: string; refunded_amount: string }) =>
  x.status === 'succeeded' ? new Decimal(x.amount).minus(x.refunded_amount) : new Decimal(0);

/**
 * The customer's rules of a change, decided under the booking's lock from what is read there: only a rental still
 * waiting for its pick-up, in a status it may leave its dates in; another vehicle only of the same category. A
 * change that lowers the price of a paid booking refunds the overpaid part by the cancellation's rule: free until
 * the free-cancellation deadline (BOOKING_FREE_CANCEL_HOURS before the pick-up as booked), after it
 * BOOKING_CANCEL_FEE_PERCENT of what it refunds is kept — as a change fee added to the new total, so the money
 * settling (repriceBooking) refunds the rest and the ledger sees one price.
 */
function customerRules(p: Platform, fee: { kept: Decimal }, now: number): ChangeRules {
  return {
    // the customer gets one mail of the change: its new dates and price, and what is due and how to pay it
    tellsDue: true,
    guard: async (_tx, cur, vehicle) => {
      if (!CHANGEABLE.includes(cur.status))
        throw RentalErrors.stateConflict(`This booking is ${cur.status}: it can no longer be changed.`);
      if (cur.kind !== 'rental') throw RentalErrors.stateConflict('A transfer cannot be changed from the account.');
      if (toDate(cur.pickup_at).getTime() <= now)
        throw RentalErrors.stateConflict('The pick-up time has passed: the booking can no longer be changed.');
      if (vehicle === Number(cur.vehicle_id)) return;
      const cat = await catalogueOf(p).get();
      const to = cat.vehicles.get(vehicle);
      if (!to) throw vehicleNotFound(vehicle);
      const from = cat.vehicles.get(Number(cur.vehicle_id));
      if (!from || to.category !== from.category)
        throw invalidField('vehicle_id', `Choose a vehicle of the same category (${from?.category ?? 'unknown'}).`);
    },
    price: async (tx: Db, cur: LockedBooking, fields: MovedPrice) => {
      const paid = (await paymentsOf(tx, Number(cur.id), true)).reduce((a, x) => a.plus(kept(x)), new Decimal(0));
      const refund = paid.minus(fields.total);
      const terms = cancelTerms(cur, refund, journeySettings(p), now);
      if (!refund.gt(0) || terms.free || !terms.fee.gt(0)) return fields;
      fee.kept = terms.fee;
      const add = (v: number) => new Decimal(v).plus(terms.fee).toNumber();
      return {
        ...fields,
        total: add(fields.total),
        remaining: add(fields.remaining),
        breakdown: { ...(fields.breakdown as object), change_fee: terms.fee.toNumber() } as MovedPrice['breakdown'],
      };
    },
  };
}

/** The price lines of a booking as changed: rental, extras, tax and the change fee kept, if any. */
function linesOf(b: BookingRow, fee: Decimal): ChangeLine[] {
  const br = (b.breakdown ?? {}) as { rental_net?: number; addons?: { code: string; name: string; total: number }[] };
  const lines: ChangeLine[] = [
    {
      kind: 'rental',
      code: null,
      description: `Rental, ${b.days} day(s)`,
      amount: Number(br.rental_net ?? b.net_price),
    },
  ];
  for (const a of br.addons ?? []) lines.push({ kind: 'addon', code: a.code, description: a.name, amount: a.total });
  lines.push({ kind: 'tax', code: null, description: 'Tax', amount: Number(b.tax) });
  if (fee.gt(0)) lines.push({ kind: 'change_fee', code: null, description: 'Change fee', amount: fee.toNumber() });
  return lines;
}

/** The change asks for the dates and vehicle the booking has already: 400 (nothing to quote, mail or record). */
function assertMoved(c: { booking: BookingRow; previous: BookingRow }): void {
  const at = (k: 'pickup_at' | 'return_at') => toDate(c.booking[k]).getTime() === toDate(c.previous[k]).getTime();
  if (at('pickup_at') && at('return_at') && Number(c.booking.vehicle_id) === Number(c.previous.vehicle_id))
    throw invalidField('pickup_date', 'The booking already has these dates and this vehicle.');
}

async function outcome(
  p: Platform,
  c: { booking: BookingRow; previous: BookingRow },
  money: { refund: Decimal; due: Decimal; payment_status: PaymentStatus },
  fee: Decimal,
): Promise<MyChangeOutcome> {
  const v = (await catalogueOf(p).get()).vehicles.get(Number(c.booking.vehicle_id));
  return {
    booking: c.booking,
    vehicle_name: v?.name ?? null,
    vehicle_category: v?.category ?? '',
    previous_total: new Decimal(c.previous.total),
    total: new Decimal(c.booking.total),
    fee,
    ...money,
    lines: linesOf(c.booking, fee),
  };
}

/**
 * What moving one of the customer's bookings to `input` would cost: the same change as `changeMyBooking`, by the same
 * rules under the same lock, rolled back. Another customer's booking is a 404; a change that would be refused is
 * refused the same way.
 */
export async function quoteMyChange(
  p: Platform,
  userId: number,
  id: number,
  input: MyChangeInput,
): Promise<MyChangeOutcome> {
  return quoteCustomerChange(p, await myBooking(p, userId, id), input);
}

/**
 * What moving booking `b` (already checked to be the customer's: their account's, or a guest's manage link) to
 * `input` would cost, by the customer's rules under the booking's lock, rolled back.
 */
export async function quoteCustomerChange(p: Platform, b: BookingRow, input: MyChangeInput): Promise<MyChangeOutcome> {
  const id = Number(b.id);
  const fee = { kept: new Decimal(0) };
  const q = await quoteBookingChange(p, id, input, customerRules(p, fee, Date.now()));
  assertMoved(q);
  return outcome(
    p,
    q,
    { refund: new Decimal(q.refunded), due: new Decimal(q.due), payment_status: q.payment_status },
    fee.kept,
  );
}

/**
 * The customer moves one of their bookings to other dates or another vehicle of the same category: the operator's
 * change (`changeBookingNow`: lock — both vehicles' in id order on a move —, availability with the new bookings'
 * overlap rules and vehicle blocks, the pricing engine, the money settled: an amount due asked, an overpaid part
 * refunded) under the customer's rules. `record` (the Idempotency-Key) and the `booking_changed` mail (with the
 * booking as .ics) commit with the change.
 */
export async function changeMyBooking(
  p: Platform,
  userId: number,
  id: number,
  input: MyChangeInput,
  record?: (tx: Db, done: MyChangeOutcome) => Promise<void>,
): Promise<MyChangeOutcome> {
  return changeCustomerBooking(p, await myBooking(p, userId, id), input, record);
}

/**
 * The customer's change of booking `b` (already checked to be theirs: their account's, or a guest's manage link):
 * see `changeMyBooking`.
 */
export async function changeCustomerBooking(
  p: Platform,
  b: BookingRow,
  input: MyChangeInput,
  record?: (tx: Db, done: MyChangeOutcome) => Promise<void>,
): Promise<MyChangeOutcome> {
  const id = Number(b.id);
  const fee = { kept: new Decimal(0) };
  let done: MyChangeOutcome | undefined;
  const rules: ChangeRules = {
    ...customerRules(p, fee, Date.now()),
    within: async (tx: Db, c: BookingChange) => {
      assertMoved(c);
      const refund = c.money?.refunded ?? new Decimal(0);
      const due = c.money?.due ?? new Decimal(0);
      done = await outcome(
        p,
        c,
        { refund, due, payment_status: c.money?.payment_status ?? c.booking.payment_status },
        fee.kept,
      );
      const amount = (d: Decimal) => `${d.toFixed(2)} ${c.booking.currency}`;
      // one mail: the new dates and total (the mail's own rows), what changed in money, and what is due and how to
      // pay it (the re-pricing writes no amount-due mail of its own: `tellsDue`)
      const wake = await bookingMailInTransaction(tx, p, 'booking_changed', c.booking, [
        ['Previous total', amount(done.previous_total)],
        ...(fee.kept.gt(0) ? [['Change fee', amount(fee.kept)] as [string, string]] : []),
        ...(refund.gt(0) ? [['Refund', amount(refund)] as [string, string]] : []),
        ...(due.gt(0) ? await dueRows(p, tx, c.booking, due) : []),
      ]);
      if (record) await record(tx, done);
      return wake;
    },
  };
  await changeBookingNow(p, id, input, rules);
  return done!;
}
