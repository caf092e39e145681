import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VENDOR_LOGIN, DEMO_VENDOR_PASSWORD } from '../../../src/modules/rental/seed/marketplace.js';
import { ADMIN_PASSWORD, DESKTOP, expectAxeClean, openAdmin, startAdminRig, type AdminRig } from './helpers.js';

// Navigation crawler (design: Navigation tests). From the login page — the only URL typed — it clicks, as a person
// would, every link, tab and breadcrumb the app renders, depth first, returning with the browser's Back button: every
// page reached shows its h1 and real content (no skeleton left, no error state), the URL never repeats a segment,
// no console error, axe clean. For an administrator and for a vendor, at desktop and phone width. One server, one
// Chromium. Links to records (/bookings/42, /messages/7) are followed once per kind of page.

const PHONE = { width: 375, height: 740 };
let rig: AdminRig;
beforeAll(async () => {
  rig = await startAdminRig();
});
afterAll(async () => {
  await rig?.close();
});

interface Visit {
  url: string;
  heading: string;
}

/**
 * The planner keeps its scroll position in the address (`sx`, `sy`), replaced in place whenever a scroll stops —
 * including the one Playwright makes to bring a link into view before clicking it, which may land just before or just
 * after the crawler reads the address. A scroll position is not a page: the crawler leaves both out, also from a
 * `back=` address a link carries.
 */
const VIEW_STATE = ['sx', 'sy'];
function withoutViewState(u: URL): URL {
  for (const k of VIEW_STATE) u.searchParams.delete(k);
  const back = u.searchParams.get('back');
  if (back?.startsWith('/')) {
    const b = withoutViewState(new URL(back, u.origin));
    u.searchParams.set('back', b.pathname + b.search);
  }
  return u;
}

/** Same kind of page: ids → :id, query values that are numbers → :n (a tab's or filter's word is kept). */
function kindOf(url: string): string {
  const u = withoutViewState(new URL(url));
  const path = u.pathname.replace(/\/\d+(?=\/|$)/g, '/:id');
  const q = [...u.searchParams.entries()]
    .map(([k, v]) => `${k}=${/^\d+$/.test(v) ? ':n' : v}`)
    .sort()
    .join('&');
  return q ? `${path}?${q}` : path;
}

/** A page's address: path and query, without the planner's scroll position. */
function addressOf(url: string | URL): string {
  const u = withoutViewState(new URL(url));
  return u.pathname + u.search;
}

/** The page the browser shows. */
const here = (page: Page) => addressOf(page.url());

class Crawler {
  readonly seen = new Set<string>();
  readonly visits: Visit[] = [];
  readonly consoleErrors: string[] = [];

  private readonly inflight = new Set<unknown>();
  private lastActivity = Date.now();

  constructor(
    private readonly page: Page,
    private readonly label: string,
  ) {
    const busy = (start: boolean) => (r: unknown) => {
      if (start) this.inflight.add(r);
      else this.inflight.delete(r);
      this.lastActivity = Date.now();
    };
    page.on('request', busy(true));
    page.on('requestfinished', busy(false));
    page.on('requestfailed', busy(false));
    page.on('console', (m) => {
      if (m.type() === 'error') this.consoleErrors.push(`${here(page)}: ${m.text()}`);
    });
    page.on('pageerror', (e) => this.consoleErrors.push(`${here(page)}: ${e.message}`));
  }

  /**
   * Waits until the page has settled after a click: no request in flight for 300 ms (lazy screen chunks, API
   * calls) and the URL, the h1 and the skeletons unchanged across two looks (a redirect or a transition is over).
   */
  async settle(): Promise<void> {
    const { page } = this;
    const look = async () =>
      `${page.url()}|${await page.locator('main h1').allTextContents()}|${await page.locator('main .animate-pulse').count()}`;
    const until = Date.now() + 20_000;
    let before = await look();
    while (Date.now() < until) {
      await page.waitForTimeout(150);
      const now = await look();
      if (now === before && this.inflight.size === 0 && Date.now() - this.lastActivity >= 300) return;
      before = now;
    }
    throw new Error(`${this.label}: ${here(page)} never settled`);
  }

  /** The page as it stands: h1, real content, URL without repeated segments, axe clean. */
  async check(): Promise<string> {
    const { page } = this;
    await this.settle();
    const url = here(page);
    const segments = new URL(page.url()).pathname.split('/').filter(Boolean);
    expect(new Set(segments).size, `${this.label}: repeated URL segment in ${url}`).toBe(segments.length);
    expect(segments.length, `${this.label}: URL too deep: ${url}`).toBeLessThanOrEqual(4);
    const h1 = page.locator('main h1');
    await h1.first().waitFor({ timeout: 15_000 });
    // real content: every skeleton gone, no error state, more than the heading
    await expect
      .poll(() => page.locator('main .animate-pulse, main [role="status"] .sr-only').count(), {
        timeout: 15_000,
        message: `${this.label}: still loading at ${url}`,
      })
      .toBe(0);
    const heading = ((await h1.first().textContent()) ?? '').trim();
    expect(heading, `${this.label}: empty h1 at ${url}`).not.toBe('');
    expect(heading, `${this.label}: ${url}`).not.toBe('Not found');
    expect(
      await page
        .locator('main')
        .getByText(/^Could not load/)
        .count(),
      `${this.label}: error state at ${url}`,
    ).toBe(0);
    const text = ((await page.locator('main').innerText()) ?? '').replace(heading, '').trim();
    expect(text.length, `${this.label}: no content under "${heading}" at ${url}`).toBeGreaterThan(20);
    await expectAxeClean(page, `${this.label} ${url}`);
    this.visits.push({ url, heading });
    return heading;
  }

