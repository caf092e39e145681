import type { Platform } from '../../../../platform/context.js';
import { toDate, type Db } from '../../../../platform/db/types.js';
import { emitEvent } from '../../../../platform/events/emit.js';
import { VehicleNotAvailable } from '../../availability/not-available.js';
import { invalidField, RentalErrors, stateConflictFor } from '../../errors.js';
import { emitBookingStatus } from '../../events.js';
import { paymentsOf, type PaymentRow } from '../../bookings/create/repo.js';
import { bookingMailInTransaction } from '../../bookings/mails.js';
import { startDuePayments } from '../due.js';
import { cancelStaleIntents } from '../stale.js';
import { deliverRefunds } from '../refunds/service.js';
import { Decimal } from '../../money.js';
import { rentalSettings } from '../../settings.js';
import { LapsedHolds } from '../../bookings/expiry.js';
import { lockBooking, type LockedBooking } from '../../bookings/lock.js';
import { bookingById, findOverlap, updateBooking, type BookingRow } from '../../bookings/repo.js';
import { balanceBookingMoney } from '../../bookings/reprice.js';
import { insertRecordedPayment, type DeskMethod } from './repo.js';

export interface RecordPaymentInput {
  /** What the money is: the whole amount due, or the deposit; it gives the amount when none is sent. */
  kind: 'full' | 'deposit';
  amount?: number;
  method: DeskMethod;
  reference?: string;
}

/** What the settling left for after the commit: refunds to deliver, stale intents to cancel, due payments to start. */
interface AfterCommit {
  refundIds: number[];
  staleIds: number[];
  duePaymentIds: number[];
}

export interface RecordedPayment {
  outcome: 'confirmed' | 'recorded';
  payment_id: number;
  /** This payment's amount. */
  amount: string;
  booking: BookingRow;
  /** What the booking's payments hold after this one, and what is still due (decimal strings, the currency's). */
  paid: string;
  due: string;
}

/** Statuses a payment is taken for; a booking cancelled only because its deadline passed is taken back when free. */
const TAKES_PAYMENT: readonly string[] = ['pending_payment', 'pending', 'confirmed', 'in_progress', 'completed'];
const WAITING: readonly string[] = ['pending_payment', 'pending'];

/** Money the booking's payments hold: what succeeded, less what was refunded of it. */
export function paidOf(pays: readonly Pick<PaymentRow, 'status' | 'amount' | 'refunded_amount'>[]): Decimal {
  return pays
    .filter((x) => x.status === 'succeeded')
    .reduce((a, x) => a.plus(new Decimal(x.amount).minus(x.refunded_amount)), new Decimal(0));
}

const bad = invalidField;

/** The amount to record: the one sent, or what `kind` asks; refused when it is not a positive amount within the due. */
function amountToRecord(b: BookingRow, input: RecordPaymentInput, paid: Decimal, due: Decimal): Decimal {
  if (input.amount !== undefined) {
    const a = new Decimal(input.amount);
    if (!a.isFinite() || a.lte(0) || a.decimalPlaces() > 2)
      throw bad('amount', 'amount must be a positive amount with at most 2 decimals.');
    if (a.gt(due)) throw bad('amount', `amount exceeds the amount due (${due.toFixed(2)} ${b.currency}).`);
    return a;
  }
  if (input.kind === 'full') return due;
  const deposit = new Decimal(b.deposit).minus(paid);
  if (deposit.lte(0)) throw bad('kind', 'No deposit is due on this booking: record the full amount or an amount.');
  return Decimal.min(deposit, due);
}

/**
 * Records a payment the desk took (cash, card terminal, a bank transfer that arrived) — the path every payment
 * move takes: under the booking's lock (lockBooking), the payment written succeeded with its method and reference,
 * the booking confirmed when it was waiting for it (a booking cancelled only because its deadline passed, too, when
 * its slot is still free; otherwise 409 VEHICLE_NOT_AVAILABLE), then the money settled against the total
 * (balanceBookingMoney: the pending offline payment asks the rest or nothing). `commit` runs in the transaction
 * (the Idempotency-Key commits with the payment), and so are the customer's mails (payment_received, and
 * booking_confirmed when it confirms).
 */
