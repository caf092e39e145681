import Stripe from 'stripe';
import { expect } from 'vitest';
import { startStripe, stripeEvent, type PaymentIntentJson } from '../rental/journey/stripe-server.js';
import { useBookShop, type BookShop } from './book-rig.js';

// A booking-widget test file's shop that takes cards: the stripe provider against the local Stripe-speaking server,
// which also serves the Stripe.js stand-in (ROVA_STRIPE_JS_URL) and, like Stripe, sends the signed webhook once the
// browser confirms a payment.

export type FakeStripe = Awaited<ReturnType<typeof startStripe>>;

export interface StripeShop extends BookShop {
  /** The Stripe-speaking server (its intents and the webhooks it sent). */
  readonly fake: FakeStripe;
  /** The first payment intent made for the booking. */
  intentOf(bookingId: number): PaymentIntentJson;
  /** The booking's first intent succeeds and Stripe's signed webhook says so (answered 200); that intent. */
  paidByWebhook(bookingId: number): Promise<PaymentIntentJson>;
}

/** The file's keys: sk_test_`key`, pk_test_`key`, and the webhook's signing secret. */
export function useStripeShop(keys: { key: string; webhookSecret: string }): StripeShop {
  const SK = `sk_test_${keys.key}`;
  const PK = `pk_test_${keys.key}`;
  const WHSEC = keys.webhookSecret;
  const WEBHOOK = '/wp-json/rova-rental/v2/payments/stripe/webhook';
  let fake: FakeStripe | undefined;

  const rig = useBookShop(
    {},
    {
      async start() {
        fake = await startStripe({ secretKey: SK, publishableKey: PK });
        return {
          BOOKING_PAYMENT_PROVIDERS: 'offline,stripe',
          STRIPE_SECRET_KEY: SK,
          STRIPE_WEBHOOK_SECRET: WHSEC,
          STRIPE_API_BASE: fake.url,
          STRIPE_PUBLISHABLE_KEY: PK,
          ROVA_STRIPE_JS_URL: `${fake.url}/v3/`,
        };
      },
      started(shop) {
        standIn().webhookTo(`${shop.origin}${WEBHOOK}`, WHSEC);
      },
      async close() {
        await fake?.close();
      },
    },
  );

  const standIn = (): FakeStripe => {
    if (!fake) throw new Error('the Stripe stand-in starts in beforeAll');
    return fake;
  };
  const intentOf = (bookingId: number): PaymentIntentJson =>
    [...standIn().intents.values()].find((pi) => pi.metadata.booking_id === String(bookingId))!;

  return {
    get shop() {
      return rig.shop;
    },
    get browser() {
      return rig.browser;
    },
    open: rig.open,
    api: rig.api,
    get fake() {
      return standIn();
    },
    intentOf,
    async paidByWebhook(bookingId: number) {
      const first = intentOf(bookingId);
      const payload = stripeEvent('payment_intent.succeeded', standIn().succeed(first.id));
      const hook = await fetch(`${rig.shop.origin}${WEBHOOK}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC }),
        },
        body: payload,
      });
      expect(hook.status).toBe(200);
      return first;
    },
  };
}
