import { describe, expect, it } from 'vitest';
import { signInFromHome } from './book-account-steps.js';
import { bookViaApi, signedUpCustomer } from './book-api.js';
import { SIZES } from './book-helpers.js';
import { useBookShop } from './book-rig.js';

// "Change dates" in a store far from UTC (issue 36): the screen starts from the booking's pick-up and return as the
// store's clock reads them — in Los Angeles an 18:00 pick-up is 01:00 UTC of the next day, and the form shows
// 18:00 of the booked day, not the next day at 01:00 — and a change of the return keeps the pick-up where it was.
// The account shows the booking on the store's clock too: a visitor in Berlin sees the desk's 18:00 with the store's
// zone named; a visitor in Los Angeles sees the same 18:00 and no zone (it is theirs).

const { open, api } = useBookShop({ STORE_TIMEZONE: 'America/Los_Angeles' });
const { call } = api;
/** Both visitors see the page at the desktop size. */
const [, width, height] = SIZES[0]!;

describe('booking widget, account: change dates in a store far from UTC (America/Los_Angeles)', () => {
  it('the booking shows the store’s pick-up and return (its zone named for a visitor elsewhere); the form starts from them; a longer return keeps the pick-up', async () => {
    const { customer: c, token } = await signedUpCustomer(api);
    const b = await bookViaApi(
      api,
      { token },
      {
        pickup_date: '2029-07-09',
        return_date: '2029-07-11',
        pickup_time: '18:00',
        return_time: '18:00',
        payment_method: 'offline',
      },
      // searched at the desk's 18:00, in the search's own order
      'pickup_time=18:00&return_time=18:00',
    );
    // 18:00 in Los Angeles (summer, UTC−7) is 01:00 UTC of the next day
    expect(b.pickup_at).toBe('2029-07-10T01:00:00.000Z');

    // a visitor in Berlin (01:00 UTC is 03:00 there): the desk's 18:00, the store's zone named
    const { page } = await open('/', { viewport: { width, height }, timezoneId: 'Europe/Berlin' });
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('Europe/Berlin');
    const w = await signInFromHome(page, c);
    const booked = '9 Jul 2029, 18:00 – 11 Jul 2029, 18:00 (Los Angeles Time)';
    const card = w.locator(`li[data-booking="${b.id}"]`);
    await card.waitFor();
    expect(await card.locator('p.meta').allTextContents()).toContain(booked);
    await w.locator(`button[data-f=booking-${b.id}]`).click();
    await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();
    const dates = w.locator('table.breakdown tr', { has: page.locator('th', { hasText: /^Dates$/ }) }).locator('td');
    expect(await dates.textContent()).toBe(booked);
    await w.locator('button[data-f=change-dates]').click();
    await w.locator('h2', { hasText: `Change booking ${b.reference}` }).waitFor();

    expect(await page.getByLabel('Pick-up date').inputValue()).toBe('2029-07-09');
    expect(await page.getByLabel('Pick-up time').inputValue()).toBe('18:00');
    expect(await page.getByLabel('Return date').inputValue()).toBe('2029-07-11');
    expect(await page.getByLabel('Return time').inputValue()).toBe('18:00');

    // one more day (Thursday: the desk is open at 18:00), the rest as prefilled
    await page.getByLabel('Return date').fill('2029-07-12');
    await w.locator('button[data-f=change-quote]').click();
    await w.locator('table.breakdown, form.change-dates p.alert:not(:empty)').first().waitFor();
    expect(await w.locator('form.change-dates p.alert').textContent()).toBe('');
    await w.locator('button[data-f=confirm-change]').click();
    // the booking again (its heading exactly: "Change booking …" contains "booking …"), or the form saying why not
    await w.locator(`h2:text-is("Booking ${b.reference}"), form.change-dates p.alert:not(:empty)`).first().waitFor();
    expect(await w.locator('form.change-dates p.alert:not(:empty)').allTextContents()).toEqual([]);
    expect(await dates.textContent()).toBe('9 Jul 2029, 18:00 – 12 Jul 2029, 18:00 (Los Angeles Time)');

    const after = await call<{
      data: { pickup_at: string; return_at: string; pickup_date: string; pickup_time: string; return_date: string };
    }>('GET', `/rova-rental/v2/my/bookings/${b.id}`, { token, status: 200 });
    expect(after.data).toMatchObject({
      pickup_at: '2029-07-10T01:00:00.000Z',
      return_at: '2029-07-13T01:00:00.000Z',
      pickup_date: '2029-07-09',
      pickup_time: '18:00',
      return_date: '2029-07-12',
    });

    // a visitor in the store's own zone: the same 18:00, no zone named
    const here = await open('/', { viewport: { width, height }, timezoneId: 'America/Los_Angeles' });
    const v = await signInFromHome(here.page, c);
    const mine = v.locator(`li[data-booking="${b.id}"]`);
    await mine.waitFor();
    expect(await mine.locator('p.meta').allTextContents()).toContain('9 Jul 2029, 18:00 – 12 Jul 2029, 18:00');
  });
});
