import type { Browser, BrowserContext } from 'playwright-core';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyIntegrity } from '../../src/modules/rental/integrity/service.js';
import { rows } from '../../src/platform/db/types.js';
import { startStripe, stripeEvent } from '../rental/journey/stripe-server.js';
import { ACCOUNT, customer, expectAxeClean, TERMS_ACCEPTED, visitors } from './book-helpers.js';
import { launchChromium, startShop, visitorAddress, type Shop } from './harness.js';

// "Pay the rest": a card booking whose dates an operator lengthened owes the difference; its customer sees what was
// paid and what is due on the booking in their account, pays the rest by card (the Stripe.js stand-in against the
// local Stripe-speaking server, which sends the signed webhook as Stripe does) and the booking is paid in full.

const SK = 'sk_test_rovaPayDueWidget123';
const PK = 'pk_test_rovaPayDueWidget123';
const WHSEC = 'whsec_rovaPayDueWidgetSecret';

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
  opts: { body?: unknown; token?: string; admin?: boolean; status: number },
): Promise<T> {
  const headers: Record<string, string> = { 'x-forwarded-for': visitorAddress() };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
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

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);

describe('booking widget, account: pay the rest of a booking whose price went up', () => {
  it('sign in → my booking shows paid and due → "Pay the rest" → card → paid in full; the mail asked for it; verify clean', async () => {
    // a customer with a card booking of 3 days, paid (Stripe's webhook), then lengthened to 5 days by the operator
    const c = customer();
    await call('POST', '/rova/v1/auth/register', {
      body: { email: c.email, password: c.password, first_name: c.first, last_name: c.last },
      status: 202,
    });
    const { access_token: token } = await call<{ access_token: string }>('POST', '/rova/v1/auth/token', {
      body: { login: c.email, password: c.password },
      status: 200,
    });
    const q = 'pickup_date=2029-04-02&return_date=2029-04-05&sort=price_asc&per_page=1';
    const free = await call<{ data: { items: { vehicle_id: number }[] } }>(
      'GET',
      `/rova-rental/v2/vehicles/search?${q}`,
      {
        status: 200,
      },
    );
    const made = await call<{ data: { booking: { id: number; reference: string; total: number; currency: string } } }>(
      'POST',
      '/rova-rental/v2/booking/create',
      {
        token,
        status: 201,
        body: {
          vehicle_id: free.data.items[0]!.vehicle_id,
          pickup_date: '2029-04-02',
          return_date: '2029-04-05',
          payment_method: 'stripe',
          payment_plan: 'full',
          ...TERMS_ACCEPTED,
        },
      },
    );
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
      { admin: true, status: 200, body: { return_date: '2029-04-07' } },
    );
    expect(longer.data.payment_status).toBe('partially_paid');
    const due = longer.data.total - b.total;
    expect(due).toBeGreaterThan(0);
    const [mail] = await rows<{ subject: string; text_body: string }>(
      shop.t.platform.db,
      sql`SELECT subject, text_body FROM rova_mail_outbox WHERE to_address = ${c.email} AND template = 'amount_due'`,
    );
    expect(mail!.subject).toBe(`[Rova] Amount due — ${b.reference}`);
    expect(mail!.text_body).toContain(`Amount due: ${due.toFixed(2)} ${b.currency}`);

    // the customer, in the browser, from the account page
    const { page, events, violations } = await open('/demo/rent/account');
    const w = page.locator(ACCOUNT);
    await w.locator('input[name=email]').fill(c.email);
    await w.locator('input[name=password]').fill(c.password);
    await w.locator('button[data-f=auth-submit]').click();
    await w.locator('h2', { hasText: 'My bookings' }).waitFor();
    await w.locator(`button[data-f=booking-${b.id}]`).click();
    await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();
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
    await expectAxeClean(page, 'booking with an amount due');

    await payRest.click();
    await w.locator('h2', { hasText: `Pay the rest of booking ${b.reference}` }).waitFor();
    const cardField = page.getByLabel('Card number');
    await cardField.waitFor();
    expect(await w.locator('tr.total td').textContent()).toBe(money(due, b.currency));
    await expectAxeClean(page, 'pay the rest');
    await cardField.fill('4242 4242 4242 4242');
    await w.locator('button[data-f=pay]').click();
    await w
      .locator('p.notice', { hasText: `Payment of ${money(due, b.currency)} received: your booking is paid in full.` })
      .waitFor();
    await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();
    expect(await w.locator('button[data-f=pay-due]').count()).toBe(0);
    expect(await page.getByLabel('Card number').count()).toBe(0);

    const after = await call<{ data: { payment_status: string; balance: { paid: number; due: number } } }>(
      'GET',
      `/rova-rental/v2/my/bookings/${b.id}`,
      { token, status: 200 },
    );
    expect(after.data).toMatchObject({ payment_status: 'paid', balance: { paid: longer.data.total, due: 0 } });
    const dueIntent = [...fake.intents.values()].filter(
      (pi) => pi.metadata.booking_id === String(b.id) && pi.id !== first.id,
    );
    expect(dueIntent.map((pi) => [pi.amount, pi.status])).toEqual([[Math.round(due * 100), 'succeeded']]);
    expect(fake.webhooks.at(-1)).toEqual({ type: 'payment_intent.succeeded', status: 200 });
    expect((await events()).filter((e) => e.type === 'rova:paid').map((e) => e.detail)).toEqual([
      { id: b.id, reference: b.reference, total: due, currency: b.currency },
    ]);
    expect((await verifyIntegrity(shop.t.platform.db)).findings).toEqual([]);
    expect(await violations()).toEqual([]);
  });
});
