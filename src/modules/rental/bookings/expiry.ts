import type { Platform } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/types.js';
import { mailDeliveryOf } from '../../../platform/mail/delivery.js';
import { emitBookingStatus } from '../events.js';
import { bookingMailInTransaction } from './mails.js';
import { onBookingStatusChange } from '../ledger/commission.js';
import { cancelLapsedUnpaid, EXPIRED_REASON, releaseLapsedHolds, type BookingRow } from './repo.js';

/**
 * Lapsed holds, in the caller's transaction (lazily under the vehicle lock, or for all vehicles by the job):
 * unpaid pending_payment bookings past their deadline are cancelled (booking.cancelled event), other lapsed
 * pending holds just stop holding the slot. Returns the cancelled bookings (their mails: `LapsedHolds`).
 */
export async function expireLapsedHolds(tx: Db, vehicleId?: number): Promise<BookingRow[]> {
  const cancelled = await cancelLapsedUnpaid(tx, vehicleId);
  for (const b of cancelled) {
    await emitBookingStatus(tx, b, 'pending_payment');
    await onBookingStatusChange(tx, b, 'pending_payment', 'cancelled');
  }
  await releaseLapsedHolds(tx, vehicleId);
  return cancelled;
}

/**
 * The holds one write sweeps (lockBooking, the job, a block): each cancelled booking's customer is told why, by a mail
 * stored in the outbox in the same transaction as the cancel (so the mail exists exactly when the cancel does, and is
 * listed in the outbox whether or not SMTP_URL delivers it). `except`: a booking whose own payment is being settled in
 * that transaction (it is confirmed or refunded there and mailed as such, not as lapsed).
 */
export class LapsedHolds {
  readonly cancelled: BookingRow[] = [];
  private stored = false;

  constructor(
    private readonly p: Platform,
    private readonly except?: number,
  ) {}

  /** Sweeps the lapsed holds (of one vehicle, or all) in `tx` and stores their cancellation mails there. */
  async sweep(tx: Db, vehicleId?: number): Promise<void> {
    const rows = await expireLapsedHolds(tx, vehicleId);
    this.cancelled.push(...rows);
    for (const b of rows) {
      if (this.except !== undefined && Number(b.id) === this.except) continue;
      const wake = await bookingMailInTransaction(tx, this.p, 'booking_cancelled', b, [['Reason', EXPIRED_REASON]]);
      if (wake) this.stored = true;
    }
  }

  /** Was booking `id` cancelled by this sweep? */
  has(id: number): boolean {
    return this.cancelled.some((b) => Number(b.id) === id);
  }

  /** After the commit: the delivery sends the stored mails now (SMTP_URL), else nothing to do. Never throws. */
  delivered(): void {
    if (this.stored) mailDeliveryOf(this.p).nudge();
  }
}
