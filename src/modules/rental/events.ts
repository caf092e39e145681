import { toDate, type Db } from '../../platform/db/types.js';
import { emitEvent, outboxEvent, type OutboxEvent } from '../../platform/events/emit.js';
import { registerEventTypes } from '../../platform/events/registry.js';
import type { BookingRow } from './bookings/repo.js';

registerEventTypes({
  'booking.created': 'A booking was created (any status, including pending_payment)',
  'booking.confirmed': 'A booking moved to confirmed',
  'booking.cancelled': 'A booking was cancelled',
  'booking.completed': 'A booking was completed (vehicle returned)',
  'booking.repriced':
    "A booking's price changed (new dates): its previous and new total, what was refunded and what is now due",
  'message.created': 'A customer or an administrator wrote a message',
  'payment.succeeded': 'A booking payment was received (the booking is confirmed)',
  'payment.failed':
    'A provider reported a failed payment attempt (the booking keeps waiting until its payment deadline)',
  'vendor.application.submitted': 'A user applied to become a vendor',
  'vendor.application.approved': 'A vendor application was approved (the user is now a vendor)',
  'vendor.application.rejected': 'A vendor application was rejected',
  'payout.requested': 'A vendor requested a payout (money moved to payout hold)',
  'payout.approved': 'An administrator approved a payout (handed to the processor)',
  'payout.rejected': 'An administrator rejected a payout (hold released)',
  'payout.paid': 'The processor reported the payout paid',
  'payout.failed': 'The processor reported the payout failed (money back to available)',
});

const STATUS_EVENTS = {
  confirmed: 'booking.confirmed',
  cancelled: 'booking.cancelled',
  completed: 'booking.completed',
} as const;

/** The public payload of a booking event: ids, status, dates and amounts, never contact details beyond the id. */
function bookingData(b: BookingRow): Record<string, unknown> {
  return {
    id: Number(b.id),
    reference: b.reference,
    status: b.status,
    vehicle_id: Number(b.vehicle_id),
    customer_id: b.customer_id === null ? null : Number(b.customer_id),
    pickup_at: toDate(b.pickup_at).toISOString(),
    return_at: toDate(b.return_at).toISOString(),
    total: b.total, // decimal string, exact
    currency: b.currency,
  };
}

export async function emitBookingCreated(tx: Db, b: BookingRow): Promise<void> {
  await emitEvent(tx, 'booking.created', bookingData(b));
}

/** `booking.created` for a caller that writes it in one of its own statements (the v2 create's order CTE). */
export function bookingCreatedEvent(b: BookingRow): OutboxEvent {
  return outboxEvent('booking.created', bookingData(b));
}

export async function emitBookingStatus(tx: Db, b: BookingRow, previous: string): Promise<void> {
  const type = STATUS_EVENTS[b.status as keyof typeof STATUS_EVENTS];
  if (type) await emitEvent(tx, type, { ...bookingData(b), previous_status: previous });
}

export async function emitMessageCreated(
  tx: Db,
  m: { id: number; thread_id: number; author: 'customer' | 'admin' },
): Promise<void> {
  await emitEvent(tx, 'message.created', m);
}
