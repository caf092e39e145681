// Booking statuses and the moves the server's state machine allows (src/modules/rental/bookings/status.ts).
// The server still decides: a move it refuses comes back as 409 with its message, shown as is.

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
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

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

/** Fields of a booking as the rental API returns them (the OpenAPI schema leaves the object open). */
export interface Booking {
  id: number;
  reference: string;
  vehicle_id: number | null;
  customer_id: number | null;
  customer_name: string;
  customer_email: string;
  kind: string;
  transfer_origin: string | null;
  transfer_destination: string | null;
  pickup_at: string;
  return_at: string | null;
  days: number | null;
  price_per_day: number | null;
  net_price: number;
  addons_total: number;
  tax: number;
  total: number;
  deposit: number;
  remaining: number;
  currency: string;
  payment_status: string;
  payment_method: string | null;
  /** Null: none (a pay-at-pick-up reservation, or a booking not waiting for payment). */
  payment_deadline: string | null;
  status: string;
  notes: string;
  created_at: string;
}
