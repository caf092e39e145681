import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { money, signIn as fillSignIn } from './book-account-steps.js';
import {
  ACCOUNT,
  customer,
  DIALOG,
  expectAxeClean,
  expectFits,
  focused,
  fromHome,
  overflow,
  readmeShot,
  SIZES,
  tabTo,
  TERMS_ACCEPTED,
  WIDGET,
  type Customer,
} from './book-helpers.js';
import { useBookShop } from './book-rig.js';
import { startCachingProxy } from './caching-proxy.js';
import { startStorefrontOrigin, visitorAddress, type StorefrontOrigin } from './harness.js';

// The booking widget's account mode (/demo/rent/account), the floating button, the currency switch and the host
// page API (postMessage from an iframe), in real Chromium against the real app with demo data.

/** A parent page and, on another origin, the page it frames (which embeds the widget): postMessage. */
let parent: StorefrontOrigin;
let framed: StorefrontOrigin;
const rig = useBookShop(
  {},
  {
    async start() {
      [parent, framed] = await Promise.all([startStorefrontOrigin(), startStorefrontOrigin()]);
      return { CORS_ORIGINS: framed.origin };
    },
    async close() {
      await parent?.close();
      await framed?.close();
    },
  },
);
const { open } = rig;

async function call<T>(
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; admin?: boolean; status?: number } = {},
): Promise<T> {
  const headers: Record<string, string> = { 'x-forwarded-for': visitorAddress() };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.admin) headers['x-rova-api-key'] = rig.shop.adminKey;
  if (method === 'POST' && path.endsWith('/booking/create')) headers['idempotency-key'] = crypto.randomUUID();
  const res = await fetch(`${rig.shop.origin}/wp-json${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBe(
    opts.status ?? (method === 'POST' ? (path.includes('/auth/') ? 200 : 201) : 200),
  );
  return JSON.parse(text) as T;
}

interface Booking {
  id: number;
  reference: string;
  currency: string;
  total: number;
}

/** A registered customer (through the API) and their access token. */
async function account(): Promise<Customer & { token: string }> {
  const c = customer();
  await call('POST', '/rova/v1/auth/register', {
    body: { email: c.email, password: c.password, first_name: c.first, last_name: c.last },
    status: 202,
  });
  const t = await call<{ access_token: string }>('POST', '/rova/v1/auth/token', {
    body: { login: c.email, password: c.password },
  });
  return { ...c, token: t.access_token };
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Books the cheapest free vehicle for the slot as the customer (offline, paid in full, the demo's terms accepted);
 * `paid` marks it paid.
 */
async function book(token: string, pickup: Date, days: number, paid: boolean): Promise<Booking> {
  const ret = new Date(pickup.getTime() + days * 86_400_000);
  const time = pickup.toISOString().slice(11, 16);
  const q = `pickup_date=${day(pickup)}&return_date=${day(ret)}&pickup_time=${encodeURIComponent(time)}&return_time=${encodeURIComponent(time)}&sort=price_asc&per_page=1`;
  const free = await call<{ data: { items: { vehicle_id: number }[] } }>('GET', `/rova-rental/v2/vehicles/search?${q}`);
  const body = {
    vehicle_id: free.data.items[0]!.vehicle_id,
    pickup_date: day(pickup),
    return_date: day(ret),
    pickup_time: time,
    return_time: time,
    payment_method: 'offline',
    payment_plan: 'full',
    ...TERMS_ACCEPTED,
  };
  const r = await call<{ data: { booking: Booking } }>('POST', '/rova-rental/v2/booking/create', { body, token });
  if (paid) await call('POST', `/rova-rental/v2/bookings/${r.data.booking.id}/mark-paid`, { admin: true, status: 200 });
  return r.data.booking;
}

/** Signs in on the account widget with the keyboard: Tab to the e-mail, type, Tab, type the password, Enter. */
async function signInByKeyboard(page: Page, c: Customer): Promise<void> {
  await page.locator(ACCOUNT).locator('input[name=email]').waitFor();
  await tabTo(page, 'E-mail');
  await page.keyboard.type(c.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(c.password);
  await page.keyboard.press('Enter');
  await page.locator(ACCOUNT).locator('h2', { hasText: 'My bookings' }).waitFor();
}

async function signIn(page: Page, c: Customer): Promise<void> {
  const w = page.locator(ACCOUNT);
  await fillSignIn(w, c);
  await w.locator('h2', { hasText: 'My bookings' }).waitFor();
}

describe('booking widget: account mode, floating button, currency switch, postMessage (Chromium)', () => {
  it('account, keyboard: sign in → upcoming/past → detail → cancel with the fee shown first → past; messages: new, thread, reply; axe on every step', async () => {
    const c = await account();
    const far = await book(c.token, new Date(Date.UTC(2028, 2, 6, 10)), 3, false);
    // pickup in about 3 hours: inside the 24 h before it, a cancellation keeps 20 % of what was paid
    const soon = new Date(Math.ceil((Date.now() + 3 * 3_600_000) / 3_600_000) * 3_600_000);
    const near = await book(c.token, soon, 2, true);
    const quote = (
      await call<{ data: { cancellation: { fee: number; refund: number; free: boolean; currency: string } } }>(
        'GET',
        `/rova-rental/v2/my/bookings/${near.id}`,
        { token: c.token },
      )
    ).data.cancellation;
    expect(quote.free).toBe(false);
    expect(quote.fee).toBeGreaterThan(0);

    const { page, events } = await open('/demo/rent/account');
    const w = page.locator(ACCOUNT);
    await w.locator('h2', { hasText: 'Sign in' }).waitFor();
    await expectAxeClean(page, 'sign in');
    await signInByKeyboard(page, c);
    const upcoming = () =>
      w.locator('section.upcoming [data-booking]').evaluateAll((els) => els.map((e) => e.getAttribute('data-booking')));
    await expect.poll(upcoming).toEqual([String(near.id), String(far.id)]); // soonest first
    expect(await w.locator('section.past p.note').textContent()).toBe('No bookings here.');
    await expectAxeClean(page, 'bookings');

    await tabTo(page, `View booking ${near.reference}`);
    await page.keyboard.press('Enter');
    await w.locator('h2', { hasText: `Booking ${near.reference}` }).waitFor();
    const feeText = `Cancelling now costs a fee of ${money(quote.fee, quote.currency)}; ${money(quote.refund, quote.currency)} is refunded.`;
    expect(await w.locator('[data-quote]').textContent()).toBe(feeText);
    // where: the booking's pick-up and return places with address and a map link
    const where = (
      await call<{ data: { pickup_location_id: number; return_location_id: number } }>(
        'GET',
        `/rova-rental/v2/my/bookings/${near.id}`,
        { token: c.token },
      )
    ).data;
    const places = (
      await call<{ data: { items: { id: number; name: string; address: string; city: string }[] } }>(
        'GET',
        '/rova-rental/v1/locations',
      )
    ).data.items;
    const line = (id: number) => {
      const l = places.find((x) => x.id === id)!;
      return [l.name, l.address, l.city].filter(Boolean).join(', ');
    };
    expect(await w.locator('[data-f=place-pickup] p').first().textContent()).toBe(line(where.pickup_location_id));
    expect(await w.locator('[data-f=place-return] p').first().textContent()).toBe(line(where.return_location_id));
    expect(await w.locator('[data-f=place-pickup] a').getAttribute('href')).toMatch(
      /^https:\/\/www\.openstreetmap\.org\//,
    );
    await expectAxeClean(page, 'booking');
    await tabTo(page, 'Cancel booking');
    await page.keyboard.press('Enter');
    await w.locator('h2', { hasText: `Cancel booking ${near.reference}?` }).waitFor();
    // the fee is on the screen and on the button before anything is cancelled
    expect(await w.locator('tr.total td').textContent()).toBe(money(quote.fee, quote.currency));
    expect(
      (await call<{ data: { status: string } }>('GET', `/rova-rental/v2/my/bookings/${near.id}`, { token: c.token }))
        .data.status,
    ).toBe('confirmed');
    await expectAxeClean(page, 'cancel');
    await readmeShot(page, 'book-account-cancel');
    await tabTo(page, `Yes, cancel (fee ${money(quote.fee, quote.currency)})`);
    await page.keyboard.press('Enter');
    await w
      .locator('p.notice', {
        hasText: `Booking cancelled. Fee ${money(quote.fee, quote.currency)}, refund ${money(quote.refund, quote.currency)}.`,
      })
      .waitFor();
    const after = (
      await call<{ data: { status: string; payment_status: string } }>(
        'GET',
        `/rova-rental/v2/my/bookings/${near.id}`,
        { token: c.token },
      )
    ).data;
    expect(after).toMatchObject({ status: 'cancelled', payment_status: 'partially_refunded' });
    const cancelled = (await events()).find((e) => e.type === 'rova:cancelled')?.detail;
    expect(cancelled).toEqual({
      id: near.id,
      reference: near.reference,
      fee: quote.fee,
      refund: quote.refund,
      currency: quote.currency,
    });
    await expectAxeClean(page, 'cancelled');
    await tabTo(page, 'Back');
    await page.keyboard.press('Enter');
    await expect.poll(upcoming).toEqual([String(far.id)]);
    expect(
      await w
        .locator('section.past [data-booking]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-booking'))),
    ).toEqual([String(near.id)]);

    // messages: a new thread by keyboard
    await tabTo(page, 'Messages');
    await page.keyboard.press('Enter');
    await w.locator('h2', { hasText: 'Messages' }).waitFor();
    await w.locator('p.note', { hasText: 'No messages yet.' }).waitFor();
    await expectAxeClean(page, 'messages');
    await tabTo(page, 'New message');
    await page.keyboard.press('Enter');
    await w.locator('h2', { hasText: 'New message' }).waitFor();
    await expectAxeClean(page, 'compose');
    await tabTo(page, 'Subject');
    await page.keyboard.type('Child seat');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Can you add a child seat to my March booking?');
    await tabTo(page, 'Send');
    await page.keyboard.press('Enter');
    await w.locator('h2', { hasText: 'Child seat' }).waitFor();
    await w.locator('p.notice', { hasText: 'Message sent.' }).waitFor();
    const inbox = await call<{ data: { items: { id: number; subject: string; customer_email: string }[] } }>(
      'GET',
      `/rova-rental/v1/messages?search=${encodeURIComponent(c.email)}`,
      { admin: true },
    );
    expect(inbox.data.items.map((i) => [i.subject, i.customer_email])).toEqual([['Child seat', c.email]]);
    const threadId = inbox.data.items[0]!.id;
    await call('POST', `/rova-rental/v1/messages/${threadId}/reply`, {
      admin: true,
      body: { message: 'Yes, one child seat is added.' },
    });
    await tabTo(page, 'Back');
    await page.keyboard.press('Enter');
    await tabTo(page, 'Open Child seat');
    await page.keyboard.press('Enter');
    await w.locator('.msg.admin .body', { hasText: 'Yes, one child seat is added.' }).waitFor();
    await expectAxeClean(page, 'thread');
    await tabTo(page, 'Your reply');
    await page.keyboard.type('Thank you!');
    await tabTo(page, 'Send reply');
    await page.keyboard.press('Enter');
    await w.locator('.msg.customer .body', { hasText: 'Thank you!' }).waitFor();
    const thread = await call<{ data: { replies: { sender: string; body: string }[] } }>(
      'GET',
      `/rova-rental/v1/messages/${threadId}`,
      { admin: true },
    );
    expect(thread.data.replies.map((r) => [r.sender, r.body])).toEqual([
      ['admin', 'Yes, one child seat is added.'],
      ['customer', 'Thank you!'],
    ]);
  });

  it('account: a message about a booking, profile saved, password changed (the widget signs in again with the new one), a double-clicked cancel cancels once', async () => {
    const c = await account();
    const b = await book(c.token, new Date(Date.UTC(2028, 3, 10, 10)), 2, false);
    const { page, requests } = await open('/demo/rent/account');
    const w = page.locator(ACCOUNT);
    await signIn(page, c);
    await w.locator(`button[data-f=booking-${b.id}]`).click();
    await w.locator('[data-quote]', { hasText: /^Free cancellation until / }).waitFor();
    await w.locator('button[data-f=message-booking]').click();
    expect(await w.locator('input[name=subject]').inputValue()).toBe(`About booking ${b.reference}`);
    await w.locator('textarea[name=message]').fill('Can I pick it up an hour later?');
    await w.locator('button[data-f=send]').click();
    await w.locator('p.notice', { hasText: 'Message sent.' }).waitFor();
    const inbox = await call<{ data: { items: { booking_id: number | null }[] } }>(
      'GET',
      '/rova-rental/v1/my/messages',
      { token: c.token },
    );
    expect(inbox.data.items.map((i) => i.booking_id)).toEqual([b.id]);

    // the password rule arrives after the person has typed (held here, as a slow network does): the form drawn again
    // for it keeps what they typed
    let releasePolicy = () => {};
    const policyHeld = new Promise<void>((r) => (releasePolicy = r));
    await page.route('**/rova/v1/auth/password/policy', async (route) => {
      await policyHeld;
      await route.continue();
    });
    await w.locator('button[data-f=nav-profile]').click();
    await w.locator('input[name=phone]').fill('+90 555 000 11 22');
    releasePolicy();
    await w.locator('#rova-new-password-rule', { hasText: 'Use at least 10 characters.' }).waitFor();
    await page.unroute('**/rova/v1/auth/password/policy');
    expect(await w.locator('input[name=phone]').inputValue()).toBe('+90 555 000 11 22');
    await w.locator('button[data-f=save-profile]').click();
    await w.locator('p.notice', { hasText: 'Saved.' }).waitFor();
    expect((await call<{ user: { phone: string } }>('GET', '/rova/v1/profile', { token: c.token })).user.phone).toBe(
      '+90 555 000 11 22',
    );
    await expectAxeClean(page, 'profile');

    // the rule comes from the server, is shown beside the field, and a shorter password is refused before sending
    await w.locator('#rova-new-password-rule', { hasText: 'Use at least 10 characters.' }).waitFor();
    await w.locator('input[name=pw-current]').fill(c.password);
    await w.locator('input[name=pw-next]').fill('short-pw');
    await w.locator('button[data-f=change-password]').click();
    await expect
      .poll(() => w.locator('[role=alert]').textContent())
      .toBe('Something went wrong: Use at least 10 characters.');
    expect(requests.filter((r) => r === 'PUT /wp-json/rova/v1/auth/password')).toEqual([]);
    await w.locator('input[name=pw-current]').fill('not-the-password');
    await w.locator('input[name=pw-next]').fill('a-new-password-456');
    await w.locator('button[data-f=change-password]').click();
    await expect
      .poll(() => w.locator('[role=alert]').textContent())
      .toBe('Something went wrong: The current password is wrong.');
    // a wrong password is not a dead session: no token refresh
    expect(requests.filter((r) => r === 'POST /wp-json/rova/v1/auth/token/refresh')).toEqual([]);
    await w.locator('input[name=pw-current]').fill(c.password);
    await w.locator('input[name=pw-next]').fill('a-new-password-456');
    await w.locator('button[data-f=change-password]').click();
    await w.locator('p.notice', { hasText: 'Password changed; other sessions were signed out.' }).waitFor();
    // the old password no longer works, the new one does; the widget is still signed in
    await call('POST', '/rova/v1/auth/token', { body: { login: c.email, password: c.password }, status: 401 });
    await call('POST', '/rova/v1/auth/token', { body: { login: c.email, password: 'a-new-password-456' } });
    await w.locator('button[data-f=nav-bookings]').click();
    await w.locator(`button[data-f=booking-${b.id}]`).click();
    // free before the deadline: nothing was paid, nothing kept; a double click cancels once
    await w.locator('[data-quote]', { hasText: /^Free cancellation until / }).waitFor();
    await w.locator('button[data-f=cancel]').click();
    await w.locator('button[data-f=confirm-cancel]').dblclick();
    await w
      .locator('p.notice', {
        hasText: `Booking cancelled. Fee ${money(0, b.currency)}, refund ${money(0, b.currency)}.`,
      })
      .waitFor();
    expect(requests.filter((r) => r === `POST /wp-json/rova-rental/v2/my/bookings/${b.id}/cancel`)).toHaveLength(1);
    expect(await w.locator('[role=alert]').textContent()).toBe('');
    // signing out ends the session on the server and forgets it: the sign-in again
    const revoke = page.waitForResponse((r) => r.url().endsWith('/wp-json/rova/v1/auth/token/revoke'));
    await w.locator('button[data-f=sign-out]').click();
    expect((await revoke).status()).toBe(200);
    await w.locator('input[name=email]').waitFor();
  });

  it.each(SIZES)(
    '%s: forgot password: from / to the sign-in, the mailed link opens the reset page, which says the rule, refuses a short one, and the new password signs in (axe on each step)',
    async (_n, width, height) => {
      const c = await account();
      const { page, requests } = await fromHome(open, { width, height }, 'Demo customer account');
      const w = page.locator(ACCOUNT);
      await w.locator('h2', { hasText: 'Sign in' }).waitFor();
      await expectAxeClean(page, `${width}px: sign-in`);
      await expectFits(page, width, 'sign-in', ACCOUNT);
      await w.getByRole('button', { name: 'Forgot password?' }).click();
      await w.locator('h2', { hasText: 'Forgot your password?' }).waitFor();
      await expectAxeClean(page, `${width}px: forgot`);
      await expectFits(page, width, 'forgot', ACCOUNT);
      await w.locator('input[name=email]').fill(c.email);
      await w.locator('button[data-f=auth-forgot]').click();
      await w
        .locator('[data-f=auth-notice]', {
          hasText:
            'If an account exists for this address, a link to choose a new password is on its way. Check your inbox.',
        })
        .waitFor();
      await w.locator('h2', { hasText: 'Sign in' }).waitFor();

      // the mail (this shop keeps mails in the outbox): its link leads to the page Rova serves for the reset
      let mail: { template: string; html: string } | undefined;
      await expect
        .poll(
          async () =>
            (mail = (
              await call<{ template: string; html: string }[]>(
                'GET',
                `/rova/v1/outbox?to=${encodeURIComponent(c.email)}`,
                { admin: true },
              )
            ).find((m) => m.template === 'password_reset')),
        )
        .toBeTruthy();
      const link = /href="(https?:\/\/[^"]+\/account\?rova_reset=[A-Za-z0-9_-]+)"/.exec(mail?.html ?? '')?.[1];
      expect(link, 'the reset link in the mail').toBeTruthy();
      const opened = new URL(link!);
      // the customer opens it (this shop stands for the public address)
      await page.goto(rig.shop.origin + opened.pathname + opened.search);
      await w.locator('h2', { hasText: 'Choose a new password' }).waitFor();
      await w.locator('#rova-password-rule', { hasText: 'Use at least 10 characters.' }).waitFor();
      await expectAxeClean(page, `${width}px: reset`);
      await expectFits(page, width, 'reset', ACCOUNT);
      await w.locator('input[name=password]').fill('too-short');
      await w.locator('button[data-f=auth-reset]').click();
      expect(await w.locator('[data-f=auth-error]').textContent()).toBe('Use at least 10 characters.');
      expect(requests.filter((r) => r === 'POST /wp-json/rova/v1/auth/password/reset')).toEqual([]);
      await w.locator('input[name=password]').fill('brand-new-pass-789');
      await w.locator('button[data-f=auth-reset]').click();
      await w
        .locator('[data-f=auth-notice]', { hasText: 'Your password is changed. Sign in with the new one.' })
        .waitFor();
      // the spent token left the address bar
      expect(new URL(page.url()).searchParams.has('rova_reset')).toBe(false);
      await call('POST', '/rova/v1/auth/token', { body: { login: c.email, password: c.password }, status: 401 });
      await expectAxeClean(page, `${width}px: password changed`);
      await expectFits(page, width, 'password changed', ACCOUNT);
      await signIn(page, { ...c, password: 'brand-new-pass-789' });
      await expectAxeClean(page, `${width}px: signed in with the new password`);
      await expectFits(page, width, 'signed in with the new password', ACCOUNT);
    },
  );

  it('from / through the links to /demo/rent (no typed URL); the floating button opens the dialog and stays clear of the content at 320 px; on to the account page', async () => {
    const { page } = await open('/');
    await page.getByRole('link', { name: 'Demo rental page' }).click();
    await page.waitForURL(`${rig.shop.origin}/demo/rent`);
    const fab = page.getByRole('button', { name: 'Book a car' });
    await fab.waitFor();
    await fab.click();
    const d = page.locator(DIALOG);
    await d.locator('button[data-f=search]').waitFor();
    expect(await d.evaluate((el) => (el as HTMLDialogElement).open)).toBe(true);
    expect(await d.locator('select[name=location]').inputValue()).toBe('1'); // the script tag's data-location
    await expectAxeClean(page, 'floating dialog');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-rova-book-dialog]').count()).toBe(0);
    expect(await focused(page)).toBe('Book a car'); // focus back on the floating button

    await page.setViewportSize({ width: 320, height: 640 });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const clash = await page.evaluate(() => {
      const b = document
        .querySelector('[data-rova-book-floating-host]')!
        .shadowRoot!.querySelector('button')!
        .getBoundingClientRect();
      const hit = (r: DOMRect) =>
        r.width > 0 && r.height > 0 && r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top;
      const inWidget = Array.from(
        document.querySelector('[data-rova-book]')!.shadowRoot!.querySelectorAll('button, input, select, a, h2, h3, p'),
      ).filter((e) => hit(e.getBoundingClientRect()));
      const inPage = Array.from(document.querySelectorAll('main *, header *')).filter((e) =>
        hit(e.getBoundingClientRect()),
      );
      return {
        width: b.width,
        scroll: document.documentElement.scrollWidth,
        covered: [...inWidget, ...inPage].map((e) => e.tagName),
      };
    });
    expect(clash.covered).toEqual([]);
    expect(clash.scroll).toBe(320);
    expect(clash.width).toBeLessThanOrEqual(320 - 24);

    await page.getByRole('link', { name: 'My account' }).click();
    await page.waitForURL(`${rig.shop.origin}/demo/rent/account`);
    await page.locator(ACCOUNT).locator('input[name=email]').waitFor();
    const landing = await (await fetch(`${rig.shop.origin}/`)).text();
    expect(landing).toContain('href="/demo/rent/account"');
  });

  it('currency switch inside the widget: every shown price becomes the search API’s figure in the new currency; the fx cookie is written', async () => {
    const q =
      'pickup_date=2027-10-04&return_date=2027-10-07&pickup_time=10%3A00&return_time=10%3A00&sort=price_asc&per_page=12';
    const { page, context } = await open(
      '/demo/rent?currency=EUR&rova_pickup=2027-10-04T10:00&rova_return=2027-10-07T10:00',
    );
    const w = page.locator(WIDGET);
    await w.locator('select[name=currency] option[value=GBP]').waitFor({ state: 'attached' });
    await w.locator('button[data-f=search]').click();
    await w.locator('ul.cards').waitFor();
    const shown = () =>
      w
        .locator('p.price')
        .evaluateAll((ps) =>
          ps.map((p) => [p.getAttribute('data-price'), p.getAttribute('data-currency'), p.textContent]),
        );
    const expected = async (cur: string) => {
      const r = await call<{ data: { items: { total_price: number; currency: string; days: number }[] } }>(
        'GET',
        `/rova-rental/v2/vehicles/search?${q}&currency=${cur}`,
      );
      return r.data.items.map((i) => [
        String(i.total_price),
        i.currency,
        `${money(i.total_price, i.currency)} for ${i.days} days`,
      ]);
    };
    const eur = await expected('EUR');
    expect(await shown()).toEqual(eur);
    expect(await w.locator('select[name=currency]').inputValue()).toBe('EUR');
    await w.locator('select[name=currency]').selectOption('GBP');
    const gbp = await expected('GBP');
    expect(gbp.every(([, cur]) => cur === 'GBP')).toBe(true);
    await expect.poll(shown).toEqual(gbp);
    await readmeShot(page, 'book-journey-results');
    expect(gbp.map((g) => g[0])).not.toEqual(eur.map((e) => e[0]));
    expect((await context.cookies(rig.shop.origin)).find((k) => k.name === 'rova_fx_currency')?.value).toBe('GBP');
  });

  it('search filters: fuel (choices and counts from the search facets) and seats (at least) ask the API and show its answer', async () => {
    const q =
      'pickup_date=2027-10-11&return_date=2027-10-13&pickup_time=10%3A00&return_time=10%3A00&sort=price_asc&per_page=12';
    const all = await call<{ data: { facets: { fuel_type: Record<string, number> } } }>(
      'GET',
      `/rova-rental/v2/vehicles/search?${q}`,
    );
    const fuels = Object.entries(all.data.facets.fuel_type).sort(([a], [b]) => a.localeCompare(b));
    expect(fuels.length).toBeGreaterThan(1);
    const { page } = await open('/demo/rent?rova_pickup=2027-10-11T10:00&rova_return=2027-10-13T10:00');
    const w = page.locator(WIDGET);
    await w.locator('button[data-f=search]').click();
    await w.locator('ul.cards').waitFor();
    const options = await w
      .locator('select[name=fuel] option')
      .evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    expect(options).toEqual([
      ['', 'Any fuel'],
      ...fuels.map(([f, n]) => [f, `${f.charAt(0).toUpperCase()}${f.slice(1)} (${n})`]),
    ]);
    const [fuel] = fuels[0]!;
    await w.locator('select[name=fuel]').selectOption(fuel);
    await w.locator('select[name=seats]').selectOption('5');
    const sent = page.waitForRequest(
      (r) =>
        r.url().includes('/vehicles/search?') &&
        new URL(r.url()).searchParams.get('fuel_type') === fuel &&
        new URL(r.url()).searchParams.get('seats') === '5',
    );
    await w.locator('button[data-f=search]').click();
    await sent;
    const want = await call<{ data: { total: number; items: { name: string }[] } }>(
      'GET',
      `/rova-rental/v2/vehicles/search?${q}&fuel_type=${fuel}&seats=5`,
    );
    await expect
      .poll(() => w.locator('h2').first().textContent())
      .toBe(
        want.data.total === 0
          ? 'No vehicle is free for these dates. Try other dates or another location.'
          : `${want.data.total} vehicles available`,
      );
    expect(await w.locator('ul.cards h3').allTextContents()).toEqual(want.data.items.map((i) => i.name));
  });

  it('account at 320 px: nothing sticks out, the page does not scroll sideways', async () => {
    const c = await account();
    const b = await book(c.token, new Date(Date.UTC(2028, 4, 2, 10)), 2, false);
    const { page } = await open('/demo/rent/account', { viewport: { width: 320, height: 640 } });
    await signIn(page, c);
    await page.locator(ACCOUNT).locator(`button[data-f=booking-${b.id}]`).waitFor();
    expect(await overflow(page, ACCOUNT)).toEqual({ page: 320, out: [] });
    await page.locator(ACCOUNT).locator(`button[data-f=booking-${b.id}]`).click();
    await page.locator(ACCOUNT).locator('[data-quote]').waitFor();
    expect(await overflow(page, ACCOUNT)).toEqual({ page: 320, out: [] });
    await page.locator(ACCOUNT).locator('button[data-f=nav-profile]').click();
    await page.locator(ACCOUNT).locator('input[name=phone]').waitFor();
    expect(await overflow(page, ACCOUNT)).toEqual({ page: 320, out: [] });
    await expectAxeClean(page, 'account 320 px');
  });

  it('account in German (?rova_lang=de): sign-in, tabs, the list and the quote in German, money through Intl', async () => {
    const c = await account();
    const b = await book(c.token, new Date(Date.UTC(2028, 6, 3, 10)), 2, false);
    const { page, events } = await open('/demo/rent/account?rova_lang=de');
    const w = page.locator(ACCOUNT);
    await w.locator('h2', { hasText: 'Anmelden' }).waitFor();
    await fillSignIn(w, c);
    await w.locator('h2', { hasText: 'Meine Buchungen' }).waitFor();
    expect(await w.locator('nav button').allTextContents()).toEqual([
      'Meine Buchungen',
      'Nachrichten',
      'Profil',
      'Abmelden',
    ]);
    // the heading comes before the list's answer: read the sections once the booking is in them
    await w.locator(`[data-booking="${b.id}"]`).waitFor();
    expect(await w.locator('section h3').allTextContents()).toEqual(['Bevorstehend', 'Vergangen']);
    expect(await w.locator(`[data-booking="${b.id}"] p.price`).textContent()).toBe(
      new Intl.NumberFormat('de-DE', { style: 'currency', currency: b.currency }).format(b.total),
    );
    await w.locator(`button[data-f=booking-${b.id}]`).click();
    await w.locator('[data-quote]', { hasText: /^Kostenlose Stornierung bis / }).waitFor();
    await expectAxeClean(page, 'account de');
    // the language switch below every step: Turkish at once, the page told by rova:language
    await w.locator('select[data-f=lang]').selectOption('tr');
    await w.locator('[data-quote]', { hasText: /tarihine kadar/ }).waitFor();
    expect(await w.locator('section.root').getAttribute('lang')).toBe('tr');
    expect(await w.locator('select[data-f=lang]').inputValue()).toBe('tr');
    expect(await w.locator('label', { has: page.locator('select[data-f=lang]') }).textContent()).toMatch(/^Dil/);
    expect((await events()).filter((e) => e.type === 'rova:language').map((e) => e.detail.lang)).toEqual(['tr']);
  });

  it('one cached page, two visitors: the proxy serves both the same HTML; each sees only their own bookings (or the sign-in)', async () => {
    const [a, b] = await Promise.all([account(), account()]);
    const [ba, bb] = await Promise.all([
      book(a.token, new Date(Date.UTC(2028, 5, 5, 10)), 2, false),
      book(b.token, new Date(Date.UTC(2028, 5, 12, 10)), 2, false),
    ]);
    const proxy = await startCachingProxy(rig.shop.origin);
    try {
      const va = await open(`${proxy.origin}/demo/rent/account`);
      await signIn(va.page, a);
      const refs = (p: Page) =>
        p
          .locator(ACCOUNT)
          .locator('[data-booking] p.meta')
          .evaluateAll((ps) => ps.map((x) => x.textContent ?? ''));
      await expect.poll(async () => (await refs(va.page)).join(' ')).toContain(ba.reference);
      const vb = await open(`${proxy.origin}/demo/rent/account`);
      await vb.page.locator(ACCOUNT).locator('input[name=email]').waitFor();
      expect(await vb.page.locator(ACCOUNT).locator('[data-booking]').count()).toBe(0);
      expect(proxy.hits.filter((u) => u === '/demo/rent/account')).toHaveLength(1);
      await signIn(vb.page, b);
      await expect.poll(async () => (await refs(vb.page)).join(' ')).toContain(bb.reference);
      expect((await refs(vb.page)).join(' ')).not.toContain(ba.reference);
      expect((await refs(va.page)).join(' ')).not.toContain(bb.reference);
    } finally {
      await proxy.close();
    }
  });

  it('strict CSP on /demo/rent/account: no inline script, the same cacheable HTML for everyone, no violation after sign-in', async () => {
    const r1 = await fetch(`${rig.shop.origin}/demo/rent/account`);
    const html = await r1.text();
    expect(r1.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(r1.headers.get('cache-control')).toMatch(/public/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).toContain('<div data-rova-book="account"></div>');
    expect(await (await fetch(`${rig.shop.origin}/demo/rent/account`)).text()).toBe(html);
    const c = await account();
    const { page, violations } = await open('/demo/rent/account');
    await signIn(page, c);
    await page.locator(ACCOUNT).locator('button[data-f=nav-messages]').click();
    await page.locator(ACCOUNT).locator('p.note', { hasText: 'No messages yet.' }).waitFor();
    expect(await violations()).toEqual([]);
  });

  it("a booking mail's link: the account page opens that booking as soon as its customer has signed in", async () => {
    const c = await account();
    const b = await book(c.token, new Date(Date.UTC(2028, 4, 9, 10)), 2, false);
    const [mail] = await call<{ text: string }[]>(
      'GET',
      `/rova/v1/outbox?to=${encodeURIComponent(c.email)}&template=booking_created`,
      { admin: true },
    );
    const link = new URL(/View your booking: (\S+)/.exec(mail!.text)![1]!);
    // the default ACCOUNT_URL: the account page Rova serves with or without demo data
    expect(link.pathname).toBe('/account');
    expect(link.searchParams.get('rova_booking')).toBe(b.reference);
    // the link as the customer clicks it in the mail (PUBLIC_URL is this test's shop)
    const { page } = await open(`${link.pathname}${link.search}`);
    const w = page.locator(ACCOUNT);
    await fillSignIn(w, c);
    await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();
  });

  it('in an iframe: events are posted to the parent named by data-parent-origin ({source, type, detail}); a frame naming another origin posts nothing it can read', async () => {
    framed.html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Framed</title>
<script src="${rig.shop.origin}/assets/rova-book/book.js" data-parent-origin="${parent.origin}" defer></script></head>
<body><div data-rova-book data-pickup="2027-11-02T10:00" data-return="2027-11-04T10:00"></div></body></html>`;
    parent.html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Parent</title></head>
<body><h1>Parent</h1><iframe title="Booking" src="${framed.origin}/frame" width="900" height="700"></iframe></body></html>`;
    const { page } = await open(`${parent.origin}/`, { go: false });
    await page.addInitScript(() => {
      const w = window as unknown as { __posted: unknown[] };
      w.__posted = [];
      window.addEventListener('message', (e) => w.__posted.push({ origin: e.origin, data: e.data as unknown }));
    });
    await page.goto(`${parent.origin}/`);
    const frame = page.frameLocator('iframe').locator(WIDGET);
    await frame.locator('button[data-f=search]').click();
    await frame.locator('ul.cards').waitFor();
    const posted = () =>
      page.evaluate(
        () =>
          (
            window as unknown as {
              __posted: { origin: string; data: { source: string; type: string; detail: Record<string, unknown> } }[];
            }
          ).__posted,
      );
    await expect.poll(async () => (await posted()).map((p) => p.data.type)).toEqual(['rova:ready', 'rova:search']);
    const [ready, search] = await posted();
    expect(ready).toEqual({ origin: framed.origin, data: { source: 'rova-book', type: 'rova:ready', detail: {} } });
    expect(search!.data.detail).toMatchObject({ pickupDate: '2027-11-02', returnDate: '2027-11-04' });

    // the same frame naming another parent: the browser delivers nothing to this one
    framed.html = framed.html.replace(
      `data-parent-origin="${parent.origin}"`,
      'data-parent-origin="https://elsewhere.example"',
    );
    await page.evaluate(() => {
      (window as unknown as { __posted: unknown[] }).__posted.length = 0;
      document.querySelector('iframe')!.src += '?again';
    });
    await page.frameLocator('iframe').locator(WIDGET).locator('button[data-f=search]').click();
    await page.frameLocator('iframe').locator(WIDGET).locator('ul.cards').waitFor();
    await page.waitForTimeout(300);
    expect(await posted()).toEqual([]);
  });
});
