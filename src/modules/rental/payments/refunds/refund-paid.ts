import { sql } from 'drizzle-orm';
import type { Db } from '../../../../platform/db/types.js';
import { Decimal } from '../../money.js';
import { paymentsOf } from '../../bookings/create/repo.js';
import { insertRefund, type RefundReason } from './repo.js';

/**
 * Gives back everything still paid on a booking that an operator, a vendor or a status move to `refunded` ends:
 * each succeeded payment's unrefunded remainder becomes an owed refund, in the caller's transaction and under its
 * booking lock, so a payment settling at the same moment is either seen here or finds the booking ended and refunds
 * itself. (A customer's own cancel decides its fee instead: cancelMyBooking.) Returns the owed refund ids, to be
 * delivered after commit.
 */
export async function refundEverythingPaid(
  tx: Db,
  bookingId: number,
  reason: Exclude<RefundReason, 'customer_cancelled' | 'late_payment_slot_taken'>,
): Promise<number[]> {
  const owed: number[] = [];
  let refunded = new Decimal(0);
  for (const pay of await paymentsOf(tx, bookingId, true)) {
    if (pay.status !== 'succeeded') continue;
    const left = new Decimal(pay.amount).minus(pay.refunded_amount ?? 0);
    if (!left.gt(0)) continue;
    await tx.execute(
      sql`UPDATE rental_payments SET status = 'refunded', refunded_amount = amount, updated_at = now() WHERE id = ${pay.id}`,
    );
    const id = await insertRefund(tx, {
      paymentId: pay.id,
      bookingId,
      amount: left.toFixed(2),
      currency: pay.currency,
      reason,
    });
    if (id !== null) owed.push(id);
    refunded = refunded.plus(left);
  }
  if (refunded.gt(0))
    await tx.execute(
      sql`UPDATE rental_bookings SET payment_status = 'refunded', updated_at = now() WHERE id = ${bookingId}`,
    );
  return owed;
}
