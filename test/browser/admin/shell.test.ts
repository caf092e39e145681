import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle, visitorAddress } from '../harness.js';
import {
  ADMIN_PASSWORD,
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
  screenshot,
  startAdminRig,
  type AdminRig,
} from './helpers.js';

let rig: AdminRig;
beforeAll(async () => {
  rig = await startAdminRig();
});
afterAll(async () => {
  await rig?.close();
});

describe('admin shell: serving, login, logout, capabilities', () => {
  it('serves index.html uncached for client routes and hashed assets immutable', async () => {
    const index = await fetch(`${rig.shop.origin}/admin/bookings/42?x=1`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await index.text();
    const js = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(js).toBeDefined();
    const asset = await fetch(rig.shop.origin + js);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await fetch(`${rig.shop.origin}/admin/assets/nope-123.js`)).status).toBe(404);
    expect((await fetch(`${rig.shop.origin}/admin/assets/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${rig.shop.origin}/admin`)).status).toBe(200);
    // The landing page links the built app.
    expect(await (await fetch(`${rig.shop.origin}/`)).text()).toContain('href="/admin"');
  });

  it('wrong password shows the server message; the right one logs in to the dashboard; logout returns to the login form', async () => {
    const a = await openAdmin(rig);
    const { page } = a;
    await page.goto(`${rig.shop.origin}/admin/`);
    await expect.poll(() => page.url()).toBe(`${rig.shop.origin}/admin/login`);
    await expectAxeClean(page, 'login');
    await screenshot(page, 'login');
    await page.getByLabel('Login or email').fill('admin');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Unknown login or wrong password.');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(page.url()).toBe(`${rig.shop.origin}/admin/dashboard`);
    // Store settings from the server.
    await expect.poll(() => page.getByRole('complementary').textContent()).toContain('USD · UTC');
    // A reload keeps the session (cookie → fresh nonce).
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Rova admin — log in' }).waitFor();
    // The session is gone on the server too.
    await page.reload();
    await page.getByRole('heading', { name: 'Rova admin — log in' }).waitFor();
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('a 401 mid-session goes to the login page and, after logging in, back to the same screen', async () => {
    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: '/dashboard' });
    const { page } = a;
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // The dashboard's own queries answer first: one still in flight would meet the 401 before the click does.
    await settle(page);
    // The session ends behind the app's back (cookie gone): the next API call answers 401.
    await a.context.clearCookies();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('heading', { name: 'Rova admin — log in' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Your session has ended' }).count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('next')).toBe('/customers');
    await page.getByLabel('Login or email').fill('admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Customers' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/customers');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('a deep link without a session: log in, and land on exactly the requested URL (path and query)', async () => {
    const a = await openAdmin(rig);
    const { page } = a;
    await page.goto(`${rig.shop.origin}/admin/vehicles?status=active`);
    await page.getByRole('heading', { name: 'Rova admin — log in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/vehicles?status=active');
    // a first visit is not an expired session
    expect(await page.getByRole('status').filter({ hasText: 'Your session has ended' }).count()).toBe(0);
    await page.getByLabel('Login or email').fill('admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Vehicles' }).waitFor();
    expect(page.url()).toBe(`${rig.shop.origin}/admin/vehicles?status=active`);
    expect(await page.getByLabel('Status').inputValue()).toBe('active');
    // an off-site next= is ignored: the dashboard, never another origin
    await a.context.clearCookies();
    await page.goto(`${rig.shop.origin}/admin/login?next=${encodeURIComponent('//evil.example/x')}`);
    await page.getByLabel('Login or email').fill('admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(page.url()).toBe(`${rig.shop.origin}/admin/dashboard`);
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('light and dark theme: the choice is kept across reloads, both pass axe', async () => {
    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: '/dashboard' });
    const { page } = a;
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const dark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    const before = await dark();
    await page.getByRole('button', { name: /Switch to (dark|light) theme/ }).click();
    expect(await dark()).toBe(!before);
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await dark()).toBe(!before);
    await page.getByTestId('kpi-value').first().waitFor();
    await expectAxeClean(page, `dashboard (${before ? 'light' : 'dark'})`);
    await a.context.close();
  });

  it('a customer (no manage_options) sees only "Become a vendor", no operator screen, and the API refuses the admin endpoints', async () => {
    const customer = await rig.shop.t.platform.auth.createUser({
      login: 'plain_customer',
      email: 'plain@example.test',
      role: 'customer',
      password: 'customer-password-1',
    });
    expect(customer.role).toBe('customer');
    const a = await openAdmin(rig);
    await loginAs(rig, a, { login: 'plain_customer', password: 'customer-password-1' });
    const { page } = a;
    await page.getByRole('heading', { level: 1, name: 'Become a vendor' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Admin' }).getByRole('link').allTextContents()).toEqual([
      'Become a vendor',
    ]);
    await expectAxeClean(page, 'customer: become a vendor');
    // an operator screen's URL typed by hand: not found for this user
    await page.goto(`${rig.shop.origin}/admin/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
    // The same session, asking the API directly with its nonce: 403.
    const status = await page.evaluate(async () => {
      const n = await (await fetch('/wp-json/rova/v1/auth/nonce')).json();
      return (await fetch('/wp-json/rova-rental/v1/dashboard/stats', { headers: { 'X-WP-Nonce': n.nonce } })).status;
    });
    expect(status).toBe(403);
    await a.context.close();
  });

  it('too many wrong passwords: the 429 message is shown', async () => {
    const a = await openAdmin(rig);
    const { page } = a;
    await page.goto(`${rig.shop.origin}/admin/login`);
    let text = '';
    for (let i = 0; i < 30 && !text.includes('Too many'); i++) {
      await page.getByLabel('Login or email').fill('nobody-here');
      await page.getByLabel('Password').fill(`wrong-${i}`);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').waitFor();
      await expect.poll(() => page.getByRole('button', { name: 'Log in' }).isEnabled()).toBe(true);
      text = (await page.getByRole('alert').textContent()) ?? '';
    }
    expect(text).toBe('Too many login attempts. Wait a few minutes and try again.');
    expect(visitorAddress()).toMatch(/^198\.1[89]\.\d{1,3}\.\d{1,3}$/);
    await a.context.close();
  });
});
