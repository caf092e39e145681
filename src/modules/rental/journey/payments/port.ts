import type { Platform } from '../../../../platform/context.js';
import { journeySettings, type ProviderName } from '../settings.js';
import { stripeProvider } from './stripe.js';

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
  /** Refunds `amount` of a payment; offline refunds are paid out by the staff (recorded only). */
  refund(p: Platform, payment: { id: number; external_id: string | null }, amount: number, currency: string): Promise<void>;
}

export const offlineProvider: PaymentProvider = {
  name: 'offline',
  async start(p, b) {
    return { instructions: `${journeySettings(p).offlineInstructions} Reference: ${b.reference}. Amount due: ${b.amount.toFixed(2)} ${b.currency}.` };
  },
  async refund() {
    // nothing to call: the refund is handed over in person or by bank transfer
  },
};

/** The provider that handles a payment row (whatever is enabled for new bookings now: old payments still refund). */
export function providerFor(name: string): PaymentProvider | null {
  return name === 'offline' ? offlineProvider : name === 'stripe' ? stripeProvider : null;
}

/** The provider a customer may choose for a new booking (BOOKING_PAYMENT_PROVIDERS), or null. */
export function enabledProvider(p: Platform, name: string): PaymentProvider | null {
  return journeySettings(p).paymentProviders.has(name as ProviderName) ? providerFor(name) : null;
}
