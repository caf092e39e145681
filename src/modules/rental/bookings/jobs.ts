import type { Platform } from '../../../platform/context.js';
import { purgeIdempotency } from '../../../platform/idempotency/store.js';
import { LapsedHolds } from './expiry.js';
import { deliverRefunds } from '../payments/refunds/service.js';
import { runPaymentRetries } from '../payments/retry.js';
import { runPaymentReminders } from './reminders/service.js';

/**
 * Every minute: reminders go to bookings whose payment deadline nears (each once), unpaid bookings past their
 * payment deadline are cancelled and other lapsed holds free their slots (bookings do it lazily too, per vehicle),
 * refunds a provider refused earlier are tried again (and so are intents of amounts due that could not be started,
 * and stale intents that could not be cancelled), old
 * Idempotency-Keys go.
 */
export function scheduleJourneyJobs(p: Platform): void {
  if (!p.config.jobs) return;
  p.jobs.schedule({
    name: 'rental-hold-expiry',
    intervalMs: () => 60_000,
    run: async () => {
      await runPaymentReminders(p);
      await runHoldExpiry(p);
    },
  });
}

/** One pass of the expiry job (also called by tests): returns the bookings it cancelled. */
export async function runHoldExpiry(p: Platform): Promise<number> {
  const lapsed = new LapsedHolds(p);
  await p.transaction((tx) => lapsed.sweep(tx));
  const { cancelled } = lapsed;
  if (cancelled.length > 0)
    p.log.info({ cancelled: cancelled.length }, 'unpaid bookings past their payment deadline cancelled');
  lapsed.delivered();
  await deliverRefunds(p, null);
  await runPaymentRetries(p);
  await purgeIdempotency(p.db);
  return cancelled.length;
}
