import type { Platform } from '../../../platform/context.js';
import { toDate, type Db } from '../../../platform/db/types.js';
import { emitEvent } from '../../../platform/events/emit.js';
import { emitBookingStatus } from '../events.js';
import { invalidField, RentalErrors, stateConflictFor } from '../errors.js';
import { LapsedHolds } from '../bookings/expiry.js';
import { findOverlap, updateBooking, type BookingRow } from '../bookings/repo.js';
import { rentalSettings } from '../settings.js';
import { balanceBookingMoney } from '../bookings/reprice.js';
import { lockBooking, type LockedBooking } from '../bookings/lock.js';
import { paymentsOf, setPayment } from '../bookings/create/repo.js';
import { bookingMailInTransaction } from '../bookings/mails.js';
import { deliverRefunds, owePaymentRefund } from './refunds/service.js';
import { cancelStaleIntents } from './stale.js';
import { startDuePayments } from './due.js';
import { journeySettings, type ProviderName } from '../bookings/settings.js';

/** What a storefront needs to offer payment: the providers, and Stripe.js with the publishable key when card payment is possible. */
export function paymentConfig(p: Platform): {
  providers: ProviderName[];
  stripe: { publishable_key: string; js_url: string } | null;
} {
  const s = journeySettings(p);
  const stripe =
    s.paymentProviders.has('stripe') && s.stripe?.publishableKey
      ? { publishable_key: s.stripe.publishableKey, js_url: s.stripe.jsUrl }
      : null;
  return { providers: [...s.paymentProviders], stripe };
}

export type Settlement = 'confirmed' | 'balance_paid' | 'already_settled' | 'refunded_slot_taken';

export const LATE_PAYMENT_REASON =
  'Payment arrived after the hold expired and the vehicle was booked by someone else; the payment was refunded.';

/** Statuses of a booking that has its slot for good: a payment now is an amount due after a price change. */
const UNDER_WAY: readonly string[] = ['confirmed', 'in_progress', 'completed'];

/**
 * A payment succeeded (provider webhook, or an admin marking an offline payment paid). Under the booking's lock
 * (lockBooking): the booking is confirmed when it still holds its slot or the slot is still free; when the hold
 * lapsed and the slot was taken, the booking is cancelled with the reason and the money refunded through the
 * provider. A payment on a booking already under way pays an amount due (balance_paid). Either way the money is
 * then settled against the booking's total (balanceBookingMoney: a payment started before the price went down brings
 * too much, which is refunded). A repeat for the same payment acts once.
 */
