import type { paths } from '../api/schema';

// Booking statuses and the moves the server's state machine allows (src/modules/rental/bookings/status.ts).
// The server still decides: a move it refuses comes back as 409 with its message, shown as is.

/** The statuses the API's booking schema enumerates: the labels and moves below must name every one. */
export type BookingStatus = Booking['status'];

export const BOOKING_STATUSES = [
  'draft',
  'pending_payment',
  'pending',
  'confirmed',
  'in_progress',
  'completed',
  'cancelled',
  'no_show',
  'refunded',
] as const satisfies readonly BookingStatus[];

export const STATUS_LABELS: Record<BookingStatus, string> = {
  draft: 'Draft',
  pending_payment: 'Pending Payment',
  pending: 'Pending',
  confirmed: 'Confirmed',
  in_progress: 'In Progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
  no_show: 'No Show',
  refunded: 'Refunded',
};

export const TRANSITIONS: Readonly<Record<BookingStatus, readonly BookingStatus[]>> = {
  draft: ['pending_payment', 'cancelled'],
  pending_payment: ['confirmed', 'cancelled'],
  pending: ['confirmed', 'completed', 'cancelled'],
  confirmed: ['in_progress', 'completed', 'cancelled', 'no_show', 'pending'],
  in_progress: ['completed', 'cancelled'],
  completed: ['refunded', 'in_progress'],
  cancelled: ['pending_payment', 'confirmed', 'pending'],
  no_show: ['cancelled'],
  refunded: [],
};

export function statusLabel(s: string): string {
  return (STATUS_LABELS as Record<string, string>)[s] ?? s;
}

export function movesFrom(s: string): readonly BookingStatus[] {
  return (TRANSITIONS as Record<string, readonly BookingStatus[]>)[s] ?? [];
}

type BookingPage = NonNullable<
  paths['/wp-json/rova-rental/v1/bookings']['get']['responses']['200']['content']['application/json']['data']
>;
/** A booking as the rental API answers it (its OpenAPI schema, generated into api/schema.d.ts). */
export type Booking = BookingPage['items'][number];
