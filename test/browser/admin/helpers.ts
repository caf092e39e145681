import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ensureDemoAdmin } from '../../../src/platform/auth/demo-admin.js';
import { launchChromium, startShop, trackActivity, visitorAddress, type Shop } from '../harness.js';

export const ADMIN_PASSWORD = 'admin-e2e-password-1';
const root = path.resolve(import.meta.dirname, '../../..');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AdminRig {
  shop: Shop;
  browser: Browser;
  /** An API caller with the administrator's key (from Node: the test's own view of the truth). */
  api<T = unknown>(pathAndQuery: string, init?: RequestInit): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

/**
 * One server (demo data on PGlite, admin `admin` / ADMIN_PASSWORD) and one Chromium per test file; `demo: false`
 * starts an empty installation instead (only the admin user and the harness's API key).
 */
export async function startAdminRig(
  env: Record<string, string> = {},
  opts: { demo?: boolean } = {},
): Promise<AdminRig> {
  const shop = await startShop(env, opts);
  await ensureDemoAdmin(shop.t.platform, ADMIN_PASSWORD);
  const browser = await launchChromium();
  return {
    shop,
    browser,
    async api<T>(p: string, init: RequestInit = {}) {
      const res = await fetch(`${shop.origin}/wp-json${p}`, {
        ...init,
        headers: {
          'content-type': 'application/json',
          'x-rova-api-key': shop.adminKey,
          'x-forwarded-for': visitorAddress(),
          ...(init.headers ?? {}),
        },
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
    },
    async close() {
      await browser.close();
      await shop.close();
    },
  };
}

export const DESKTOP = { width: 1280, height: 900 };
export const MOBILE = { width: 390, height: 844 };

export interface AdminPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors; a test fails on any (checked by expectNoPageErrors). */
  errors: Error[];
}

/** A fresh browser context (own cookies, own rate-limit bucket) at the given viewport. */
export async function openAdmin(rig: AdminRig, viewport = DESKTOP): Promise<AdminPage> {
  const context = await rig.browser.newContext({
    viewport,
    locale: 'en-US',
    extraHTTPHeaders: { 'X-Forwarded-For': visitorAddress() },
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  const errors: Error[] = [];
  page.on('pageerror', (e) => errors.push(e));
  trackActivity(page); // settle(page) waits for the screen's queries
  return { context, page, errors };
}

/** Opens `/admin<path>`, logs in on the login page it lands on, and waits for the screen's heading. */
export async function loginAs(
  rig: AdminRig,
  a: AdminPage,
  opts: { path?: string; login?: string; password?: string } = {},
): Promise<void> {
  const { page } = a;
  await page.goto(`${rig.shop.origin}/admin${opts.path ?? '/'}`);
  await page.getByLabel('Login or email').fill(opts.login ?? 'admin');
  await page.getByLabel('Password').fill(opts.password ?? ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page
    .locator('main#main')
    .or(page.getByRole('heading', { name: 'No admin access' }))
    .first()
    .waitFor();
}

/** axe-core in the page: fails on any serious or critical violation (listing rule, impact and the first targets). */
export async function expectAxeClean(page: Page, label: string): Promise<void> {
  // injected through the DevTools protocol (as book-helpers.ts does): the admin app's CSP refuses inline script tags
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const w = window as unknown as {
      axe: {
        run(
          ctx: Document,
          o: object,
        ): Promise<{
          violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
        }>;
      };
    };
    const r = await w.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad, `${label}: axe violations\n${JSON.stringify(bad, null, 2)}`).toEqual([]);
}

/**
 * Screenshot for the docs: docs/screenshots/admin/<name>.png. Written when missing or when ROVA_SCREENSHOTS=1
 * (so an ordinary test run does not rewrite committed images whose demo dates move every day).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const file = path.join(root, 'docs/screenshots/admin', `${name}.png`);
  let exists = true;
  try {
    readFileSync(file);
  } catch {
    exists = false;
  }
  if (exists && process.env.ROVA_SCREENSHOTS !== '1') return;
  await page.screenshot({ path: file, fullPage: false, animations: 'disabled' });
}

export function expectNoPageErrors(a: AdminPage): void {
  expect(a.errors.map((e) => e.message)).toEqual([]);
}

export const usd = (n: number): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);

/** The rental envelope's data. */
export async function rental<T>(rig: AdminRig, p: string, init?: RequestInit): Promise<T> {
  const r = await rig.api<{ data: T }>(p, init);
  if (r.status >= 300) throw new Error(`${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}
