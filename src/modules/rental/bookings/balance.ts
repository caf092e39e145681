import { Decimal } from '../money.js';
import type { PaymentRow } from './create/repo.js';
import { isOfflineMethod } from './deadline.js';
import type { BookingRow } from './repo.js';

/** What a booking's customer has paid and still owes now (an amount due after a price change). */
export interface Balance {
  paid: Decimal;
  due: Decimal;
  /** The pending payment asking the amount due, when there is one. */
  asking: PaymentRow | undefined;
}

const kept = (x: PaymentRow) =>
  x.status === 'succeeded' || x.status === 'refunded' ? new Decimal(x.amount).minus(x.refunded_amount) : new Decimal(0);

/**
 * payment_status values under which the rest of the total may be paid now: an amount due after a price change
 * (`partially_paid`), and the rest of a booking whose deposit is paid (`deposit_paid`) — due at pick-up, payable
 * before it as peer rental sites let a customer do.
 */
export const REST_PAYABLE = ['partially_paid', 'deposit_paid'];

/**
 * A reservation waiting for a payment the desk or the bank brings (pay at pick-up, bank transfer): its customer may
 * pay what it asks (the total, or the deposit) by card before that.
 */
function waitsForOfflinePayment(b: Pick<BookingRow, 'status' | 'payment_status' | 'payment_method'>): boolean {
  return b.payment_status === 'unpaid' && WAITING.includes(b.status) && isOfflineMethod(b.payment_method);
}
const WAITING = ['pending_payment', 'pending'];

/**
 * The balance of a booking from its payments: due while payment_status says part of it is paid (the rest), or while a
 * reservation waits for its offline payment (what its pending payment asks).
 */
export function balanceOf(
  b: Pick<BookingRow, 'total' | 'status' | 'payment_status' | 'payment_method'>,
  pays: readonly PaymentRow[],
): Balance {
  const paid = pays.reduce((a, x) => a.plus(kept(x)), new Decimal(0));
  if (waitsForOfflinePayment(b)) {
    const asking = pays.findLast((x) => x.status === 'pending');
    return { paid, due: asking ? new Decimal(asking.amount) : new Decimal(0), asking };
  }
  const due = REST_PAYABLE.includes(b.payment_status)
    ? Decimal.max(new Decimal(b.total).minus(paid), 0)
    : new Decimal(0);
  const asking = due.gt(0) ? pays.find((x) => x.status === 'pending' && new Decimal(x.amount).eq(due)) : undefined;
  return { paid, due, asking };
}
