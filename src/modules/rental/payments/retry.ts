import type { Platform } from '../../../platform/context.js';
import { startDuePayments } from './due.js';
import { cancelStaleIntents } from './stale.js';
import { abandonOldStarts } from './work-repo.js';

/** The journey job's pass over provider work a failure left: starts of amounts due, cancels of stale intents. */
export async function runPaymentRetries(p: Platform): Promise<{ started: number; cancelled: number }> {
  const started = (await startDuePayments(p, null)).size;
  const cancelled = await cancelStaleIntents(p, null);
  const abandoned = await abandonOldStarts(p.db);
  if (abandoned > 0)
    p.log.warn({ abandoned }, 'payments of amounts due not started within a day are no longer retried');
  return { started, cancelled };
}
