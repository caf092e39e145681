import type { Platform } from '../../../platform/context.js';
import { journeySettings, type ProviderName } from '../bookings/settings.js';
import type { PaymentProvider } from './provider.js';
import { stripeProvider } from './stripe.js';

export type { PaymentProvider, PaymentRequest, PaymentStart } from './provider.js';

/** Offline payment: instructions only, known before the payment exists. */
const offlineStart: NonNullable<PaymentProvider['startKnown']> = (p, b) => ({
  instructions: `${journeySettings(p).offlineInstructions} Reference: ${b.reference}. Amount due: ${b.amount.toFixed(2)} ${b.currency}.`,
});

export const offlineProvider: PaymentProvider = {
  name: 'offline',
  async start(p, b) {
    return offlineStart(p, b);
  },
  startKnown: offlineStart,
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
