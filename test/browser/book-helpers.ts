import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { visitorAddress, type Shop } from './harness.js';

// Shared by the booking widget's browser tests (book*.test.ts): a visitor per test, keyboard helpers, axe, and a
// customer made through the widget's own forms.

export const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const WIDGET = 'div[data-rova-book]';
export const ACCOUNT = 'div[data-rova-book="account"]';
export const DIALOG = '[data-rova-book-dialog] dialog';
export const EVENTS = [
  'rova:ready',
  'rova:search',
  'rova:select',
  'rova:booking-created',
  'rova:paid',
  'rova:cancelled',
  'rova:changed',
  'rova:error',
  'rova:language',
];

export interface Tab {
  page: Page;
  context: BrowserContext;
  /** Every request the page sent, as "METHOD path". */
  requests: string[];
  /** CSP violations the page reported. */
  violations: () => Promise<string[]>;
  /** Host-page events the widget dispatched (type and detail), in order. */
  events: () => Promise<{ type: string; detail: Record<string, unknown> }[]>;
}

export interface OpenOptions {
  currencyCookie?: string;
  headers?: Record<string, string>;
  viewport?: { width: number; height: number };
  /** The visitor's time zone (IANA; default the machine's). */
  timezoneId?: string;
  /** Navigate there (default true); false: the page is opened blank, for routes to be set first. */
  go?: boolean;
}

/** A new visitor (browser context) on `path` of the shop (or a full URL: then no extra request headers, as a real cross-origin page). */
export function visitors(env: () => { shop: Shop; browser: Browser; contexts: BrowserContext[] }) {
  return async function open(path: string, opts: OpenOptions = {}): Promise<Tab> {
    const { shop, browser, contexts } = env();
    const cross = /^https?:/.test(path);
    const headers = cross ? {} : { 'X-Forwarded-For': visitorAddress(), ...opts.headers };
    const context = await browser.newContext({
      extraHTTPHeaders: headers,
      viewport: opts.viewport ?? { width: 1100, height: 900 },
      ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
    });
    contexts.push(context);
    if (opts.currencyCookie)
      await context.addCookies([{ name: 'rova_fx_currency', value: opts.currencyCookie, url: shop.origin }]);
    await context.addInitScript((types: string[]) => {
      const w = window as unknown as { __csp: string[]; __events: { type: string; detail: unknown }[] };
      w.__csp = [];
      w.__events = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
      for (const type of types)
        document.addEventListener(type, (e) => w.__events.push({ type, detail: (e as CustomEvent).detail as unknown }));
    }, EVENTS);
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
    if (opts.go !== false) await page.goto(cross ? path : shop.origin + path);
    return {
      page,
      context,
      requests,
      violations: () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp),
      events: () =>
        page.evaluate(
          () => (window as unknown as { __events: { type: string; detail: Record<string, unknown> }[] }).__events,
        ),
    };
  };
}

/** The accessible name of the focused element, looking through shadow roots. */
export function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    let a: Element | null = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    if (!(a instanceof HTMLElement)) return '';
    // a field's label starts with its words; a checkbox's label starts with the box, its words follow
    const label = a.closest('label');
    const words = label ? label.firstChild?.textContent?.trim() || label.textContent : null;
    return (a.getAttribute('aria-label') ?? words ?? a.textContent ?? '').trim();
  });
}

/** Presses Tab until the focused element's name matches (keyboard only: no clicks). */
export async function tabTo(page: Page, name: string | RegExp, max = 60): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const n = await focused(page);
    seen.push(n);
    if (typeof name === 'string' ? n === name : name.test(n)) return;
  }
  throw new Error(`Tab never reached ${String(name)}; focus went through: ${seen.join(' | ')}`);
}

/** axe-core (injected through the DevTools protocol, so the page's CSP does not block it): no serious or critical violation. */
export async function expectAxeClean(page: Page, label: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const w = window as unknown as {
      axe: {
        run(
          ctx: Document,
          o: object,
        ): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }>;
      };
    };
    const r = await w.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)),
    }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad, `${label}: axe violations\n${JSON.stringify(bad, null, 2)}`).toEqual([]);
}

