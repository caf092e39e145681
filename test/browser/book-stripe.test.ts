import { describe, expect, it } from 'vitest';
import { acceptTerms, expectAxeClean, fromHome, register, WIDGET } from './book-helpers.js';
import { useStripeShop } from './book-stripe-rig.js';
import { visitorAddress } from './harness.js';

// "Pay by card" in the booking widget: the real app with the stripe provider against the local Stripe-speaking
// server, which also serves the Stripe.js stand-in (ROVA_STRIPE_JS_URL) and, like Stripe, sends the signed webhook
// once the browser confirms the payment.

const rig = useStripeShop({ key: 'rovaWidgetFake123', webhookSecret: 'whsec_rovaWidgetWebhookSecret' });
const { open } = rig;

describe('booking widget: pay by card (Stripe Payment Element)', () => {
  it('choose "Pay by card" → book → the Payment Element → a declined card says so → paid → confirmed by the webhook; rova:paid; strict CSP with Stripe’s origin only', async () => {
    const csp = (await fetch(`${rig.shop.origin}/demo/rent`)).headers.get('content-security-policy')!;
    expect(csp).toContain(`script-src 'self' ${rig.fake.url};`);
    expect(csp).toContain(`frame-src ${rig.fake.url};`);
    expect(csp).toContain(`connect-src 'self' ${rig.fake.url};`);
    const { page, events, violations } = await fromHome(open, { width: 1280, height: 800 });
    const w = page.locator(WIDGET);
    await w.locator('input[name=pickup_date]').fill('2027-12-06');
    await w.locator('input[name=return_date]').fill('2027-12-08');
    await w.locator('button[data-f=search]').click();
    await w.locator('ul.cards button').first().click();
    await w.locator('button[data-f=continue]').click();
    const c = await register(w);
    await w.locator('h2', { hasText: 'Your booking' }).waitFor();
    expect(await w.locator('fieldset.pay-with legend').textContent()).toBe('Payment');
    expect(await w.locator('input[data-f=pay-offline]').isChecked()).toBe(true);
    await w.locator('input[data-f=pay-stripe]').check();
    await w.locator('button[data-f=book]', { hasText: 'Book and pay by card' }).waitFor();
    await expectAxeClean(page, 'review with card');
    await acceptTerms(w);
    await w.locator('button[data-f=book]').click();
    await w.locator('h2', { hasText: 'Pay by card' }).waitFor();
    // the stand-in's Payment Element, in the light DOM shown through the widget's slot
    const cardField = page.getByLabel('Card number');
    await cardField.waitFor();
    const created = (await events()).find((e) => e.type === 'rova:booking-created')!.detail as {
      id: number;
      reference: string;
      total: number;
      currency: string;
    };
    const intent = rig.intentOf(created.id);
    expect(intent.status).toBe('requires_payment_method');
    await expectAxeClean(page, 'pay');

    await cardField.fill('4000 0000 0000 0002');
    await w.locator('button[data-f=pay]').click();
    await expect
      .poll(() => w.locator('[role=alert]').textContent())
      .toBe('Something went wrong: Your card was declined.');
    await cardField.fill('4242 4242 4242 4242');
    await w.locator('button[data-f=pay]').click();
    await w.locator('h2', { hasText: 'Booking received' }).waitFor();
    expect(await w.locator('p.ok').textContent()).toBe('Payment received: your booking is confirmed.');
    expect(await page.getByLabel('Card number').count()).toBe(0);

    const paid = (await events()).filter((e) => e.type === 'rova:paid');
    expect(paid.map((e) => e.detail)).toEqual([
      { id: created.id, reference: created.reference, total: created.total, currency: created.currency },
    ]);
    expect(rig.fake.webhooks.map((h) => [h.type, h.status])).toEqual([
      ['payment_intent.payment_failed', 200],
      ['payment_intent.succeeded', 200],
    ]);
    const b = await fetch(`${rig.shop.origin}/wp-json/rova-rental/v1/bookings/${created.id}`, {
      headers: { 'x-rova-api-key': rig.shop.adminKey, 'x-forwarded-for': visitorAddress() },
    });
    expect((await b.json()).data).toMatchObject({
      status: 'confirmed',
      payment_method: 'stripe',
      customer_email: c.email,
    });
    expect(await violations()).toEqual([]);
  });
});
