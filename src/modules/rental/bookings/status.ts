import { RentalErrors } from '../errors.js';

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

/** Allowed moves (design §3). Anything else is a 409 STATE_CONFLICT. */
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

/** Statuses that hold the vehicle (pending ones only until their payment deadline). */
export const BLOCKING: readonly BookingStatus[] = ['pending_payment', 'pending', 'confirmed', 'in_progress'];
export const DEADLINE_BOUND: readonly BookingStatus[] = ['pending_payment', 'pending'];
/** Statuses a booking may be created in. */
export const INITIAL_STATUSES = ['draft', 'pending_payment', 'pending', 'confirmed'] as const;

export function isBookingStatus(s: string): s is BookingStatus {
  return (BOOKING_STATUSES as readonly string[]).includes(s);
}

export function canMove(from: BookingStatus, to: BookingStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertMove(from: BookingStatus, to: BookingStatus): void {
  if (!canMove(from, to)) {
    throw RentalErrors.stateConflict(`A booking cannot move from ${from} to ${to}.`, {
      from,
      to,
      allowed: [...TRANSITIONS[from]],
    });
  }
}
