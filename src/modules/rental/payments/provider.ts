import type { Platform } from '../../../platform/context.js';
import type { ProviderName } from '../bookings/settings.js';

/** What the customer needs to pay: offline instructions, or a provider's client secret / checkout URL. */
export interface PaymentStart {
  external_id?: string;
  instructions?: string;
  client_secret?: string;
  checkout_url?: string;
}

/** The payment being started: our payment row, its booking, the amount due (decimal, store currency). */
export interface PaymentRequest {
  id: number;
  bookingId: number;
  reference: string;
  amount: number;
  currency: string;
}

/** A payment provider (design §8): starts a payment for an amount and refunds one. */
export interface PaymentProvider {
  name: ProviderName;
  start(p: Platform, b: PaymentRequest): Promise<PaymentStart>;
  /**
   * For a provider whose start needs nothing from outside and cannot fail (offline: instructions only): the start,
   * known before the payment row exists (so the booking mail can be written with the booking).
   */
  startKnown?(p: Platform, b: Omit<PaymentRequest, 'id' | 'bookingId'>): PaymentStart;
  /**
   * Refunds `amount` of a payment; offline refunds are paid out by the staff (recorded only). `key`: the refund's own
   * idempotency key, for refunds of which one payment may owe the same amount twice (re-pricing); else the provider's
   * default per payment and amount.
   */
  refund(
    p: Platform,
    payment: { id: number; external_id: string | null },
    amount: number,
    currency: string,
    key?: string,
  ): Promise<void>;
  /** What the customer needs to pay a payment started earlier (`external_id` set): the same intent's client secret. */
  resume?(p: Platform, payment: PaymentRequest & { external_id: string }): Promise<PaymentStart>;
  /**
   * Cancels the intent a payment started (or may have started: `external_id` null after a creation whose answer was
   * lost) so it can no longer be paid. `succeeded` when it was paid meanwhile (the provider's webhook settles it).
   * Absent: the provider starts nothing that could be paid later (offline).
   */
  cancel?(p: Platform, payment: PaymentRequest & { external_id: string | null }): Promise<'cancelled' | 'succeeded'>;
}
