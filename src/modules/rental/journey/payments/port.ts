import type { Platform } from '../../../../platform/context.js';
import { journeySettings } from '../settings.js';

/** What the customer needs to pay: offline instructions, or a provider's client secret / checkout URL. */
export interface PaymentStart {
  external_id?: string;
  instructions?: string;
  client_secret?: string;
  checkout_url?: string;
}

/** A payment provider (design §8): starts a payment for an amount and refunds one. */
export interface PaymentProvider {
  name: 'offline' | 'stripe';
  start(p: Platform, b: { id: number; reference: string; amount: number; currency: string }): Promise<PaymentStart>;
  /** Refunds `amount` of a payment; offline refunds are paid out by the staff (recorded only). */
  refund(p: Platform, payment: { external_id: string | null }, amount: number, currency: string): Promise<void>;
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

export function providerFor(name: string): PaymentProvider | null {
  return name === 'offline' ? offlineProvider : null;
}