/** The two widths: a laptop and a phone (name, width, height). */
export const SIZES: [string, number, number][] = [
  ['desktop', 1280, 900],
  ['phone', 375, 740],
];

/**
 * A new visitor on `/` at this size who clicks the landing page's link named `link` (no typed URL) and waits for the
 * page it leads to.
 */
export async function fromHome(
  open: ReturnType<typeof visitors>,
  size: { width: number; height: number },
  link = 'Demo rental page',
): Promise<Tab> {
  const tab = await open('/', { viewport: size });
  const a = tab.page.getByRole('link', { name: link, exact: true });
  const href = new URL((await a.getAttribute('href'))!, tab.page.url()).href;
  await a.click();
  await tab.page.waitForURL(href);
  return tab;
}

/** The page's scroll width and what sticks out sideways of the widget's box (`selector`: its mount element). */
export function overflow(page: Page, selector: string = WIDGET): Promise<{ page: number; out: string[] }> {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel)!.shadowRoot!;
    const box = root.querySelector('.root')!.getBoundingClientRect();
    const out = Array.from(root.querySelectorAll('.root *:not(option)'))
      .filter(
        (e) => e.getBoundingClientRect().right > box.right + 0.5 || e.getBoundingClientRect().left < box.left - 0.5,
      )
      .map((e) => e.tagName + (e.className ? '.' + String(e.className) : ''));
    return { page: document.documentElement.scrollWidth, out: [...new Set(out)] };
  }, selector);
}

/** At this width the page does not scroll sideways and nothing of the widget sticks out of its box. */
export async function expectFits(page: Page, width: number, label: string, selector: string = WIDGET): Promise<void> {
  const o = await overflow(page, selector);
  expect(o.out, `${label}: sticks out of the widget`).toEqual([]);
  expect(o.page, `${label}: the page scrolls sideways`).toBeLessThanOrEqual(width);
}

type Box = { x: number; y: number; width: number; height: number };

/** Whether two boxes share any area (a missing box, i.e. a hidden element, overlaps nothing). */
export function overlaps(a: Box | null, b: Box | null): boolean {
  if (!a || !b || a.width === 0 || a.height === 0 || b.width === 0 || b.height === 0) return false;
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

let n = 0;
export function customer(): { first: string; last: string; email: string; password: string } {
  n += 1;
  return {
    first: 'Ayşe',
    last: `Test${n}`,
    email: `book-e2e-${n}-${Date.now()}@example.com`,
    password: 'widget-pass-123',
  };
}

export type Customer = ReturnType<typeof customer>;

/**
 * The demo store's rental terms (src/modules/rental/seed/terms.ts): the review step shows them with a required box,
 * and a booking made through the API says the customer accepted them, as the widget does once the box is ticked.
 */
export const DEMO_TERMS_VERSION = '2026-11';
export const DEMO_TERMS_BOX = `I accept the rental terms (version ${DEMO_TERMS_VERSION}).`;
export const TERMS_ACCEPTED = { terms_accepted: true, terms_version: DEMO_TERMS_VERSION } as const;

/** Ticks the review step's terms box by its label, as a visitor does (it appears once the store's rules arrived). */
export async function acceptTerms(w: Locator): Promise<void> {
  await w.getByLabel(DEMO_TERMS_BOX).check();
}

/** Opens the widget's "register" tab, fills it in and sends it, as a visitor would. */
export async function register(w: Locator, c: Customer = customer()): Promise<Customer> {
  await w.locator('button[data-f=tab-register]').click();
  await w.locator('input[name=first_name]').fill(c.first);
  await w.locator('input[name=last_name]').fill(c.last);
  await w.locator('input[name=email]').fill(c.email);
  await w.locator('input[name=password]').fill(c.password);
  await w.locator('button[data-f=auth-submit]').click();
  return c;
}

/** Screenshot for the docs (docs/screenshots/<name>.png): written when missing or when ROVA_SCREENSHOTS=1. */
export async function readmeShot(page: Page, name: string): Promise<void> {
  const file = fileURLToPath(new URL(`../../docs/screenshots/${name}.png`, import.meta.url));
  if (existsSync(file) && process.env.ROVA_SCREENSHOTS !== '1') return;
  await page.screenshot({ path: file, fullPage: false });
}
