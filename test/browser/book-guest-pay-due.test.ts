import type { Browser, BrowserContext } from 'playwright-core';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyIntegrity } from '../../src/modules/rental/integrity/service.js';
import { startStripe, stripeEvent } from '../rental/journey/stripe-server.js';
import { ACCOUNT, expectAxeClean, TERMS_ACCEPTED, visitors } from './book-helpers.js';
import { launchChromium, startShop, visitorAddress, type Shop } from './harness.js';

// "Pay the rest" without an account: a guest's card booking (booked with the mailed code) that the operator
// lengthened owes the difference; the amount-due mail's "manage" link opens the booking on the account page without
// signing in, shows what was paid and what is due, and the guest pays the rest by card (the Stripe.js stand-in
// against the local Stripe-speaking server, which sends the signed webhook as Stripe does): paid in full.

const SK = 'sk_test_rovaGuestPayDue123';
const PK = 'pk_test_rovaGuestPayDue123';
const WHSEC = 'whsec_rovaGuestPayDueSecret';

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
  opts: { body?: unknown; headers?: Record<string, string>; admin?: boolean; status: number },
): Promise<T> {
  const headers: Record<string, string> = { 'x-forwarded-for': visitorAddress(), ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.admin) headers['x-rova-api-key'] = shop.adminKey;
  const res = await fetch(`${shop.origin}/wp-json${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBe(opts.status);
  return JSON.parse(text) as T;
}

interface Mail {
  template: string;
  subject: string;
  text: string;
}
/** The shop's outbox for one address, newest first: the mail of `template` once it is there. */
async function mail(to: string, template: string): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () =>
        (found = (
          await call<Mail[]>('GET', `/rova/v1/outbox?to=${encodeURIComponent(to)}`, { admin: true, status: 200 })
        ).find((m) => m.template === template)),
    )
    .toBeTruthy();
  return found!;
}

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);

/** The two widths: a laptop and a phone. */
const SIZES: [string, number, number, number][] = [
  ['desktop', 1280, 900, 2031],
  ['phone', 375, 740, 2032],
];

describe('guest manage link: pay the rest of a booking whose price went up', () => {
  it.each(SIZES)(
    '%s: the amount-due mail’s manage link shows paid and due → "Pay the rest" → card → paid in full (axe clean)',
    async (_n, width, height, year) => {
      // a guest's 3-day card booking, paid (Stripe's webhook), then lengthened to 5 days by the operator
      const email = `guest-pays-${width}-${Date.now()}@example.test`;
      const asked = await call<{ data: { verification_id: number } }>('POST', '/rova-rental/v2/guest/verification', {
        body: { email, name: 'Gül Gast' },
        status: 200,
      });
      const code = /Your booking code: (\d{6})/.exec((await mail(email, 'guest_code')).subject)![1]!;
      const pass = await call<{ data: { guest_pass: string } }>('POST', '/rova-rental/v2/guest/verification/confirm', {
        body: { verification_id: asked.data.verification_id, code },
        status: 200,
      });
      const q = `pickup_date=${year}-04-02&return_date=${year}-04-05&sort=price_asc&per_page=1`;
      const free = await call<{ data: { items: { vehicle_id: number }[] } }>(
        'GET',
        `/rova-rental/v2/vehicles/search?${q}`,
        { status: 200 },
      );
      const made = await call<{
        data: { booking: { id: number; reference: string; total: number; currency: string } };
      }>('POST', '/rova-rental/v2/guest/booking/create', {
        headers: { 'x-rova-guest-pass': pass.data.guest_pass },
        status: 201,
        body: {
          vehicle_id: free.data.items[0]!.vehicle_id,
          pickup_date: `${year}-04-02`,
          return_date: `${year}-04-05`,
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
      const longer = await call<{ data: { total: number; payment_status: string } }>(
        'PUT',
        `/rova-rental/v1/bookings/${b.id}`,
        { admin: true, status: 200, body: { return_date: `${year}-04-07` } },
      );
      expect(longer.data.payment_status).toBe('partially_paid');
      const due = Math.round((longer.data.total - b.total) * 100) / 100; // money in cents, not float noise
      expect(due).toBeGreaterThan(0);

      // the amount-due mail carries the manage link: the guest opens it
      const dueMail = await mail(email, 'amount_due');
      expect(dueMail.text).toContain(`Amount due: ${due.toFixed(2)} ${b.currency}`);
      const link = new URL(/Manage your booking without signing in: (\S+)/.exec(dueMail.text)![1]!);
      const { page, events, violations } = await open(link.pathname + link.search, { viewport: { width, height } });
      const w = page.locator(ACCOUNT);
      await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();
      expect(await w.locator('nav.tabs').count()).toBe(0);
      const payRest = w.locator('button[data-f=pay-due]');
      await payRest.waitFor();
      expect(await payRest.textContent()).toBe(`Pay the rest (${money(due, b.currency)}) by card`);
      const cell = (label: string) =>
        w
          .locator('table.breakdown tr')
          .filter({ has: page.getByRole('rowheader', { name: label, exact: true }) })
          .locator('td');
      expect(await cell('Amount due').textContent()).toBe(money(due, b.currency));
      expect(await cell('Paid').textContent()).toBe(money(b.total, b.currency));
      expect(await cell('Total').textContent()).toBe(money(longer.data.total, b.currency));
      await expectAxeClean(page, 'manage: booking with an amount due');

      const asking = page.waitForResponse((r) => r.url().includes('/rova-rental/v2/guest/manage/pay-due'));
      await payRest.click();
      expect((await asking).status()).toBe(200);
      await w.locator('h2', { hasText: `Pay the rest of booking ${b.reference}` }).waitFor();
      const cardField = page.getByLabel('Card number');
      await cardField.waitFor();
      expect(await w.locator('tr.total td').textContent()).toBe(money(due, b.currency));
      await expectAxeClean(page, 'manage: pay the rest');
      await cardField.fill('4242 4242 4242 4242');
      await w.locator('button[data-f=pay]').click();
      await w
        .locator('p.notice', {
          hasText: `Payment of ${money(due, b.currency)} received: your booking is paid in full.`,
        })
        .waitFor();
      await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();
      expect(await w.locator('button[data-f=pay-due]').count()).toBe(0);
      expect(await page.getByLabel('Card number').count()).toBe(0);
      await expectAxeClean(page, 'manage: paid in full');

      const after = await call<{ data: { payment_status: string; balance: { paid: number; due: number } } }>(
        'GET',
        '/rova-rental/v2/guest/manage/booking',
        { headers: { 'x-rova-manage-token': link.searchParams.get('rova_manage')! }, status: 200 },
      );
      expect(after.data).toMatchObject({ payment_status: 'paid', balance: { paid: longer.data.total, due: 0 } });
      const dueIntent = [...fake.intents.values()].filter(
        (pi) => pi.metadata.booking_id === String(b.id) && pi.id !== first.id,
      );
      expect(dueIntent.map((pi) => [pi.amount, pi.status])).toEqual([[Math.round(due * 100), 'succeeded']]);
      expect((await events()).filter((e) => e.type === 'rova:paid').map((e) => e.detail)).toEqual([
        { id: b.id, reference: b.reference, total: due, currency: b.currency },
      ]);
      expect((await verifyIntegrity(shop.t.platform.db)).findings).toEqual([]);
      expect(await violations()).toEqual([]);
    },
  );
});