  /** Links under /admin the page renders (navigation, tabs as links, breadcrumbs, in-content links), one per href. */
  private async links(): Promise<string[]> {
    const hrefs = await this.page
      .locator('a[href^="/admin/"]:not([target]):not([download])')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    return [...new Set(hrefs)].filter((h) => !h.startsWith('/admin/login'));
  }

  private async clickLink(href: string): Promise<void> {
    const { page } = this;
    const all = page.locator(`a[href="${href}"]`);
    let target = all.filter({ visible: true }).first();
    if ((await target.count()) === 0) {
      // phone width: the navigation sits behind the Menu button
      const menu = page.getByRole('button', { name: 'Menu' });
      if (await menu.isVisible()) await menu.click();
      target = all.filter({ visible: true }).first();
    }
    await target.click();
  }

  /** Back to `url` with the browser's Back button (a screen may have pushed its own entries, e.g. a tab). */
  private async backTo(url: string): Promise<void> {
    for (let i = 0; i < 8 && here(this.page) !== url; i++) {
      await this.page.goBack();
      await this.settle();
    }
    expect(here(this.page), `${this.label}: Back did not return`).toBe(url);
  }

  /** Depth first from the current page. */
  async crawl(): Promise<void> {
    const { page } = this;
    const url = here(page);
    this.seen.add(kindOf(page.url()));
    await this.check();
    const found = await this.links();
    for (const href of found) {
      const to = new URL(href, page.url());
      const kind = kindOf(to.toString());
      if (this.seen.has(kind) || addressOf(to) === url) continue;
      await this.clickLink(href);
      await page.waitForURL((u) => addressOf(u) !== url);
      await this.settle();
      if (this.seen.has(kindOf(page.url()))) {
        // a redirect (e.g. /vendors → /vendors/applications) onto a page already seen
        this.seen.add(kind);
        await this.backTo(url);
        continue;
      }
      this.seen.add(kind);
      await this.crawl();
      await this.backTo(url);
    }
    // tabs (role=tab buttons): each one's panel, then back
    const tabs = await page.getByRole('tab', { selected: false }).allTextContents();
    for (const name of tabs) {
      await page.getByRole('tab', { name, exact: true }).click();
      await expect.poll(() => page.getByRole('tab', { name, exact: true }).getAttribute('aria-selected')).toBe('true');
      await this.settle();
      const kind = kindOf(page.url());
      if (!this.seen.has(kind)) {
        this.seen.add(kind);
        await this.check();
      }
    }
    if (here(page) !== url) await this.backTo(url);
  }
}

async function crawlAs(
  login: string,
  password: string,
  viewport: { width: number; height: number },
  label: string,
): Promise<Crawler> {
  const a = await openAdmin(rig, viewport);
  const { page } = a;
  await page.goto(`${rig.shop.origin}/admin/`);
  await page.getByLabel('Login or email').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.locator('main#main h1').first().waitFor();
  const c = new Crawler(page, label);
  await c.crawl();
  if (process.env.CRAWL_DEBUG) console.log(label, JSON.stringify(c.visits, null, 1));
  expect(c.consoleErrors, `${label}: console errors`).toEqual([]);
  expect(a.errors.map((e) => e.message)).toEqual([]);
  await a.context.close();
  return c;
}

const OPERATOR = [
  'Dashboard',
  'Review',
  'Reports',
  'Bookings',
  'Customers',
  'Messages',
  'System',
  'Vehicles',
  'Locations',
  'Transfer routes',
  'Pricing rules',
  'Currency',
  'Catalogue',
  'Vendors',
  'Export',
];
const PORTAL = [
  'Vendor dashboard',
  'My vehicles',
  'Bookings on my vehicles',
  'Payouts',
  'My reports',
  'Vendor profile',
];

describe('navigation crawler (issue 22)', () => {
  for (const [vw, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`administrator, ${vw}: every link, tab and breadcrumb leads to a real page`, async () => {
      const c = await crawlAs('admin', ADMIN_PASSWORD, viewport, `admin ${vw}`);
      const headings = new Set(c.visits.map((v) => v.heading));
      for (const h of OPERATOR) expect(headings, `admin ${vw} reached ${h}`).toContain(h);
      for (const h of PORTAL.filter((x) => !OPERATOR.includes(x))) expect(headings).not.toContain(h);
      // the vendors screen's tabs and a record page behind a link were reached too
      expect(c.visits.map((v) => v.url)).toEqual(
        expect.arrayContaining(['/admin/vendors/list', '/admin/vendors/payouts', '/admin/vendors/reports']),
      );
      expect(c.visits.some((v) => /^\/admin\/bookings\/\d+$/.test(v.url))).toBe(true);
    }, 600_000);

    it(`vendor, ${vw}: the portal only, every page real`, async () => {
      const c = await crawlAs(DEMO_VENDOR_LOGIN, DEMO_VENDOR_PASSWORD, viewport, `vendor ${vw}`);
      expect([...new Set(c.visits.map((v) => v.heading))].sort()).toEqual([...PORTAL].sort());
      for (const v of c.visits) expect(v.url).toMatch(/^\/admin\/vendor\//);
    }, 300_000);
  }
});
