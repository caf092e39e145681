import type { Platform } from '../../../platform/context.js';
import { purgeIdempotency } from '../../../platform/idempotency/store.js';
import { releaseLapsedHolds } from '../bookings/repo.js';

/** Every minute: lapsed payment holds free their slots (bookings do it lazily too), old Idempotency-Keys go. */
export function scheduleJourneyJobs(p: Platform): void {
  if (!p.config.jobs) return;
  p.jobs.schedule({
    name: 'rental-hold-expiry',
    intervalMs: () => 60_000,
    run: async () => {
      const n = await releaseLapsedHolds(p.db);
      if (n > 0) p.log.info({ released: n }, 'lapsed booking holds released');
      await purgeIdempotency(p.db);
    },
  });
}
