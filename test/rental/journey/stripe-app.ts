import { makeApp, type TestApp } from '../../helpers/app.js';
import { sendStripeWebhook, startStripe } from './stripe-server.js';

const SK = 'sk_test_rovaJourneyFake123';
const WHSEC = 'whsec_rovaJourneyWebhookSecret';

/** An app taking card payments from the local Stripe-speaking server, with an administrator's key. */
export interface StripeApp {
  t: TestApp;
  fake: Awaited<ReturnType<typeof startStripe>>;
  admin: Record<string, string>;
  /** Posts a Stripe event to the webhook, signed as Stripe signs it. */
  signed(payload: string): ReturnType<TestApp['inject']>;
  close(): Promise<void>;
}

export async function stripeApp(env: Record<string, string> = {}): Promise<StripeApp> {
  const fake = await startStripe({ secretKey: SK });
  const t = await makeApp({
    env: {
      RENTAL_WRITE_RATE_LIMIT: '1000000',
      RENTAL_PUBLIC_RATE_LIMIT: '1000000',
      BOOKING_PAYMENT_PROVIDERS: 'offline,stripe',
      STRIPE_SECRET_KEY: SK,
      STRIPE_WEBHOOK_SECRET: WHSEC,
      STRIPE_API_BASE: fake.url,
      ...env,
    },
  });
  const admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
  return {
    t,
    fake,
    admin,
    signed: (payload) => sendStripeWebhook(t, payload, WHSEC),
    close: async () => {
      await t.close();
      await fake.close();
    },
  };
}
