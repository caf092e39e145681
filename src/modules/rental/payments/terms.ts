import { localTime } from '../../../platform/mail/templates.js';
import type { BookingRow } from '../bookings/repo.js';
import { iso } from '../views.js';

/**
 * What a booking still waiting for its payment tells its customer about paying, in every booking mail: the deadline
 * in the store's time zone, or that a pay-at-pick-up reservation is held until pick-up (issue 35.1: the confirmation
 * said "pay before the deadline" without saying when).
 */
export function paymentTermRows(
  b: Pick<BookingRow, 'status' | 'payment_status' | 'payment_method' | 'payment_deadline'>,
  timezone: string,
): [string, string][] {
  if (!['pending_payment', 'pending'].includes(b.status) || b.payment_status !== 'unpaid') return [];
  if (b.payment_deadline !== null) return [['Pay by', localTime(iso(b.payment_deadline), timezone)]];
  return b.payment_method === 'pay_at_pickup'
    ? [['Payment', 'At pick-up: the vehicle is held for you until then']]
    : [];
}
