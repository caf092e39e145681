import type { Platform } from '../../../platform/context.js';
import { HttpError } from '../../../platform/http/errors.js';
import { providerBackoff } from './due.js';
import { providerFor } from './port.js';
import { claimProviderWork, markCancelDone, markProviderFailed } from './work-repo.js';

/**
 * Cancels at their provider the intents made stale by a committed decision (supersedePayments: the booking
 * cancelled, re-priced, the amount due asked anew or another way), so none can be paid any more: the given ones
 * right after that commit, or (ids null) every one a provider failure left, from the journey job. An intent paid
 * meanwhile is left to its webhook, which settles the money (and refunds what is not owed).
 */
export async function cancelStaleIntents(p: Platform, ids: readonly number[] | null): Promise<number> {
  let done = 0;
  for (const d of await claimProviderWork(p.db, 'cancel', ids, providerBackoff)) {
    const provider = providerFor(d.provider);
    try {
      const outcome = provider?.cancel
        ? await provider.cancel(p, {
            id: d.id,
            bookingId: d.booking_id,
            reference: d.reference,
            amount: Number(d.amount),
            currency: d.currency,
            external_id: d.external_id,
          })
        : 'cancelled';
      await markCancelDone(p.db, d.id);
      if (outcome === 'succeeded')
        p.log.info({ payment_id: d.id, booking_id: d.booking_id }, 'a stale intent was paid; its webhook settles it');
      done += 1;
    } catch (err) {
      await markProviderFailed(
        p.db,
        d.id,
        err instanceof HttpError ? err.message : 'the provider could not be reached',
      );
      p.log.warn(
        { payment_id: d.id, booking_id: d.booking_id, attempts: d.attempts },
        'a stale payment intent could not be cancelled; it is tried again',
      );
    }
  }
  return done;
}
