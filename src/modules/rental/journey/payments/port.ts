import type { Platform } from '../../../../platform/context.js';
import { journeySettings, type ProviderName } from '../settings.js';
import type { PaymentProvider } from './provider.js';
import { stripeProvider } from './stripe.js';

export type { PaymentProvider, PaymentRequest, PaymentStart } from './provider.js';

export const offlineProvider: PaymentProvider = {
  name: 'offline',
  async start(p, b) {
    return this.startKnown!(p, b);
  },
  startKnown(p, b) {
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
