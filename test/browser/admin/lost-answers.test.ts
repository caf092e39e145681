import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorAddress } from '../harness.js';
import { expectNoPageErrors, loginAs, openAdmin, rental, startAdminRig, type AdminRig } from './helpers.js';

// An answer lost on its way back (a load balancer closing the connection, Wi-Fi dropping) after the server committed
// the write: the operator sees the error and submits again. Each create form keeps one Idempotency-Key until it has
// created its thing, so the second submit is answered with the first result instead of writing a second one.

let rig: AdminRig;
beforeAll(async () => {
  rig = await startAdminRig();
});
afterAll(async () => {
  await rig?.close();
});

interface Sent {
  key: string | undefined;
  status: number;
  replayed: string | undefined;
}

/** The first `POST <path>` reaches the server, its answer never reaches the page; later ones pass. */
async function loseFirstAnswer(page: Page, path: string): Promise<Sent[]> {
  const sent: Sent[] = [];
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      const req = route.request();
      if (req.method() !== 'POST') return route.fallback();
      const res = await route.fetch();
      sent.push({
        key: req.headers()['idempotency-key'],
        status: res.status(),
        replayed: res.headers()['idempotent-replayed'],
      });
      if (sent.length === 1) return route.abort('connectionreset');
      return route.fulfill({ response: res });
    },
  );
  return sent;
}

const UNREACHABLE = 'The server could not be reached. Check the connection and try again.';

/** The same key both times; the server wrote on the first and replayed that answer on the second. */
function expectReplayed(sent: Sent[], created: number): void {
  expect(sent).toHaveLength(2);
  expect(sent[0]!.key).toMatch(/^[0-9a-f]{32}$/);
  expect(sent[1]!.key).toBe(sent[0]!.key);
  expect(sent.map((s) => s.status)).toEqual([created, created]);
  expect(sent.map((s) => s.replayed)).toEqual([undefined, 'true']);
}

/** The Idempotency-Key of every POST to a path matching `path`, in order. */
function keysPosted(page: Page, path: RegExp): string[] {
  const keys: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && path.test(new URL(r.url()).pathname)) keys.push(r.headers()['idempotency-key'] ?? '');
  });
  return keys;
}

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name, exact: true }).click();

describe('admin create forms after a lost answer', () => {
  it('new booking, already paid: submitting again opens the one booking, paid once', async () => {
    const vehicle = (
      await rental<{ items: { id: number; name: string }[] }>(rig, '/rova-rental/v1/vehicles?per_page=1&status=active')
    ).items[0]!;
    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: '/dashboard' });
    const { page } = a;
    await nav(page, 'Bookings');
    await page.getByRole('link', { name: 'New booking' }).click();
    await page.getByRole('heading', { name: 'New booking' }).waitFor();
    await page.getByLabel('New customer (walk-in)').check();
    await page.getByLabel('Customer name').fill('Lost Answer');
    await page.getByLabel('Customer e-mail').fill('lost.answer@example.test');
    const veh = page.getByRole('combobox', { name: 'Vehicle' });
    await veh.fill(vehicle.name);
    await page.getByRole('listbox', { name: 'Vehicle' }).getByRole('option', { name: vehicle.name }).first().click();
    await page.getByLabel('Pick-up date').fill('2032-04-06');
    await page.getByLabel('Return date').fill('2032-04-08');
    await page.getByLabel('Payment').selectOption('paid');
    await page.getByLabel('Paid by').selectOption('cash');

    const bookings = await loseFirstAnswer(page, '/wp-json/rova-rental/v1/bookings');
    const payments = keysPosted(page, /^\/wp-json\/rova-rental\/v2\/bookings\/\d+\/payments$/);
    await page.getByRole('button', { name: 'Create booking' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(UNREACHABLE);
    expect(payments).toEqual([]);
    await page.getByRole('button', { name: 'Create booking' }).click();
    await page.getByRole('heading', { name: /^Booking / }).waitFor();
    expectReplayed(bookings, 201);
    expect(payments).toHaveLength(1);
    expect(payments[0]).not.toBe(bookings[0]!.key);

    const mine = (
      await rental<{ items: { id: number; reference: string; customer_email: string }[] }>(
        rig,
        `/rova-rental/v1/bookings?search=${encodeURIComponent('lost.answer@example.test')}`,
      )
    ).items.filter((b) => b.customer_email === 'lost.answer@example.test');
    expect(mine).toHaveLength(1);
    await page.getByRole('heading', { name: `Booking ${mine[0]!.reference}` }).waitFor();
    const detail = await rental<{ payment_status: string; amount_due: number; payments: unknown[] }>(
      rig,
      `/rova-rental/v1/bookings/${mine[0]!.id}`,
    );
    expect(detail).toMatchObject({ payment_status: 'paid', amount_due: 0 });
    expect(detail.payments).toHaveLength(1);
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('new location: submitting again closes the form on the one location', async () => {
    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: '/dashboard' });
    const { page } = a;
    await nav(page, 'Locations');
    await page.getByRole('heading', { level: 1, name: 'Locations' }).waitFor();
    await page.getByRole('button', { name: 'New location' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('E2E Lost Answer Desk');
    await dialog.getByLabel('City').fill('Split');
    const sent = await loseFirstAnswer(page, '/wp-json/rova-rental/v1/locations');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(UNREACHABLE);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    expectReplayed(sent, 201);
    await page.getByRole('cell', { name: 'E2E Lost Answer Desk', exact: true }).waitFor();
    const all = await rental<{ items: { name: string }[] }>(rig, '/rova-rental/v1/locations?per_page=100');
    expect(all.items.filter((l) => l.name === 'E2E Lost Answer Desk')).toHaveLength(1);

    // the next location is a new thing: a new key, written afresh
    await page.unrouteAll();
    const next = keysPosted(page, /^\/wp-json\/rova-rental\/v1\/locations$/);
    await page.getByRole('button', { name: 'New location' }).click();
    await dialog.getByLabel('Name').fill('E2E Second Desk');
    await dialog.getByLabel('City').fill('Split');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(next).toHaveLength(1);
    expect(next[0]).not.toBe(sent[0]!.key);
    await page.getByRole('cell', { name: 'E2E Second Desk', exact: true }).waitFor();
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('new API key: submitting again shows the one key, and it works', async () => {
    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: '/dashboard' });
    const { page } = a;
    await nav(page, 'System');
    await page.getByRole('button', { name: 'Create key' }).waitFor();
    await page.getByLabel('New key name').fill('e2e lost answer');
    const sent = await loseFirstAnswer(page, '/wp-json/rova/v1/api-keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(UNREACHABLE);
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent())!;
    expectReplayed(sent, 201);
    expect(key).toMatch(/^rova_/);
    const me = await fetch(`${rig.shop.origin}/wp-json/rova/v1/auth/me`, {
      headers: { 'x-rova-api-key': key, 'x-forwarded-for': visitorAddress() },
    });
    expect(me.status).toBe(200);
    const keys = (await rig.api<{ name: string }[]>('/rova/v1/api-keys?per_page=100')).body;
    expect(keys.filter((k) => k.name === 'e2e lost answer')).toHaveLength(1);
    expectNoPageErrors(a);
    await a.context.close();
  });
});
