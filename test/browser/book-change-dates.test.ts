import type { Browser, BrowserContext } from 'playwright-core';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyIntegrity } from '../../src/modules/rental/integrity/service.js';
import { rows } from '../../src/platform/db/types.js';
import { startStripe, stripeEvent } from '../rental/journey/stripe-server.js';
import { ACCOUNT, customer, expectAxeClean, TERMS_ACCEPTED, visitors } from './book-helpers.js';
import { launchChromium, startShop, visitorAddress, type Shop } from './harness.js';

// "Change dates" (issue 36.6): a customer whose card booking is paid moves it to other, longer dates from their
// account — reached by clicking from the home page — sees the price difference before confirming, confirms, and pays
// the difference by card (the Stripe.js stand-in against the local Stripe-speaking server and its signed webhook).

const SK = 'sk_test_rovaChangeDates123';
const PK = 'pk_test_rovaChangeDates123';
const WHSEC = 'whsec_rovaChangeDatesSecret';

let shop: Shop;
let fake: Awaited<ReturnType<typeof startStripe>>;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  fake = await startStripe({ secretKey: SK, publishableKey: PK });
  [shop, browser] = await Promise.all([
    startShop({
      BOOKING_PAYMENT_PROVIDERS: 'offline,stripe',
      STRIPE_SECRET_KEY: SK,
      STRIPE_WEBHOOK_SECRET: WHSEC,
      STRIPE_API_BASE: fake.url,
      STRIPE_PUBLISHABLE_KEY: PK,
      ROVA_STRIPE_JS_URL: `${fake.url}/v3/`,
    }),
    launchChromium(),
  ]);
  fake.webhookTo(`${shop.origin}/wp-json/rova-rental/v2/payments/stripe/webhook`, WHSEC);
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await shop?.close();
  await fake?.close();
});

const open = visitors(() => ({ shop, browser, contexts }));

