import type { Platform } from '../../../platform/context.js';
import { HttpError } from '../../../platform/http/errors.js';
import { providerFor, type PaymentStart } from './port.js';
import { claimProviderWork, markProviderFailed, markStarted } from './work-repo.js';

/** 1 min, 2, 4 … capped at 1 h between attempts (a due amount waits for its intent). */
export const providerBackoff = (attempts: number) => Math.min(60 * 2 ** Math.max(0, attempts - 1), 3600);

/**
 * Starts the payments made for an amount due (a booking re-priced up, balanceBookingMoney; a customer's "pay the
 * rest") with their provider: the given ones right after the deciding transaction committed, or (ids null) every
 * one whose start failed before, from the journey job. A Stripe PaymentIntent for the difference, created under the
 * payment's own idempotency key, so a retry of a creation that did reach Stripe (its answer lost to a timeout or a
 * 5xx) answers the same intent instead of making a second. A failure leaves the payment pending, its amount due, to
 * be tried again (logged, ids only). Answers what each started payment needs from the customer.
 */
export async function startDuePayments(p: Platform, ids: readonly number[] | null): Promise<Map<number, PaymentStart>> {
  const started = new Map<number, PaymentStart>();
  for (const d of await claimProviderWork(p.db, 'start', ids, providerBackoff)) {
    try {
      const s = await providerFor(d.provider)?.start(p, {
        id: d.id,
        bookingId: d.booking_id,
        reference: d.reference,
        amount: Number(d.amount),
        currency: d.currency,
      });
      await markStarted(p.db, d.id, s?.external_id);
      if (s) started.set(d.id, s);
    } catch (err) {
      await markProviderFailed(
        p.db,
        d.id,
        err instanceof HttpError ? err.message : 'the provider could not be reached',
      );
      p.log.warn(
        { payment_id: d.id, booking_id: d.booking_id, attempts: d.attempts },
        'the payment of an amount due could not be started; it stays due and is tried again',
      );
    }
  }
  return started;
}
