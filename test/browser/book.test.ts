import { describe, expect, it } from 'vitest';
import {
  acceptTerms,
  customer,
  DEMO_TERMS_BOX,
  DIALOG,
  expectAxeClean,
  expectFits,
  focused,
  fromHome,
  overflow,
  overlaps,
  register,
  SIZES,
  tabTo,
  TERMS_ACCEPTED,
  WIDGET,
} from './book-helpers.js';
import { useBookShop } from './book-rig.js';
import { saveSettings, startStorefrontOrigin, visitorAddress, type StorefrontOrigin } from './harness.js';

// The booking widget (/assets/rova-book/book.js) on the demo page /demo/rent, in real Chromium against the
// real app with demo data. One server and one browser for the file; each test is its own visitor.

/** A storefront on another origin (in CORS_ORIGINS) embedding the widget with docs/integrators/widget.md's snippet. */
let storefront: StorefrontOrigin;
const rig = useBookShop(
  {},
  {
    async start() {
      storefront = await startStorefrontOrigin();
      return { CORS_ORIGINS: storefront.origin };
    },
    async close() {
      await storefront?.close();
    },
  },
);
const { open } = rig;

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${rig.shop.origin}/wp-json${path}`, {
    headers: { 'x-rova-api-key': rig.shop.adminKey, 'x-forwarded-for': visitorAddress() },
  });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

interface SearchAnswer {
  data: {
    items: {
      vehicle_id: number;
      name: string;
      total_price: number;
      price_per_day: number;
      currency: string;
      days: number;
    }[];
  };
}

describe('booking widget (book.js) in Chromium', () => {
  it('inline, keyboard only: search → vehicle → register → book (pay at pick-up) → reference; the booking exists; axe clean on every step', async () => {
    const { page, events } = await open('/demo/rent?rova_pickup=2027-08-02T10:00&rova_return=2027-08-05T10:00');
    const w = page.locator(WIDGET);
    await w.locator('button[data-f=search]').waitFor();
    expect(await w.locator('input[name=pickup_date]').inputValue()).toBe('2027-08-02');
    await expectAxeClean(page, 'search');

    await tabTo(page, 'Search');
    await page.keyboard.press('Enter');
    await w.locator('h2', { hasText: /vehicles available/ }).waitFor();
    await expectAxeClean(page, 'results');

    await tabTo(page, /^Choose /);
    const chosen = (await focused(page)).replace(/^Choose /, '');
    await page.keyboard.press('Enter');
    await w.locator('h2', { hasText: chosen }).waitFor();
    await w.locator('table.breakdown').waitFor();
    await expectAxeClean(page, 'detail');

    await tabTo(page, 'Continue');
    await page.keyboard.press('Enter');
    await w.locator('h2', { hasText: 'Sign in' }).waitFor();
    // every sign-in offers the way back into an account (the account page's test follows it through)
    expect(await w.locator('button[data-f=auth-forgot-open]').textContent()).toBe('Forgot password?');
    await tabTo(page, 'I am new here');
    await page.keyboard.press('Enter');
    await w.locator('h2', { hasText: 'Create an account' }).waitFor();
    await expectAxeClean(page, 'register');
    const c = customer();
    await tabTo(page, 'First name');
    await page.keyboard.type(c.first);
    await page.keyboard.press('Tab');
    await page.keyboard.type(c.last);
    await page.keyboard.press('Tab');
    await page.keyboard.type(c.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(c.password);
    await page.keyboard.press('Enter');
    await w.locator('h2', { hasText: 'Your booking' }).waitFor();
    // the demo store's rental terms and cancellation policy, with the required box
    await w.locator('input[data-f=terms-accept]').waitFor();
    expect(await w.locator('[data-f=terms-text]').textContent()).toMatch(
      /^At pick-up the driver shows a driving licence/,
    );
    expect(await w.locator('[data-f=cancel-policy]').textContent()).toBe(
      'Free cancellation until 24 hours before pick-up; after that 20% of what you paid is kept.',
    );
    await expectAxeClean(page, 'review');

    // booking without the box ticked is refused in words, before anything is sent
    await tabTo(page, 'Book and pay at pick-up');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => w.locator('[role=alert]').textContent())
      .toBe('Something went wrong: Tick the box to accept the rental terms.');
    await tabTo(page, DEMO_TERMS_BOX);
    await page.keyboard.press('Space');
    expect(await w.getByLabel(DEMO_TERMS_BOX).isChecked()).toBe(true);
    await tabTo(page, 'Book and pay at pick-up');
    await page.keyboard.press('Enter');
    await w.locator('h2', { hasText: 'Booking received' }).waitFor();
    const reference = await w.locator('[data-reference]').textContent();
    expect(reference).toMatch(/^RB-/);
    // pay at pick-up is a reservation (issue 35.1): the confirmation says it is held until pick-up, not a deadline
    expect(await w.locator('p.deadline').textContent()).toBe(
      'The vehicle is held for you until pick-up: pay at the desk.',
    );
    expect(await w.locator('p.deadline').getAttribute('data-deadline')).toBe('');
    // the confirmation repeats what, when and where
    expect(await w.locator('[data-f=done-period]').textContent()).toMatch(/^.+ · 2 Aug 2027, 10:00/);
    expect(await w.locator('[data-f=place-pickup] h4').textContent()).toBe('Pick-up');
    expect(await w.locator('[data-f=place-return] a').getAttribute('href')).toMatch(
      /^https:\/\/www\.openstreetmap\.org\//,
    );
    await expectAxeClean(page, 'done');

    const evs = await events();
    expect(evs.map((e) => e.type)).toEqual(
      expect.arrayContaining(['rova:ready', 'rova:search', 'rova:select', 'rova:booking-created']),
    );
    const created = evs.find((e) => e.type === 'rova:booking-created')?.detail as {
      id: number;
      reference: string;
      currency: string;
    };
    expect(created.reference).toBe(reference);
    const b = await api<{
      data: {
        reference: string;
        customer_email: string;
        payment_method: string;
        payment_deadline: string | null;
        status: string;
        pickup_at: string;
      };
    }>(`/rova-rental/v1/bookings/${created.id}`);
    expect(b.data).toMatchObject({
      reference,
      customer_email: c.email,
      // the widget's "Pay at pick-up" (issue 35.1): held until pick-up, no 15-minute deadline
      payment_method: 'pay_at_pickup',
      payment_deadline: null,
      status: 'pending_payment',
    });
    expect(b.data.pickup_at).toMatch(/^2027-08-02/);
    // the box ticked: the booking keeps the version of the terms accepted
    const accepted = await api<{ data: { terms_version: string | null } }>(
      `/rova-rental/v2/bookings/${created.id}/driver`,
    );
    expect(accepted.data.terms_version).toBe('2026-11');
  });

  it('a double-clicked "Book" makes one booking (one request, one Idempotency-Key); API errors are shown in words', async () => {
    // the visitor chose GBP in the currency switcher earlier (its cookie): the search prices are in GBP
    const { page, requests } = await open('/demo/rent?rova_pickup=2027-08-10T10:00&rova_return=2027-08-12T10:00', {
      currencyCookie: 'GBP',
    });
    const keys: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/booking/create')) keys.push(r.headers()['idempotency-key'] ?? '');
    });
    const w = page.locator(WIDGET);
    await w.locator('button[data-f=search]').click();
    await w.locator('ul.cards').waitFor();
    expect(
      new Set(await w.locator('p.price').evaluateAll((ps) => ps.map((p) => p.getAttribute('data-currency')))),
    ).toEqual(new Set(['GBP']));
    await w.locator('ul.cards button').first().click();
    await w.locator('button[data-f=continue]').click();
    const c = customer();
    await w.locator('input[name=email]').fill(c.email);
    await w.locator('input[name=password]').fill('not-the-password');
    await w.locator('button[data-f=auth-submit]').click();
    await expect
      .poll(() => w.locator('[role=alert]').textContent())
      .toBe('Something went wrong: Unknown login or wrong password.');
    await register(w, c);
    await acceptTerms(w);
    await w.locator('button[data-f=book]').dblclick();
    await w.locator('h2', { hasText: 'Booking received' }).waitFor();
    expect(requests.filter((r) => r === 'POST /wp-json/rova-rental/v2/booking/create')).toHaveLength(1);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    const list = await api<{ data: { items: { customer_email: string }[] } }>(
      `/rova-rental/v1/bookings?search=${encodeURIComponent(c.email)}`,
    );
    expect(list.data.items.filter((b) => b.customer_email === c.email)).toHaveLength(1);
  });

  it("a retry after a lost answer reuses the attempt's Idempotency-Key: still one booking", async () => {
    const { page } = await open('/demo/rent?rova_pickup=2027-08-14T10:00&rova_return=2027-08-16T10:00');
    const keys: string[] = [];
    let lost = false;
    // the first create reaches the server (the booking commits) but its answer never reaches the page
    await page.route('**/rova-rental/v2/booking/create', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (lost) return route.continue();
      lost = true;
      await route.fetch();
      await route.abort('connectionreset');
    });
    const w = page.locator(WIDGET);
    await w.locator('button[data-f=search]').click();
    await w.locator('ul.cards button').first().click();
    await w.locator('button[data-f=continue]').click();
    const c = await register(w);
    await acceptTerms(w);
    await w.locator('button[data-f=book]').click();
    await expect.poll(() => w.locator('[role=alert]').textContent()).toMatch(/cannot be reached/);
    await w.locator('button[data-f=book]').click();
    await w.locator('h2', { hasText: 'Booking received' }).waitFor();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const list = await api<{ data: { items: { customer_email: string; reference: string }[] } }>(
      `/rova-rental/v1/bookings?search=${encodeURIComponent(c.email)}`,
    );
    const mine = list.data.items.filter((b) => b.customer_email === c.email);
    expect(mine).toHaveLength(1);
    expect(await w.locator('[data-reference]').textContent()).toBe(mine[0]!.reference);
  });

  it('an expired access token is refreshed once and the booking sent again with the same key', async () => {
    const { page, requests } = await open('/demo/rent?rova_pickup=2027-08-18T10:00&rova_return=2027-08-19T10:00');
    const keys: string[] = [];
    // the first create answers 401 as for an expired token (without reaching the server)
    await page.route('**/rova-rental/v2/booking/create', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (keys.length > 1) return route.continue();
      await route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'rova_invalid_token', message: 'The access token has expired.' }),
      });
    });
    const w = page.locator(WIDGET);
    await w.locator('button[data-f=search]').click();
    await w.locator('ul.cards button').first().click();
    await w.locator('button[data-f=continue]').click();
    await register(w);
    await acceptTerms(w);
    await w.locator('button[data-f=book]').click();
    await w.locator('h2', { hasText: 'Booking received' }).waitFor();
    expect(requests.filter((r) => r === 'POST /wp-json/rova/v1/auth/token/refresh')).toHaveLength(1);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('a vehicle taken between the search and the choice: the detail says so and offers free alternatives; one opens with its price', async () => {
    const { page } = await open(
      '/demo/rent?rova_pickup=2027-08-28T10:00&rova_return=2027-08-30T10:00&rova_category=economy',
    );
    const w = page.locator(WIDGET);
    await w.locator('button[data-f=search]').click();
    const firstChoice = w.locator('ul.cards button').first();
    const id = Number((await firstChoice.getAttribute('data-f'))!.replace('choose-', ''));
    const name = await w.locator('ul.cards h3').first().textContent();
    // someone else books it meanwhile (a store key acting for a customer)
    const res = await fetch(`${rig.shop.origin}/wp-json/rova-rental/v2/booking/create`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-rova-api-key': rig.shop.adminKey,
        'x-forwarded-for': visitorAddress(),
      },
      body: JSON.stringify({
        vehicle_id: id,
        pickup_date: '2027-08-28',
        return_date: '2027-08-30',
        payment_method: 'offline',
        payment_plan: 'full',
        customer: { name: 'Other Customer', email: 'other@example.com' },
        ...TERMS_ACCEPTED, // the customer accepted the demo store's terms
      }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    await firstChoice.click();
    await w.locator('h2', { hasText: name! }).waitFor();
    await w.locator('.view p', { hasText: 'This vehicle is not free for these dates.' }).waitFor();
    await w.locator('.view p', { hasText: 'Similar vehicles that are free:' }).waitFor();
    expect(await w.locator('button[data-f=continue]').count()).toBe(0);
    const alt = w.locator('button[data-f^=alt-]').first();
    const altName = (await alt.textContent())!.replace(/^Choose /, '');
    await expectAxeClean(page, 'taken');
    await alt.click();
    await w.locator('h2', { hasText: altName }).waitFor();
    await w.locator('table.breakdown').waitFor();
    await w.locator('button[data-f=continue]').waitFor();
  });

  it.each(SIZES)(
    '%s: prices add up: the card’s per-day figure is what the total is made of; the breakdown has a line per rule with its days, equal to the API’s and summing to the total; the review says what is paid when',
    async (_n, width, height) => {
      const money = (x: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'USD' }).format(x);
      // Friday to Monday in summer: the season on 3 days, the weekend surcharge on 2, VAT on top
      const { page } = await open('/demo/rent?rova_pickup=2027-07-16T10:00&rova_return=2027-07-19T10:00', {
        viewport: { width, height },
      });
      const w = page.locator(WIDGET);
      await w.locator('button[data-f=search]').click();
      const card = w.locator('ul.cards li').first();
      await card.waitFor();
      const id = Number((await card.locator('button').getAttribute('data-f'))!.replace('choose-', ''));
      const found = await api<SearchAnswer>(
        '/rova-rental/v2/vehicles/search?pickup_date=2027-07-16&return_date=2027-07-19&pickup_time=10%3A00&return_time=10%3A00&per_page=100',
      );
      const item = found.data.items.find((i) => i.vehicle_id === id)!;
      expect(Math.round(item.total_price * 100)).not.toBe(Math.round(item.price_per_day * 100) * 3);
      expect(await card.locator('[data-f=per-day]').textContent()).toBe(
        `${money(Math.round((item.total_price * 100) / 3) / 100)} per day on average`,
      );

      await card.locator('button').click();
      await w.locator('table.breakdown').waitFor();
      const res = await fetch(`${rig.shop.origin}/wp-json/rova-rental/v2/booking/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': visitorAddress() },
        body: JSON.stringify({
          vehicle_id: id,
          pickup_date: '2027-07-16',
          return_date: '2027-07-19',
          pickup_time: '10:00',
          return_time: '10:00',
        }),
      });
      const c = (
        (await res.json()) as {
          data: {
            price_per_day: number;
            tax: number;
            tax_rate: number;
            total: number;
            breakdown: { base: number; rules: { name: string; kind: string; amount: number; days: number | null }[] };
          };
        }
      ).data;
      const rent = c.breakdown.rules.filter((r) => ['season', 'weekend', 'duration'].includes(r.kind));
      expect(rent.map((r) => [r.name, r.days])).toEqual([
        ['Summer season', 3],
        ['Weekend', 2],
      ]);
      const rows = await w
        .locator('table.breakdown tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent]),
        );
      expect(rows).toEqual([
        [`3 days × ${money(c.price_per_day)}`, money(c.breakdown.base)],
        ...rent.map((r) => [`${r.name} (${r.days} days)`, money(r.amount)]),
        [`Tax (${c.tax_rate} %)`, money(c.tax)],
        ['Total', money(c.total)],
      ]);
      const cents = (x: number) => Math.round(x * 100);
      expect(rent.reduce((sum, r) => sum + cents(r.amount), cents(c.breakdown.base)) + cents(c.tax)).toBe(
        cents(c.total),
      );

      await w.locator('button[data-f=continue]').click();
      await register(w);
      await w.locator('[data-f=pay-terms]').waitFor();
      expect(await w.locator('table.breakdown tr th').allTextContents()).not.toContain('Deposit');
      expect(await w.locator('[data-f=pay-terms]').textContent()).toBe(
        `You pay ${money(c.total)} at pick-up; nothing is charged now.`,
      );
      await w.locator('input[data-f=pay-bank_transfer]').check();
      expect(await w.locator('[data-f=pay-terms]').textContent()).toBe(
        `You pay ${money(c.total)} by bank transfer; the confirmation says by when.`,
      );
      await expectAxeClean(page, 'review with the terms');
    },
  );

  it('dates: the picker offers no past day and no return before the pick-up; a wrong pair is refused with one message and no search', async () => {
    const { page, requests } = await open('/demo/rent?rova_pickup=2027-10-04T10:00&rova_return=2027-10-06T10:00');
    const w = page.locator(WIDGET);
    const today = await page.evaluate(() => new Intl.DateTimeFormat('en-CA').format(new Date()));
    expect(await w.locator('input[name=pickup_date]').getAttribute('min')).toBe(today);
    expect(await w.locator('input[name=return_date]').getAttribute('min')).toBe('2027-10-04');
    await w.locator('input[name=pickup_date]').fill('2027-10-08');
    expect(await w.locator('input[name=return_date]').getAttribute('min')).toBe('2027-10-08');
    const searches = () => requests.filter((r) => r.startsWith('GET /wp-json/rova-rental/v2/vehicles/search')).length;
    const before = searches();
    // the return is now before the pick-up
    await w.locator('button[data-f=search]').click();
    expect(await w.locator('[role=alert]').textContent()).toBe(
      'Choose a pick-up from today on, and a return after the pick-up.',
    );
    expect(await w.locator('input[name=return_date]').getAttribute('aria-invalid')).toBe('true');
    // a day in the past, typed
    await w.locator('input[name=pickup_date]').fill('2020-01-01');
    await w.locator('input[name=return_date]').fill('2020-01-03');
    await w.locator('button[data-f=search]').click();
    expect(await w.locator('[role=alert]').textContent()).toBe(
      'Choose a pick-up from today on, and a return after the pick-up.',
    );
    expect(searches()).toBe(before);
    await w.locator('input[name=pickup_date]').fill('2027-10-08');
    await w.locator('input[name=return_date]').fill('2027-10-10');
    await w.locator('button[data-f=search]').click();
    await w.locator('ul.cards').waitFor();
    expect(await w.locator('[role=alert]').textContent()).toBe('');
    expect(searches()).toBe(before + 1);
  });

  it('language switch in the widget; attributes, seats and currency names in words of the language', async () => {
    const q =
      'pickup_date=2027-10-12&return_date=2027-10-14&pickup_time=10%3A00&return_time=10%3A00&sort=price_asc&category=suv&per_page=12';
    const want = await api<{
      data: { items: { name: string; seats: number; transmission: string; fuel_type: string }[] };
    }>(`/rova-rental/v2/vehicles/search?${q}`);
    const first = want.data.items[0]!;
    const { page, events } = await open('/demo/rent?rova_pickup=2027-10-12T10:00&rova_return=2027-10-14T10:00');
    const w = page.locator(WIDGET);
    // the category choices come from the search's facets
    await w.locator('button[data-f=search]').click();
    await w.locator('select[name=category] option[value=suv]').waitFor({ state: 'attached' });
    expect(await w.locator('select[name=category] option[value=suv]').textContent()).toBe('SUV');
    expect(await w.locator('select[name=category] option[value=economy]').textContent()).toBe('Economy');
    await w.locator('select[name=category]').selectOption('suv');
    await w.locator('button[data-f=search]').click();
    await expect.poll(() => w.locator('ul.cards h3').first().textContent()).toBe(first.name);
    const words = { automatic: ['Automatic', 'Automatik'], manual: ['Manual', 'Schaltgetriebe'] } as const;
    const fuels = { petrol: ['Petrol', 'Benzin'], diesel: ['Diesel', 'Diesel'], hybrid: ['Hybrid', 'Hybrid'] } as const;
    const t = first.transmission as keyof typeof words;
    const f = first.fuel_type as keyof typeof fuels;
    expect(await w.locator('ul.cards p.meta').first().textContent()).toBe(
      `SUV · ${first.seats} seats · ${words[t][0]} · ${fuels[f][0]}`,
    );
    await w.locator('select[name=lang]').selectOption('de');
    await w.locator('h2', { hasText: /Fahrzeuge verfügbar/ }).waitFor();
    expect(await w.locator('section.root').getAttribute('lang')).toBe('de');
    expect(await w.locator('ul.cards p.meta').first().textContent()).toBe(
      `SUV · ${first.seats} Sitze · ${words[t][1]} · ${fuels[f][1]}`,
    );
    expect(await w.locator('button[data-f=search]').textContent()).toBe('Suchen');
    const names = await w.locator('select[name=currency] option').allTextContents();
    expect(names).toContain('EUR – Euro');
    expect(names).toContain('USD – US-Dollar');
    expect((await events()).filter((e) => e.type === 'rova:language').map((e) => e.detail)).toEqual([{ lang: 'de' }]);
    await expectAxeClean(page, 'results in German');
  });

  it.each(SIZES)(
    '%s: from /, the floating button steps aside while an inline booking is under way: on the detail, sign-in and review its box meets neither the widget nor any of its buttons; back at the results it returns, clear of the widget at the page end (axe on each step)',
    async (_n, width, height) => {
      const { page } = await fromHome(open, { width, height });
      const w = page.locator(WIDGET);
      const fab = page.locator('[data-rova-book-floating-host] button.floating');
      await fab.waitFor();
      await w.locator('button[data-f=search]').click();
      await w.locator('ul.cards').waitFor();
      expect(await fab.isVisible()).toBe(true);
      await expectAxeClean(page, `${width}px: results`);
      await expectFits(page, width, 'results');
      /**
       * Each of the step's buttons scrolled into view in turn: the corner button's box meets neither it nor the
       * widget's box, and the button's middle is the widget's.
       */
      const clear = async (step: string) => {
        await expect.poll(() => fab.isVisible(), { message: step }).toBe(false);
        const buttons = await w.locator('button').all();
        expect(buttons.length, step).toBeGreaterThan(0);
        for (const b of buttons) {
          if (!(await b.isVisible())) continue;
          await b.scrollIntoViewIfNeeded();
          const box = (await b.boundingBox())!;
          const f = await fab.boundingBox();
          const label = `${step}: ${await b.textContent()}`;
          expect(overlaps(f, box), label).toBe(false);
          expect(overlaps(f, await w.boundingBox()), label).toBe(false);
          const mine = await page.evaluate(
            ([x, y]) => document.elementFromPoint(x!, y!)?.closest('[data-rova-book]') !== null,
            [box.x + box.width / 2, box.y + box.height / 2],
          );
          expect(mine, label).toBe(true);
        }
        await expectAxeClean(page, `${width}px: ${step}`);
        await expectFits(page, width, step);
      };
      await w.locator('ul.cards button').first().click();
      await w.locator('button[data-f=continue]').waitFor();
      await clear('detail');
      await w.locator('button[data-f=continue]').click();
      await w.locator('h2', { hasText: 'Sign in' }).waitFor();
      await clear('sign-in');
      await register(w);
      await w.locator('h2', { hasText: 'Your booking' }).waitFor();
      await clear('review');
      await w.locator('button[data-f=back]').click();
      await w.locator('button[data-f=continue]').waitFor();
      await w.locator('button[data-f=back]').click();
      await w.locator('ul.cards').waitFor();
      await expect.poll(() => fab.isVisible()).toBe(true);
      // at the page's end (the spacer below it) the corner button is clear of the whole widget
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect
        .poll(async () => overlaps(await fab.boundingBox(), await w.boundingBox()), { message: 'results, page end' })
        .toBe(false);
    },
  );

  it('where and when: the detail shows the pick-up and return places with address, the hours of that day and a map link', async () => {
    const locs = await api<{
      data: { items: { id: number; name: string; city: string; address: string; opening_hours: unknown }[] };
    }>('/rova-rental/v1/locations');
    const airport = locs.data.items.find((l) => l.name === 'Istanbul Airport')!;
    const office = locs.data.items.find((l) => l.name === 'Levent Office')!;
    expect(airport.opening_hours).toBeNull();
    // Saturday at the airport, back on Monday at the office
    const { page } = await open(
      `/demo/rent?rova_location=${airport.id}&rova_return_location=${office.id}&rova_pickup=2027-10-23T10:00&rova_return=2027-10-25T10:00`,
    );
    const w = page.locator(WIDGET);
    await w.locator('button[data-f=search]').click();
    await w.locator('ul.cards button').first().click();
    await w.locator('[data-f=place-pickup]').waitFor();
    const text = (sel: string) => w.locator(sel).textContent();
    expect(await text('[data-f=place-pickup] p:first-of-type')).toBe(
      [airport.name, airport.address, airport.city].filter(Boolean).join(', '),
    );
    expect(await text('[data-f=hours-pickup]')).toBe('Open around the clock');
    expect(await text('[data-f=place-return] p:first-of-type')).toBe(
      [office.name, office.address, office.city].filter(Boolean).join(', '),
    );
    expect(await text('[data-f=hours-return]')).toBe('Open on Monday 08:00–20:00');
    const map = await w.locator('[data-f=place-return] a').getAttribute('href');
    expect(map).toBe(
      `https://www.openstreetmap.org/search?query=${encodeURIComponent([office.name, office.address, office.city].filter(Boolean).join(', '))}`,
    );
    await expectAxeClean(page, 'detail with places');
  });

  it('opening hours: a time outside the desk hours of that day is refused with one message naming the desk and its hours, before any search', async () => {
    const locs = await api<{ data: { items: { id: number; name: string }[] } }>('/rova-rental/v1/locations');
    const airport = locs.data.items.find((l) => l.name === 'Istanbul Airport')!;
    const office = locs.data.items.find((l) => l.name === 'Levent Office')!;
    // from the airport (always open) on Friday, back at the office on Sunday, when it is closed
    const { page, requests } = await open(
      `/demo/rent?rova_location=${airport.id}&rova_return_location=${office.id}&rova_pickup=2027-10-22T10:00&rova_return=2027-10-24T10:00`,
    );
    const w = page.locator(WIDGET);
    const searches = () => requests.filter((r) => r.startsWith('GET /wp-json/rova-rental/v2/vehicles/search')).length;
    const before = searches();
    await w.locator('button[data-f=search]').click();
    expect(await w.locator('[role=alert]').textContent()).toBe(
      'Return: Levent Office is closed on Sunday. Choose another day or place.',
    );
    await w.locator('input[name=return_date]').fill('2027-10-25');
    await w.locator('input[name=return_time]').fill('21:00');
    await w.locator('button[data-f=search]').click();
    expect(await w.locator('[role=alert]').textContent()).toBe(
      'Return: Levent Office is open on Monday 08:00–20:00. Choose a time within these hours.',
    );
    expect(searches()).toBe(before);
    await w.locator('input[name=return_time]').fill('19:30');
    await w.locator('button[data-f=search]').click();
    await w.locator('ul.cards').waitFor();
    expect(await w.locator('[role=alert]').textContent()).toBe('');
    expect(searches()).toBe(before + 1);
  });

  it('embedded on another origin with the README snippet (CORS_ORIGINS): books through CORS with the bearer token', async () => {
    storefront.html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Another shop</title>
<script src="${rig.shop.origin}/assets/rova-book/book.js" defer></script></head>
<body><main><h1>Another shop</h1><div data-rova-book data-pickup="2027-08-24T11:00" data-return="2027-08-26T11:00"></div></main></body></html>`;
    const { page, requests, events } = await open(`${storefront.origin}/rent`);
    const w = page.locator(WIDGET);
    await w.locator('select[name=location] option', { hasText: 'Istanbul Airport' }).waitFor({ state: 'attached' });
    await w.locator('button[data-f=search]').click();
    await w.locator('ul.cards button').first().click();
    await w.locator('button[data-f=continue]').click();
    const c = await register(w);
    await acceptTerms(w);
    await w.locator('button[data-f=book]').click();
    await w.locator('h2', { hasText: 'Booking received' }).waitFor();
    expect(requests).toContain('POST /wp-json/rova-rental/v2/booking/create');
    const created = (await events()).find((e) => e.type === 'rova:booking-created')?.detail as {
      id: number;
      reference: string;
    };
    const b = await api<{ data: { reference: string; customer_email: string } }>(
      `/rova-rental/v1/bookings/${created.id}`,
    );
    expect(b.data).toMatchObject({ reference: created.reference, customer_email: c.email });
  });

  it('pop-up from a button with prefill (URL + data attributes): focus trapped, Escape closes; Rova.book.open() in Turkish', async () => {
    const free = await api<SearchAnswer>(
      '/rova-rental/v2/vehicles/search?location_id=1&pickup_date=2027-08-20&return_date=2027-08-22&sort=price_asc&per_page=1',
    );
    const v = free.data.items[0]!;
    const { page } = await open(
      `/demo/rent?rova_vehicle=${v.vehicle_id}&rova_pickup=2027-08-20T10:00&rova_return=2027-08-22T10:00`,
    );
    await page.locator(WIDGET).locator('h2').first().waitFor();
    await tabTo(page, 'Book from Istanbul Airport');
    await page.keyboard.press('Enter');
    const d = page.locator(DIALOG);
    await d.locator('h2', { hasText: v.name }).waitFor();
    expect(await d.evaluate((el) => (el as HTMLDialogElement).open)).toBe(true);
    await expect.poll(() => d.locator('p.meta').first().textContent()).toContain('20 Aug 2027, 10:00');
    await d.locator('table.breakdown').waitFor();
    await expectAxeClean(page, 'dialog');
    // Close sits inside the dialog's panel (its own background), not above it on the backdrop
    const panel = (await d.boundingBox())!;
    const closeBox = (await d.locator('.dialog-bar button').boundingBox())!;
    expect(closeBox.x).toBeGreaterThanOrEqual(panel.x);
    expect(closeBox.y).toBeGreaterThanOrEqual(panel.y);
    expect(closeBox.x + closeBox.width).toBeLessThanOrEqual(panel.x + panel.width);
    expect(await d.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
      expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-rova-book-dialog'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-rova-book-dialog]').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-rova-book-open'))).toBe(true);

    await page.evaluate(() =>
      (window as unknown as { Rova: { book: { open(o: object): void } } }).Rova.book.open({ lang: 'tr', location: 5 }),
    );
    await d.locator('button[data-f=search]', { hasText: 'Ara' }).waitFor();
    expect(await d.locator('select[name=location]').inputValue()).toBe('5');
    await page.evaluate(() => (window as unknown as { Rova: { book: { close(): void } } }).Rova.book.close());
    await expect.poll(() => page.locator('[data-rova-book-dialog]').count()).toBe(0);
  });

  it('German: text, dates and money (prices in the visitor’s currency as the API converts them); cursor paging; category and transmission filters', async () => {
    const q =
      'pickup_date=2027-09-01&return_date=2027-09-03&pickup_time=10%3A00&return_time=10%3A00&sort=price_asc&currency=EUR&per_page=12';
    const expected = await api<SearchAnswer>(`/rova-rental/v2/vehicles/search?${q}`);
    const first = expected.data.items[0]!;
    expect(first.currency).toBe('EUR');
    const { page } = await open(
      '/demo/rent?rova_lang=de&currency=EUR&rova_pickup=2027-09-01T10:00&rova_return=2027-09-03T10:00',
    );
    const w = page.locator(WIDGET);
    await w.locator('button[data-f=search]', { hasText: 'Suchen' }).click();
    await w.locator('h2', { hasText: /Fahrzeuge verfügbar/ }).waitFor();
    const money = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(first.total_price);
    expect(await w.locator('p.price').first().textContent()).toBe(`${money} für ${first.days} Tage`);
    expect(money).toMatch(/\d,\d{2}\s€$/);
    // cursor paging: 12 cards, then the rest
    const all = (expected as unknown as { data: { total: number } }).data.total;
    expect(all).toBeGreaterThan(12);
    expect(await w.locator('ul.cards li').count()).toBe(12);
    await w.locator('button[data-f=more]', { hasText: 'Weitere Fahrzeuge anzeigen' }).click();
    await expect.poll(() => w.locator('ul.cards li').count()).toBe(Math.min(all, 24));
    // filters: category (from the facets) and transmission
    await w.locator('select[name=category]').selectOption('suv');
    await w.locator('select[name=transmission]').selectOption('automatic');
    await w.locator('button[data-f=search]').click();
    const suvs = await api<SearchAnswer & { data: { total: number } }>(
      `/rova-rental/v2/vehicles/search?${q}&category=suv&transmission=automatic`,
    );
    await expect.poll(() => w.locator('h2').first().textContent()).toBe(`${suvs.data.total} Fahrzeuge verfügbar`);
    expect(await w.locator('ul.cards h3').allTextContents()).toEqual(suvs.data.items.map((i) => i.name));
    await w.locator('ul.cards button').first().click();
    await w.locator('table.breakdown').waitFor();
    expect(await w.locator('p.meta').first().textContent()).toBe('01.09.2027, 10:00 – 03.09.2027, 10:00');
    expect(await w.locator('tr.total th').textContent()).toBe('Gesamt');
    // the charge is in the store's currency, said with both amounts before booking
    const chosen = suvs.data.items[0]!;
    const checked = await fetch(`${rig.shop.origin}/wp-json/rova-rental/v2/booking/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': visitorAddress() },
      body: JSON.stringify({
        vehicle_id: chosen.vehicle_id,
        pickup_date: '2027-09-01',
        return_date: '2027-09-03',
        pickup_time: '10:00',
        return_time: '10:00',
      }),
    });
    const charged = ((await checked.json()) as { data: { total: number; currency: string } }).data;
    expect(charged.currency).toBe('USD');
    const de = (x: number, currency: string) =>
      new Intl.NumberFormat('de-DE', { style: 'currency', currency }).format(x);
    expect(await w.locator('[data-f=charged-in]').textContent()).toBe(
      `${de(chosen.total_price, 'EUR')} ≈ ${de(charged.total, 'USD')}, abgerechnet in USD`,
    );
  });

  it.each(SIZES)(
    '%s: from /, browsing in EUR (the widget’s currency switch): the cards show the search API’s EUR figures; the review says before booking that the charge is in USD, with both amounts; the booking is charged in USD, the check API’s total (axe on each step)',
    async (_n, width, height) => {
      const money = (x: number, currency: string) =>
        new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(x);
      // each width its own dates (in November 2027, which no other test here books)
      const day = 1 + SIZES.findIndex(([, w2]) => w2 === width) * 7;
      const pickup = `2027-11-${String(day).padStart(2, '0')}`;
      const back = `2027-11-${String(day + 3).padStart(2, '0')}`;
      const { page, events } = await fromHome(open, { width, height });
      const w = page.locator(WIDGET);
      await w.locator('select[name=currency] option[value=EUR]').waitFor({ state: 'attached' });
      await w.locator('input[name=pickup_date]').fill(pickup);
      await w.locator('input[name=return_date]').fill(back);
      await w.locator('select[name=currency]').selectOption('EUR');
      await expectAxeClean(page, `${width}px: search in EUR`);
      await expectFits(page, width, 'search in EUR');
      const searched = page.waitForRequest((r) => r.url().includes('/rova-rental/v2/vehicles/search'));
      await w.locator('button[data-f=search]').click();
      await w.locator('ul.cards').waitFor();
      // the same question from Node: what the cards show is the API's conversion
      const asked = new URL((await searched).url());
      expect(asked.searchParams.get('currency')).toBe('EUR');
      const found = await api<SearchAnswer>(asked.pathname.replace(/^\/wp-json/, '') + asked.search);
      const first = found.data.items[0]!;
      expect(first.currency).toBe('EUR');
      const card = w.locator('ul.cards li').first();
      expect(await card.locator('p.price').textContent()).toBe(
        `${money(first.total_price, 'EUR')} for ${first.days} days`,
      );
      await expectAxeClean(page, `${width}px: results in EUR`);
      await expectFits(page, width, 'results in EUR');

      const checked = page.waitForRequest(
        (r) => r.url().endsWith('/rova-rental/v2/booking/check') && r.method() === 'POST',
      );
      await card.locator('button[data-f=choose-' + String(first.vehicle_id) + ']').click();
      const res = await fetch(`${rig.shop.origin}/wp-json/rova-rental/v2/booking/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': visitorAddress() },
        body: (await checked).postData()!,
      });
      const c = ((await res.json()) as { data: { total: number; currency: string } }).data;
      expect(c.currency).toBe('USD');
      // the two amounts are one price: the search in the store's currency has the check's total for this vehicle
      asked.searchParams.delete('currency');
      const inUsd = await api<SearchAnswer>(asked.pathname.replace(/^\/wp-json/, '') + asked.search);
      expect(inUsd.data.items.find((i) => i.vehicle_id === first.vehicle_id)).toMatchObject({
        currency: 'USD',
        total_price: c.total,
      });
      // the check converts its own total as the search converts the card
      expect((c as { display?: unknown }).display).toEqual({ currency: 'EUR', total: first.total_price });
      await expect
        .poll(() => w.locator('[data-f=charged-in]').textContent())
        .toBe(`${money(first.total_price, 'EUR')} ≈ ${money(c.total, 'USD')}, charged in USD`);
      await expectAxeClean(page, `${width}px: detail in EUR`);
      await expectFits(page, width, 'detail in EUR');
      // an extra: both amounts are the check's new total (not the card's car-only figure beside it)
      const rechecked = page.waitForResponse(
        (r) => r.url().endsWith('/rova-rental/v2/booking/check') && r.request().postData()!.includes('extra_driver'),
      );
      await w.getByRole('checkbox', { name: 'Additional driver' }).check();
      const c2 = ((await (await rechecked).json()) as { data: { total: number; display: { total: number } } }).data;
      expect(c2.total).toBeGreaterThan(c.total);
      expect(c2.display.total).toBeGreaterThan(first.total_price);
      const said = `${money(c2.display.total, 'EUR')} ≈ ${money(c2.total, 'USD')}, charged in USD`;
      await expect.poll(() => w.locator('[data-f=charged-in]').textContent()).toBe(said);
      await w.locator('button[data-f=continue]').click();
      await register(w);
      await w.locator('h2', { hasText: 'Your booking' }).waitFor();
      expect(await w.locator('[data-f=charged-in]').textContent()).toBe(said);
      expect(await w.locator('tr.total td').textContent()).toBe(money(c2.total, 'USD'));
      await expectAxeClean(page, `${width}px: review in EUR`);
      await expectFits(page, width, 'review in EUR');
      await acceptTerms(w);
      await w.locator('button[data-f=book]').click();
      await w.locator('h2', { hasText: 'Booking received' }).waitFor();
      await expectAxeClean(page, `${width}px: booked`);
      await expectFits(page, width, 'booked');
      const created = (await events()).find((e) => e.type === 'rova:booking-created')?.detail as { id: number };
      const b = await api<{ data: { currency: string; total: number; vehicle_id: number } }>(
        `/rova-rental/v1/bookings/${created.id}`,
      );
      expect(b.data).toMatchObject({ currency: 'USD', total: c2.total, vehicle_id: first.vehicle_id });
    },
  );

  it("strict CSP (script-src 'self') and a cacheable page: renders with no violation, the same HTML for everyone; theming by --rova-*; 320 px wide", async () => {
    const a = await fetch(`${rig.shop.origin}/demo/rent`);
    const html = await a.text();
    expect(a.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(a.headers.get('cache-control')).toMatch(/public/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script
    expect(html).toMatch(/<script src="\/assets\/rova-book\/book\.[A-Za-z0-9_-]+\.js"/);
    const b = await fetch(`${rig.shop.origin}/demo/rent`);
    expect(await b.text()).toBe(html);
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));

    const { page, violations } = await open('/demo/rent');
    await page
      .locator(WIDGET)
      .locator('select[name=location] option', { hasText: 'Istanbul Airport' })
      .waitFor({ state: 'attached' });
    expect(await violations()).toEqual([]);
    // the CSP is in force: an inline script is refused
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inline = true';
      document.head.append(s);
    });
    expect(await page.evaluate(() => 'inline' in window || '__inline' in window)).toBe(false);
    await expect.poll(violations).toHaveLength(1);
    // theming: --rova-* on the mount element or on an ancestor
    await page.evaluate(() => {
      document
        .querySelector<HTMLElement>('[data-rova-book]')
        ?.style.setProperty('--rova-color-primary', 'rgb(185, 28, 28)');
      document.body.style.setProperty('--rova-radius', '4px');
    });
    const look = await page
      .locator(WIDGET)
      .locator('button[data-f=search]')
      .evaluate((b) => ({ bg: getComputedStyle(b).backgroundColor, radius: getComputedStyle(b).borderTopLeftRadius }));
    expect(look).toEqual({ bg: 'rgb(185, 28, 28)', radius: '3px' });
    // 320 px wide: the page does not scroll sideways and nothing sticks out of the widget's box
    await page.setViewportSize({ width: 320, height: 640 });
    expect(await overflow(page)).toEqual({ page: 320, out: [] });
    await page.locator(WIDGET).locator('button[data-f=search]').click();
    await page.locator(WIDGET).locator('ul.cards').waitFor();
    expect(await overflow(page)).toEqual({ page: 320, out: [] });
    const landing = await (await fetch(`${rig.shop.origin}/`)).text();
    expect(landing).toContain('href="/demo/rent"');
  });

  it('no currency chosen yet: the currency the currency service detects for the visitor (POST /convert, as the converter asks)', async () => {
    await saveSettings(rig.shop, { auto_detect: true });
    try {
      const { page, requests } = await open('/demo/rent?rova_pickup=2027-09-10T10:00&rova_return=2027-09-12T10:00', {
        headers: { 'CF-IPCountry': 'DE' },
      });
      const w = page.locator(WIDGET);
      await w.locator('button[data-f=search]').click();
      await w.locator('ul.cards').waitFor();
      expect(
        new Set(await w.locator('p.price').evaluateAll((ps) => ps.map((p) => p.getAttribute('data-currency')))),
      ).toEqual(new Set(['EUR']));
      expect(requests.filter((r) => r === 'POST /wp-json/rova-fx/v1/convert')).toHaveLength(1);
    } finally {
      await saveSettings(rig.shop, { auto_detect: false });
    }
  });
});
