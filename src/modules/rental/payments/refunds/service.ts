import type { Platform } from '../../../../platform/context.js';
import { HttpError } from '../../../../platform/http/errors.js';
import { providerFor } from '../port.js';
import { claimDueRefunds, markRefundDone, markRefundFailed } from './repo.js';

export { insertRefund as owePaymentRefund, type RefundReason } from './repo.js';

/** 1 min, 2, 4 … capped at 6 h between attempts. */
const backoff = (attempts: number) => Math.min(60 * 2 ** Math.max(0, attempts - 1), 6 * 3600);

/**
 * Hands owed refunds to their payment provider: the given ones right after the deciding transaction committed, or
 * (ids null) every due one from the journey job. A provider failure never undoes the decision: the refund stays
 * pending with its error and is tried again later. Returns how many were delivered.
 */
export async function deliverRefunds(p: Platform, ids: readonly number[] | null): Promise<number> {
  if (ids && ids.length === 0) return 0;
  let delivered = 0;
  for (const r of await claimDueRefunds(p.db, ids, backoff)) {
    const provider = providerFor(r.provider);
    try {
      // a payment re-priced down twice by the same amount owes two refunds: each is keyed by its own row
      const key = r.reason === 'booking_repriced' ? `rova-refund-r${r.id}` : undefined;
      await provider?.refund(p, { id: r.payment_id, external_id: r.external_id }, Number(r.amount), r.currency, key);
      await markRefundDone(p.db, r.id);
      delivered += 1;
    } catch (err) {
      const why = err instanceof HttpError ? err.message : 'the payment provider could not be reached';
      await markRefundFailed(p.db, r.id, why);
      p.log.warn(
        { refund_id: r.id, booking_id: r.booking_id, attempts: r.attempts },
        'refund not delivered; it will be retried',
      );
    }
  }
  return delivered;
}
