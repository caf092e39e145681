import type { Platform } from '../../../../platform/context.js';
import { setPaymentAnswered, unstartedPayments } from '../create/repo.js';
import { providerFor } from './port.js';

/**
 * Starts the payments made for an amount due (a booking re-priced up, balanceBookingMoney) with their provider,
 * after the deciding transaction committed: a Stripe PaymentIntent for the difference, which the signed webhook
 * settles like the first payment. A provider failure leaves the payment pending without an intent (logged, ids only):
 * the amount stays due on the booking (payment_status partially_paid) for the operator to ask again.
 */
export async function startDuePayments(p: Platform, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  for (const d of await unstartedPayments(p.db, ids)) {
    try {
      const started = await providerFor(d.provider)?.start(p, {
        id: d.id,
        bookingId: d.booking_id,
        reference: d.reference,
        amount: Number(d.amount),
        currency: d.currency,
      });
      if (started?.external_id)
        await setPaymentAnswered(
          p.db,
          d.id,
          { external_id: started.external_id },
          p.config.databaseCommitOutcomeWaitMs,
        );
    } catch {
      p.log.warn(
        { payment_id: d.id, booking_id: d.booking_id },
        'the payment of an amount due could not be started; it stays due',
      );
    }
  }
}
