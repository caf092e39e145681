import Stripe from 'stripe';
import type { Platform } from '../../../platform/context.js';
import type { HttpError } from '../../../platform/http/errors.js';
import { JourneyErrors, paymentProviderFailed } from '../errors.js';
import { perPlatform } from '../../../platform/per-platform.js';
import { Decimal } from '../money.js';
import { journeySettings, type StripeSettings } from '../bookings/settings.js';
import type { PaymentProvider, PaymentRequest } from './provider.js';

// Stripe's own minor-unit table (https://docs.stripe.com/currencies): it differs from ISO 4217 for a few codes.
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/** A decimal amount → the integer Stripe expects for the currency (cents; yen as is; 3-decimal currencies rounded to 10). */
export function stripeAmount(amount: Decimal.Value, currency: string): number {
  const c = currency.toUpperCase();
  const d = new Decimal(amount);
  if (ZERO_DECIMAL.has(c)) return d.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
  if (THREE_DECIMAL.has(c)) return d.times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).times(10).toNumber();
  return d.times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

export function stripeSettings(p: Platform): StripeSettings {
  const s = journeySettings(p).stripe;
  if (!s)
    throw JourneyErrors.providerNotConfigured(
      'The stripe provider is not configured (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET).',
    );
  return s;
}

/** One SDK client per platform; STRIPE_API_BASE points it elsewhere than api.stripe.com (tests). */
export const stripeClient: (p: Platform) => Stripe = perPlatform((p) => {
  const s = stripeSettings(p);
  return new Stripe(s.secretKey, {
    // a retry of a create is sent with the create's own idempotency key (intentKey): it never makes a second intent
    maxNetworkRetries: 2,
    timeout: s.apiTimeoutMs,
    telemetry: false,
    ...(s.api ? { protocol: s.api.protocol, host: s.api.host, port: s.api.port } : {}),
  });
});

const madeOrNot = new WeakSet<Error>();

/**
 * Did a failed call maybe reach Stripe and act (a dropped connection, a timeout, a 5xx — not a refusal)? A start
 * that failed so may have made an intent nobody learned of: it is to be cancelled by its key.
 */
export function mayHaveActed(err: unknown): boolean {
  return err instanceof Error && madeOrNot.has(err);
}

/** Any failure talking to Stripe: the customer sees a 503 naming the provider, the log has the SDK's error. */
function providerError(p: Platform, err: unknown, what: string): HttpError {
  const uncertain =
    err instanceof Stripe.errors.StripeConnectionError ||
    (err instanceof Stripe.errors.StripeError && (err.statusCode ?? 0) >= 500);
  p.log.error({ err }, `stripe ${what} failed`);
  // the design's error table has no 502: an unreachable or refusing provider is a dependency outage (503, like health)
  const e = paymentProviderFailed(what);
  if (uncertain) madeOrNot.add(e);
  return e;
}

/** The one idempotency key of a payment's PaymentIntent: every start (and a retry days later) asks for the same intent. */
export const intentKey = (paymentId: number) => `rova-payment-${paymentId}`;

/** A payment's PaymentIntent as created — the same parameters on every call, as Stripe's key replay requires. */
function intentParams(b: PaymentRequest): Stripe.PaymentIntentCreateParams {
  return {
    amount: stripeAmount(b.amount, b.currency),
    currency: b.currency.toLowerCase(),
    automatic_payment_methods: { enabled: true },
    description: `Booking ${b.reference}`,
    metadata: { booking_id: String(b.bookingId), payment_id: String(b.id), reference: b.reference },
  };
}

/** Where an intent that could not be cancelled stands (it was paid, or was cancelled already), or null when unknown. */
async function settledState(p: Platform, id: string): Promise<'cancelled' | 'succeeded' | null> {
  try {
    const pi = await stripeClient(p).paymentIntents.retrieve(id);
    return pi.status === 'canceled' ? 'cancelled' : pi.status === 'succeeded' ? 'succeeded' : null;
  } catch (err) {
    if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) return 'cancelled';
    throw err;
  }
}

/**
 * `stripe`: a PaymentIntent for the amount due (Stripe minor units, store currency, our ids in metadata, an
 * idempotency key per payment row so a retried create never makes a second intent); the client confirms it with
 * its client_secret and the signed webhook settles it. Refunds go through refunds.create on the intent; a stale
 * intent is cancelled (paymentIntents.cancel).
 */
export const stripeProvider: PaymentProvider = {
  name: 'stripe',
  async start(p, b) {
    try {
      const pi = await stripeClient(p).paymentIntents.create(intentParams(b), { idempotencyKey: intentKey(b.id) });
      return { external_id: pi.id, ...(pi.client_secret ? { client_secret: pi.client_secret } : {}) };
    } catch (err) {
      throw providerError(p, err, 'start the payment');
    }
  },
  async resume(p, b) {
    try {
      const pi = await stripeClient(p).paymentIntents.retrieve(b.external_id);
      return { external_id: pi.id, ...(pi.client_secret ? { client_secret: pi.client_secret } : {}) };
    } catch (err) {
      throw providerError(p, err, 'start the payment');
    }
  },
  async cancel(p, b) {
    const stripe = stripeClient(p);
    try {
      // a creation whose answer was lost: the same call under the same key answers the intent it made (or makes it)
      const id =
        b.external_id ?? (await stripe.paymentIntents.create(intentParams(b), { idempotencyKey: intentKey(b.id) })).id;
      try {
        await stripe.paymentIntents.cancel(
          id,
          { cancellation_reason: 'abandoned' },
          { idempotencyKey: `rova-cancel-${b.id}` },
        );
        return 'cancelled';
      } catch (err) {
        // cancelled already, paid meanwhile, or gone: the intent's own state says which
        const state = err instanceof Stripe.errors.StripeInvalidRequestError ? await settledState(p, id) : null;
        if (state) return state;
        throw err;
      }
    } catch (err) {
      throw providerError(p, err, 'cancel the payment');
    }
  },
  async refund(p, payment, amount, currency, key) {
    if (!payment.external_id) return; // never started with Stripe: nothing was charged
    try {
      await stripeClient(p).refunds.create(
        {
          payment_intent: payment.external_id,
          amount: stripeAmount(amount, currency),
          metadata: { payment_id: String(payment.id) },
        },
        { idempotencyKey: key ?? `rova-refund-${payment.id}-${stripeAmount(amount, currency)}` },
      );
    } catch (err) {
      throw providerError(p, err, 'refund the payment');
    }
  },
};
