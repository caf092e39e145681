/**
 * How long a new booking waits for its payment, by how it is paid (issue 35.1), as rental desks work:
 * - `pay_at_pickup`: a reservation — the car is held until pick-up, where the desk takes the money; no deadline
 *   (a customer who does not come is the desk's no-show, not a lapse).
 * - `bank_transfer`: a deadline in days (BOOKING_BANK_TRANSFER_DAYS, default 2), never after the pick-up.
 * - anything else (card, the generic `offline`, an operator's own method): the short hold, in minutes.
 */
export const OFFLINE_METHODS = ['pay_at_pickup', 'bank_transfer'] as const;
export type OfflineMethod = (typeof OFFLINE_METHODS)[number];

export interface DeadlineSettings {
  /** Minutes of the short hold (card payments, the generic offline method). */
  holdMinutes: number;
  /** Days a bank transfer has. */
  bankTransferDays: number;
}

export function isOfflineMethod(m: string | null | undefined): m is OfflineMethod {
  return (OFFLINE_METHODS as readonly (string | null | undefined)[]).includes(m);
}

/** The payment deadline of a booking paid by `method`, made `now`, picked up at `pickUp`; null: held until pick-up. */
export function paymentDeadlineFor(
  method: string | null | undefined,
  pickUp: Date,
  now: Date,
  s: DeadlineSettings,
): Date | null {
  if (method === 'pay_at_pickup') return null;
  if (method === 'bank_transfer')
    return new Date(Math.min(now.getTime() + s.bankTransferDays * 86_400_000, pickUp.getTime()));
  return new Date(now.getTime() + s.holdMinutes * 60_000);
}