export async function settlePayment(
  p: Platform,
  bookingId: number,
  match: { paymentId?: number; externalId?: string; desk?: boolean },
): Promise<{ outcome: Settlement; booking: BookingRow }> {
  const buf = rentalSettings(p).bufferMinutes * 60_000;
  // the booking's own lapse is not mailed: its payment confirms it again, or refunds it, in this transaction
  const expired = new LapsedHolds(p, bookingId);
  const wake: (() => Promise<void>)[] = [];
  const r = await p.transaction(async (tx) => {
    const settled = await settleLocked(tx);
    wake.push(...(await settlementMails(tx, p, settled)));
    return settled;
  });
  for (const w of wake) await w();
  expired.delivered();
  // owed since the commit above; a provider failure leaves them pending for the journey job to retry
  await deliverRefunds(p, r.refundIds);
  await cancelStaleIntents(p, r.staleIds);
  await startDuePayments(p, r.dueIds);
  return { outcome: r.outcome, booking: r.booking };

  async function settleLocked(tx: Db) {
    const b = await lockBooking(tx, bookingId, expired);
    const pays = await paymentsOf(tx, bookingId, true);
    const pay =
      pays.find(
        (x) =>
          (match.paymentId !== undefined && x.id === match.paymentId) ||
          (match.externalId !== undefined && x.external_id === match.externalId),
      ) ??
      (match.paymentId === undefined && match.externalId === undefined
        ? onlyPending(match.desk ? pays.filter((x) => x.provider === 'offline') : pays)
        : undefined);
    if (!pay && match.paymentId !== undefined && match.externalId === undefined)
      throw invalidField('payment_id', `Booking ${bookingId} has no payment ${match.paymentId}.`);
    // the desk received money: a card payment is Stripe's to settle, and marking one paid would leave its intent
    // open for the customer to pay a second time
    const card =
      match.desk && pay?.provider !== 'offline' ? (pay ?? pays.find((x) => x.status === 'pending')) : undefined;
    if (card)
      throw stateConflictFor(
        'payment_by_card',
        `Payment ${card.id} is a card payment, which Stripe settles. To record money the desk received (a bank ` +
          'transfer, cash), use POST /bookings/{id}/payments: the card payment is then withdrawn.',
        { payment_id: card.id },
      );
    if (!pay) throw RentalErrors.stateConflict('The booking has no pending payment to settle.');
    // a payment superseded (`cancelled`) whose intent was paid before its cancel reached the provider: the money
    // came all the same, and is settled like any payment (what is not owed is refunded)
    if (pay.status !== 'pending' && pay.status !== 'cancelled')
      return {
        outcome: 'already_settled' as const,
        booking: b,
        pay,
        refundIds: [] as number[],
        staleIds: [],
        dueIds: [],
      };
    const amount = Number(pay.amount);
    if (UNDER_WAY.includes(b.status)) {
      await setPayment(tx, pay.id, { status: 'succeeded' });
      await emitEvent(tx, 'payment.succeeded', {
        booking_id: bookingId,
        payment_id: pay.id,
        amount,
        currency: pay.currency,
        provider: pay.provider,
      });
      const money = await balanceBookingMoney(tx, b);
      return {
        outcome: 'balance_paid' as const,
        booking: { ...b, payment_status: money.payment_status },
        pay,
        refundIds: money.refundIds,
        staleIds: money.staleIds,
        dueIds: money.duePaymentIds,
      };
    }
    const paidStatus = amount >= Number(b.total) ? 'paid' : 'deposit_paid';
    const holding = b.status === 'pending_payment' || b.status === 'pending';
    // cancelled only because its payment deadline passed: the money came after all, so it may still take a free slot
    const lapsed = b.status === 'cancelled' && b.cancel_reason === 'payment_deadline_passed';
    const clash =
      !holding || !(b as BookingRow & { holds_slot?: boolean }).holds_slot
        ? await findOverlap(
            tx,
            Number(b.vehicle_id),
            new Date(toDate(b.pickup_at).getTime() - buf),
            new Date(toDate(b.return_at).getTime() + buf),
            bookingId,
          )
        : undefined;
    if ((holding || lapsed) && !clash) {
      await setPayment(tx, pay.id, { status: 'succeeded' });
      const nb = (await updateBooking(tx, bookingId, {
        status: 'confirmed',
        payment_status: paidStatus,
        payment_deadline: null,
        cancel_reason: null,
      })) as LockedBooking;
      await emitEvent(tx, 'payment.succeeded', {
        booking_id: bookingId,
        payment_id: pay.id,
        amount,
        currency: pay.currency,
        provider: pay.provider,
      });
      await emitBookingStatus(tx, nb, b.status);
      const money = await balanceBookingMoney(tx, nb);
      return {
        outcome: 'confirmed' as const,
        booking: { ...nb, payment_status: money.payment_status },
        pay,
        refundIds: money.refundIds,
        staleIds: money.staleIds,
        dueIds: money.duePaymentIds,
      };
    }
    // the slot is gone (or the booking was cancelled meanwhile): give the money back
    await setPayment(tx, pay.id, { status: 'refunded', refunded_amount: amount });
    const refundId = await owePaymentRefund(tx, {
      paymentId: pay.id,
      bookingId,
      amount: pay.amount,
      currency: pay.currency,
      reason: 'late_payment_slot_taken',
    });
    const nb = (await updateBooking(tx, bookingId, {
      status: 'cancelled',
      // a cancel that kept its fee keeps it: only this payment is given back
      payment_status: b.payment_status === 'partially_refunded' ? 'partially_refunded' : 'refunded',
      cancel_reason: lapsed || holding ? 'late_payment_slot_taken' : (b.cancel_reason ?? null),
      notes: [b.notes, LATE_PAYMENT_REASON].filter(Boolean).join('\n'),
    }))!;
    if (b.status !== 'cancelled') await emitBookingStatus(tx, nb, b.status);
    return {
      outcome: 'refunded_slot_taken' as const,
      booking: nb,
      pay,
      refundIds: refundId === null ? [] : [refundId],
      staleIds: [] as number[],
      dueIds: [] as number[],
    };
  }
}

/**
 * The customer's mails of a settlement, written in its transaction (they exist exactly when the settlement does);
 * the answers wake the delivery after the commit.
 */
async function settlementMails(
  tx: Db,
  p: Platform,
  r: { outcome: Settlement; booking: BookingRow; pay: { amount: string | number; currency: string } },
): Promise<(() => Promise<void>)[]> {
  const woken: ((() => Promise<void>) | undefined)[] = [];
  if (r.outcome === 'refunded_slot_taken') {
    woken.push(
      await bookingMailInTransaction(tx, p, 'booking_cancelled', r.booking, [['Reason', LATE_PAYMENT_REASON]]),
    );
  } else if (r.outcome === 'confirmed' || r.outcome === 'balance_paid') {
    // a deposit leaves the rest to pay (at pick-up, or by card before): every mail of the booking says how much
    woken.push(
      await bookingMailInTransaction(tx, p, 'payment_received', r.booking, [
        ['Amount paid', `${Number(r.pay.amount).toFixed(2)} ${r.pay.currency}`],
      ]),
    );
    if (r.outcome === 'confirmed') woken.push(await bookingMailInTransaction(tx, p, 'booking_confirmed', r.booking));
  }
  return woken.filter((w) => w !== undefined);
}

/**
 * The payment an admin's mark-paid without a payment id settles: the one pending payment. Several pending (a
 * deposit's intent and an amount due, say) must be named, so no payment is settled by guess: 409 `payment_ambiguous`
 * with their ids.
 */
function onlyPending<T extends { id: number; status: string; amount: string | number; provider: string }>(
  pays: readonly T[],
): T | undefined {
  const pending = pays.filter((x) => x.status === 'pending');
  if (pending.length > 1)
    throw stateConflictFor(
      'payment_ambiguous',
      `The booking has ${pending.length} pending payments: name the one received (payment_id).`,
      { pending_payments: pending.map((x) => ({ id: x.id, amount: Number(x.amount), provider: x.provider })) },
    );
  return pending[0];
}
