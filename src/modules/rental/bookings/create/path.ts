import type { BookedAtOnce } from './statement.js';

/** The ways a customer's booking is written (design §8; see statement.ts). */
export type WritePath =
  /** With other customers' bookings in one statement (BOOKINGS_AT_ONCE): BEGIN, the statement, COMMIT. */
  | 'statement'
  /** In a transaction of its own under the vehicle's lock: lock, insert, ORDER_OF_BOOKING (and the caller's record). */
  | 'transaction'
  /** Nothing to write: the vehicle does not exist (404). */
  | 'not_found';

/** What decides the path, all known before anything is written. */
export interface PathFacts {
  /** BOOKING_BATCHING (on unless turned off). */
  batching: boolean;
  /** An Idempotency-Key: its record is kept in step with the booking, in the booking's transaction. */
  keyed: boolean;
  /** A signed-in customer books (an API key acting for a customer names one: found or made under the lock). */
  signedIn: boolean;
  /** The account's customer record is known (its first booking makes it, under the lock). */
  customerKnown: boolean;
}

type Fallback = Extract<BookedAtOnce, { fallback: unknown }>['fallback'];

/**
 * The path of a customer's booking: first (`tried` undefined) the statement when it can apply, else the transaction;
 * after the statement wrote nothing for it (`tried`: its reason), the transaction, which decides it under the
 * vehicle's lock — unless the vehicle does not exist.
 */
export function writePath(f: PathFacts, tried?: Fallback): WritePath {
  if (tried === 'no_vehicle') return 'not_found';
  if (tried !== undefined) return 'transaction';
  return f.batching && !f.keyed && f.signedIn && f.customerKnown ? 'statement' : 'transaction';
}