async function call<T>(
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; status: number },
): Promise<T> {
  const headers: Record<string, string> = { 'x-forwarded-for': visitorAddress() };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(`${shop.origin}/wp-json${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBe(opts.status);
  return JSON.parse(text) as T;
}

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);

/** The two widths: a laptop and a phone. */
const SIZES: [string, number, number][] = [
  ['desktop', 1280, 900],
  ['phone', 375, 740],
];

describe('booking widget, account: change the dates of a paid booking', () => {
  it.each(SIZES)(
    '%s: from / to the account → booking → "Change dates" → new price and difference → confirm → pay the difference by card; axe on every step',
    async (_n, width, height) => {
      // a customer with a card booking of 3 days, paid (Stripe's webhook)
      const c = customer();
      await call('POST', '/rova/v1/auth/register', {
        body: { email: c.email, password: c.password, first_name: c.first, last_name: c.last },
        status: 202,
      });
      const { access_token: token } = await call<{ access_token: string }>('POST', '/rova/v1/auth/token', {
        body: { login: c.email, password: c.password },
        status: 200,
      });
      const q = 'pickup_date=2029-06-04&return_date=2029-06-07&sort=price_asc&per_page=1';
      const free = await call<{ data: { items: { vehicle_id: number }[] } }>(
        'GET',
        `/rova-rental/v2/vehicles/search?${q}`,
        {
          status: 200,
        },
      );
      const made = await call<{
        data: { booking: { id: number; reference: string; total: number; currency: string } };
      }>('POST', '/rova-rental/v2/booking/create', {
        token,
        status: 201,
        body: {
          vehicle_id: free.data.items[0]!.vehicle_id,
          pickup_date: '2029-06-04',
          return_date: '2029-06-07',
          pickup_time: '10:00',
          return_time: '10:00',
          payment_method: 'stripe',
          payment_plan: 'full',
          ...TERMS_ACCEPTED,
        },
      });
      const b = made.data.booking;
      const first = [...fake.intents.values()].find((pi) => pi.metadata.booking_id === String(b.id))!;
      const payload = stripeEvent('payment_intent.succeeded', fake.succeed(first.id));
      const hook = await fetch(`${shop.origin}/wp-json/rova-rental/v2/payments/stripe/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC }),
        },
        body: payload,
      });
      expect(hook.status).toBe(200);

      // the customer, in the browser: from the home page through the links to the account
      const { page, events, violations } = await open('/', { viewport: { width, height } });
      await page.getByRole('link', { name: 'Demo rental page' }).click();
      await page.waitForURL(`${shop.origin}/demo/rent`);
      await page.getByRole('link', { name: 'My account' }).click();
      await page.waitForURL(`${shop.origin}/demo/rent/account`);
      const w = page.locator(ACCOUNT);
      await w.locator('input[name=email]').fill(c.email);
      await w.locator('input[name=password]').fill(c.password);
      await w.locator('button[data-f=auth-submit]').click();
      await w.locator('h2', { hasText: 'My bookings' }).waitFor();
      await w.locator(`button[data-f=booking-${b.id}]`).click();
      await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();

      await w.locator('button[data-f=change-dates]').click();
      await w.locator('h2', { hasText: `Change booking ${b.reference}` }).waitFor();
      expect(await page.getByLabel('Pick-up date').inputValue()).toBe('2029-06-04');
      expect(await page.getByLabel('Return date').inputValue()).toBe('2029-06-07');
      await expectAxeClean(page, 'change dates');
      // two more days
      await page.getByLabel('Return date').fill('2029-06-09');
      await w.locator('button[data-f=change-quote]').click();
      const cell = (label: string) =>
        w
          .locator('table.breakdown tr')
          .filter({ has: page.getByRole('rowheader', { name: label, exact: true }) })
          .locator('td');
      await cell('New total').waitFor();
      // what the server quotes for the same change (nothing written by either quote)
      const quoted = await call<{ data: { total: number; previous_total: number; difference: number; due: number } }>(
        'POST',
        `/rova-rental/v2/my/bookings/${b.id}/change/quote`,
        {
          token,
          status: 200,
          body: { pickup_date: '2029-06-04', pickup_time: '10:00', return_date: '2029-06-09', return_time: '10:00' },
        },
      );
      expect(quoted.data.previous_total).toBe(b.total);
      expect(quoted.data.due).toBeGreaterThan(0);
      expect(await cell('Previous total').textContent()).toBe(money(b.total, b.currency));
      expect(await cell('New total').textContent()).toBe(money(quoted.data.total, b.currency));
      expect(await cell('Difference').textContent()).toBe(money(quoted.data.difference, b.currency));
      expect(await cell('To pay').textContent()).toBe(money(quoted.data.due, b.currency));
      await expectAxeClean(page, 'change dates with the price');

      await w.locator('button[data-f=confirm-change]').click();
      // the difference is due: straight on to paying it by card
      await w.locator('h2', { hasText: `Pay the rest of booking ${b.reference}` }).waitFor();
      const cardField = page.getByLabel('Card number');
      await cardField.waitFor();
      expect(await w.locator('tr.total td').textContent()).toBe(money(quoted.data.due, b.currency));
      await expectAxeClean(page, 'pay the difference');
      await cardField.fill('4242 4242 4242 4242');
      await w.locator('button[data-f=pay]').click();
      await w
        .locator('p.notice', {
          hasText: `Payment of ${money(quoted.data.due, b.currency)} received: your booking is paid in full.`,
        })
        .waitFor();
      await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();

      const after = await call<{
        data: {
          pickup_at: string;
          return_at: string;
          total: number;
          payment_status: string;
          balance: { paid: number; due: number };
        };
      }>('GET', `/rova-rental/v2/my/bookings/${b.id}`, { token, status: 200 });
      expect(after.data).toMatchObject({
        return_at: '2029-06-09T10:00:00.000Z',
        total: quoted.data.total,
        payment_status: 'paid',
        balance: { paid: quoted.data.total, due: 0 },
      });
      const [mail] = await rows<{ subject: string }>(
        shop.t.platform.db,
        sql`SELECT subject FROM rova_mail_outbox WHERE to_address = ${c.email} AND template = 'booking_changed'`,
      );
      expect(mail!.subject).toBe(`[Rova] Booking changed — ${b.reference}`);
      expect((await events()).filter((e) => e.type === 'rova:changed').map((e) => e.detail)).toEqual([
        { id: b.id, reference: b.reference, total: quoted.data.total, due: quoted.data.due, refund: 0 },
      ]);
      expect((await verifyIntegrity(shop.t.platform.db)).findings).toEqual([]);
      expect(await violations()).toEqual([]);
    },
  );
});
