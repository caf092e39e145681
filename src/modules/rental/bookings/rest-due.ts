import type { Db } from '../../../platform/db/types.js';
import { customerById } from '../customers/repo.js';
import { balanceOf, REST_PAYABLE } from './balance.js';
import { paymentsOf } from './create/repo.js';
import {
  PAY_REST_AT_PICKUP_BY_LINK,
  PAY_REST_AT_PICKUP_IN_ACCOUNT,
  PAY_REST_BY_LINK,
  PAY_REST_IN_ACCOUNT,
} from './mail-text.js';
import type { BookingRow } from './repo.js';
import { BLOCKING } from './status.js';

/** Where a customer pays the rest by card: a guest (no account) through the mail's manage link, others in their account. */
export async function paysRestByLink(tx: Db, b: Pick<BookingRow, 'customer_id'>): Promise<boolean> {
  return b.customer_id !== null && !(await customerById(tx, Number(b.customer_id)))?.user_id;
}

/**
 * What every booking mail of a booking with part of its total paid says of the rest: how much is still due and how to
 * pay it — after a deposit, at pick-up or by card before it; after a price change, by card. Empty for a booking paid
 * in full, unpaid or ended. Read in the mail's transaction, so it is the balance the mail's change left.
 */
export async function restDueRows(
  tx: Db,
  b: Pick<BookingRow, 'id' | 'total' | 'currency' | 'status' | 'payment_status' | 'payment_method' | 'customer_id'>,
): Promise<[string, string][]> {
  // open bookings only: the statuses that hold the vehicle
  if (!(BLOCKING as readonly string[]).includes(b.status) || !REST_PAYABLE.includes(b.payment_status)) return [];
  const { due } = balanceOf(b, await paymentsOf(tx, Number(b.id)));
  if (!due.gt(0)) return [];
  const byLink = await paysRestByLink(tx, b);
  const how =
    b.payment_status === 'deposit_paid'
      ? byLink
        ? PAY_REST_AT_PICKUP_BY_LINK
        : PAY_REST_AT_PICKUP_IN_ACCOUNT
      : byLink
        ? PAY_REST_BY_LINK
        : PAY_REST_IN_ACCOUNT;
  return [
    ['Still due', `${due.toFixed(2)} ${b.currency}`],
    ['How to pay', how],
  ];
}
