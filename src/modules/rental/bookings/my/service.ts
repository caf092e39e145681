import type { Platform } from '../../../../platform/context.js';
import { toDate } from '../../../../platform/db/types.js';
import { bookingNotFound, RentalErrors } from '../../errors.js';
import { bookingRefs, type BookingRow } from '../repo.js';
import { changeStatus } from '../service.js';
import { cents, Decimal } from '../../money.js';
import { orderOf, paymentsOf, setPayment } from '../create/repo.js';
import { deliverRefunds, owePaymentRefund } from '../../payments/refunds/service.js';
import { journeySettings } from '../settings.js';
import { myBookingRow, myBookingRows, setBookingPaymentStatus, type MyBookingRow } from './repo.js';

export async function myBookings(
  p: Platform,
  userId: number,
  limit: number,
  offset: number,
  reference?: string,
): Promise<{ items: MyBookingRow[]; total: number }> {
  return myBookingRows(p.db, userId, limit, offset, reference);
}

/** One of the caller's bookings; another customer's is a 404, exactly like a missing one. */
export async function myBooking(p: Platform, userId: number, id: number): Promise<BookingRow> {
  const b = await myBookingRow(p.db, userId, id);
  if (!b) throw bookingNotFound(id);
  return b;
}

const CANCELLABLE = ['pending_payment', 'pending', 'confirmed'];

/** What a customer cancellation would cost now: the same rule cancelMyBooking applies under the booking lock. */
export interface CancelQuote {
  cancellable: boolean;
  free_cancellation_until: string;
  free: boolean;
  fee: number;
  refund: number;
  currency: string;
}

/** The cancellation rule, pure: free before the deadline, after it `feePercent` of what was paid is kept. */
export function cancelTerms(
  b: Pick<BookingRow, 'status' | 'pickup_at' | 'currency'>,
  paidTotal: Decimal,
  s: { freeCancelHours: number; cancelFeePercent: number },
  now = Date.now(),
) {
  const deadline = new Date(toDate(b.pickup_at).getTime() - s.freeCancelHours * 3_600_000);
  const free = now < deadline.getTime();
  const fee = free ? new Decimal(0) : cents(paidTotal.times(s.cancelFeePercent).div(100));
  return { cancellable: CANCELLABLE.includes(b.status), deadline, free, fee, refund: paidTotal.minus(fee) };
}

export async function myBookingDetail(p: Platform, userId: number, id: number) {
  return customerBookingDetail(p, await myBooking(p, userId, id));
}

/** A customer's view of booking `b` (already checked to be theirs: their account's, or a guest's manage link). */
export async function customerBookingDetail(p: Platform, b: BookingRow) {
  const id = Number(b.id);
  const [order, payments, refs] = await Promise.all([orderOf(p.db, id), paymentsOf(p.db, id), bookingRefs(p.db, b)]);
  const paid = payments
    .filter((x) => x.status === 'succeeded')
    .reduce((a, x) => a.plus(x.amount).minus(x.refunded_amount), new Decimal(0));
  const t = cancelTerms(b, paid, journeySettings(p));
  const cancellation: CancelQuote = {
    cancellable: t.cancellable,
    free_cancellation_until: t.deadline.toISOString(),
    free: t.free,
    fee: t.fee.toNumber(),
    refund: t.refund.toNumber(),
    currency: b.currency,
  };
  return { b, order, payments, refs, cancellation };
}

/**
 * The customer cancels: free until the cancellation deadline (BOOKING_FREE_CANCEL_HOURS before pickup), after it
 * the configured fee (a percent of what was paid) is kept; the rest is refunded through the provider.
 */
export async function cancelMyBooking(p: Platform, userId: number, id: number) {
  return cancelCustomerBooking(p, await myBooking(p, userId, id), () => myBooking(p, userId, id));
}

/**
 * The customer's cancellation of booking `b` (already checked to be theirs); `reread` reads it again after the
 * cancel. Shared by the account and a guest's manage link: the same rules and fee.
 */
export async function cancelCustomerBooking(p: Platform, b: BookingRow, reread: () => Promise<BookingRow>) {
  const id = Number(b.id);
  if (!CANCELLABLE.includes(b.status)) {
    throw RentalErrors.stateConflict(`A ${b.status} booking cannot be cancelled.`);
  }
  const s = journeySettings(p);
  const now = Date.now();
  const { deadline } = cancelTerms(b, new Decimal(0), s, now);
  let fee = new Decimal(0);
  let refund = new Decimal(0);
  const owed: number[] = [];
  // Decided under the booking lock, in the transaction that cancels: a payment that lands at the same moment
  // (mark-paid, a Stripe webhook, on any node) is either seen here and refunded, or waits and finds the booking
  // cancelled (and refunds itself). Reading payments before the lock once let a cancel keep the money.
  // changeStatus emits booking.cancelled with the move.
  await changeStatus(p, id, 'cancelled', {
    by: 'customer',
    refunds: 'caller',
    // stored with the cancel, in its transaction (fee and refund as `within` decided them)
    mail: {
      kind: 'booking_cancelled',
      extra: () => [
        ['Cancellation fee', `${fee.toFixed(2)} ${b.currency}`],
        ['Refund', `${refund.toFixed(2)} ${b.currency}`],
      ],
    },
    within: async (tx, booking) => {
      // what each payment still holds: a re-priced booking may have had part of a payment refunded already
      const paid = (await paymentsOf(tx, id, true)).filter((x) => x.status === 'succeeded');
      const held = (x: (typeof paid)[number]) => new Decimal(x.amount).minus(x.refunded_amount);
      const paidTotal = paid.reduce((a, x) => a.plus(held(x)), new Decimal(0));
      ({ fee, refund } = cancelTerms(b, paidTotal, s, now));
      let left = refund;
      for (const pay of paid) {
        const part = Decimal.min(left, held(pay));
        left = left.minus(part);
        if (!part.gt(0)) continue;
        const refunded = new Decimal(pay.refunded_amount).plus(part);
        await setPayment(tx, pay.id, {
          status: refunded.eq(pay.amount) ? 'refunded' : 'succeeded',
          refunded_amount: refunded.toFixed(2),
        });
        const refundId = await owePaymentRefund(tx, {
          paymentId: pay.id,
          bookingId: id,
          amount: part.toFixed(2),
          currency: pay.currency,
          reason: 'customer_cancelled',
        });
        if (refundId !== null) owed.push(refundId);
      }
      await setBookingPaymentStatus(
        tx,
        id,
        refund.gt(0) ? (fee.gt(0) ? 'partially_refunded' : 'refunded') : booking.payment_status,
      );
    },
  });
  // owed since the commit above; a provider failure leaves them pending for the journey job to retry
  await deliverRefunds(p, owed);
  const after = await reread();
  return {
    booking: after,
    fee: fee.toNumber(),
    refund: refund.toNumber(),
    free_cancellation_until: deadline.toISOString(),
    order: await orderOf(p.db, id),
  };
}