export async function recordPayment(
  p: Platform,
  bookingId: number,
  input: RecordPaymentInput,
  recordedBy: number | null,
  commit: (tx: Db, r: RecordedPayment) => Promise<void>,
): Promise<RecordedPayment> {
  const buf = rentalSettings(p).bufferMinutes * 60_000;
  // the booking's own lapse is not mailed: its payment confirms it again, or refunds it, in this transaction
  const expired = new LapsedHolds(p, bookingId);
  const settled: AfterCommit[] = [];
  const wake: (() => Promise<void>)[] = [];
  const r = await p.transaction(async (tx) => {
    const b = await lockBooking(tx, bookingId, expired);
    const lapsed = b.status === 'cancelled' && b.cancel_reason === 'payment_deadline_passed';
    if (!TAKES_PAYMENT.includes(b.status) && !lapsed)
      throw RentalErrors.stateConflict(`A ${b.status} booking takes no payment.`, { status: b.status });
    const pays = await paymentsOf(tx, bookingId, true);
    const paid = paidOf(pays);
    const due = new Decimal(b.total).minus(paid);
    if (due.lte(0)) throw stateConflictFor('nothing_due', 'Nothing is due on this booking: it is paid.');
    const amount = amountToRecord(b, input, paid, due);
    const reopens = lapsed || (WAITING.includes(b.status) && !(b as BookingRow & { holds_slot?: boolean }).holds_slot);
    if (
      reopens &&
      (await findOverlap(
        tx,
        Number(b.vehicle_id),
        new Date(toDate(b.pickup_at).getTime() - buf),
        new Date(toDate(b.return_at).getTime() + buf),
        bookingId,
      ))
    )
      throw new VehicleNotAvailable('The vehicle was booked by someone else since this lapsed.', { reason: 'booked' });
    const paymentId = await insertRecordedPayment(tx, {
      bookingId,
      amount: amount.toFixed(2),
      currency: b.currency,
      method: input.method,
      reference: input.reference?.trim() || null,
      recordedBy,
    });
    const after = paid.plus(amount);
    const paymentStatus = after.gte(b.total)
      ? 'paid'
      : input.kind === 'deposit' && after.gte(b.deposit)
        ? 'deposit_paid'
        : 'partially_paid';
    const confirms = lapsed || WAITING.includes(b.status);
    const nb = (await updateBooking(tx, bookingId, {
      payment_status: paymentStatus,
      ...(confirms
        ? {
            status: 'confirmed',
            payment_deadline: null,
            cancel_reason: null,
            cancelled_at: null,
            cancelled_by: null,
          }
        : {}),
    })) as LockedBooking;
    await emitEvent(tx, 'payment.succeeded', {
      booking_id: bookingId,
      payment_id: paymentId,
      amount: amount.toNumber(),
      currency: b.currency,
      provider: 'offline',
      method: input.method,
    });
    if (confirms) await emitBookingStatus(tx, nb, b.status);
    const money = await balanceBookingMoney(tx, nb);
    settled.push({ refundIds: money.refundIds, staleIds: money.staleIds, duePaymentIds: money.duePaymentIds });
    const booking = (await bookingById(tx, bookingId))!;
    const left = new Decimal(booking.total).minus(after);
    const out: RecordedPayment = {
      outcome: confirms ? 'confirmed' : 'recorded',
      payment_id: paymentId,
      amount: amount.toFixed(2),
      booking,
      paid: after.toFixed(2),
      due: Decimal.max(left, 0).toFixed(2),
    };
    // the customer is told in this transaction: the mails exist exactly when the payment does
    // what is still due, and how to pay it, every mail of a part-paid booking says (restDueRows)
    const received = await bookingMailInTransaction(tx, p, 'payment_received', booking, [
      ['Amount paid', `${out.amount} ${booking.currency}`],
    ]);
    const confirmed = confirms ? await bookingMailInTransaction(tx, p, 'booking_confirmed', booking) : undefined;
    for (const w of [received, confirmed]) if (w) wake.push(w);
    await commit(tx, out);
    return out;
  });
  for (const w of wake) await w();
  expired.delivered();
  // a card intent still asking for money the desk took is cancelled; a provider failure leaves the job to retry
  await deliverRefunds(
    p,
    settled.flatMap((a) => a.refundIds),
  );
  await cancelStaleIntents(
    p,
    settled.flatMap((a) => a.staleIds),
  );
  await startDuePayments(
    p,
    settled.flatMap((a) => a.duePaymentIds),
  );
  return r;
}
