import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page, type Request } from 'playwright-core';
import { seedDemo } from '../../src/app.js';
import { makeApp, type TestApp } from '../helpers/app.js';

export const CHROMIUM = process.env.ROVA_CHROMIUM ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface Shop {
  t: TestApp;
  origin: string;
  adminKey: string;
  close(): Promise<void>;
}

/** The real app with demo data, listening on a real port; loopback is a trusted proxy (X-Forwarded-For buckets). */
export async function startShop(env: Record<string, string> = {}): Promise<Shop> {
  const t = await makeApp({ env: { TRUST_PROXY: 'loopback', ...env } });
  await seedDemo(t.platform);
  const admin = await t.userWithKey('administrator');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return { t, origin: `http://127.0.0.1:${port}`, adminKey: admin.key, close: () => t.close() };
}

let visitor = 10;
/** A fresh visitor address (its own rate-limit bucket), sent as X-Forwarded-For by the browser. */
export function visitorAddress(): string {
  visitor += 1;
  return `203.0.113.${visitor}`;
}

export interface ConvertCall {
  body: { currency: string | null; product_ids: number[] };
  status: number | null;
  answer: { currency: string; detected: boolean; prices: Record<string, string> } | null;
}

export interface Visit {
  context: BrowserContext;
  page: Page;
  calls: ConvertCall[];
  console: ConsoleMessage[];
  pageErrors: Error[];
  /** Order in which the browser sent /convert requests and received their responses: `req#0`, `res#0`, … */
  events: string[];
}

/** A browser context (one visitor) recording every POST /convert and every console message. */
export async function visit(
  browser: Browser,
  shop: { origin: string },
  opts: { cookie?: string; headers?: Record<string, string>; reducedMotion?: 'reduce' | 'no-preference' } = {},
): Promise<Visit> {
  const context = await browser.newContext({
    extraHTTPHeaders: { 'X-Forwarded-For': visitorAddress(), ...(opts.headers ?? {}) },
    reducedMotion: opts.reducedMotion ?? 'no-preference',
    viewport: { width: 1100, height: 900 },
  });
  if (opts.cookie) await context.addCookies([{ name: 'rova_fx_currency', value: opts.cookie, url: shop.origin }]);
  const page = await context.newPage();
  const v: Visit = { context, page, calls: [], console: [], pageErrors: [], events: [] };
  const byRequest = new Map<Request, ConvertCall>();
  page.on('console', (m) => v.console.push(m));
  page.on('pageerror', (e) => v.pageErrors.push(e));
  page.on('request', (r) => {
    if (r.method() !== 'POST' || !r.url().endsWith('/rova-fx/v1/convert')) return;
    const call: ConvertCall = { body: r.postDataJSON() as ConvertCall['body'], status: null, answer: null };
    byRequest.set(r, call);
    v.events.push(`req#${v.calls.length}`);
    v.calls.push(call);
  });
  page.on('response', (res) => {
    const call = byRequest.get(res.request());
    if (call) v.events.push(`res#${v.calls.indexOf(call)}`);
  });
  page.on('requestfinished', async (r) => {
    const call = byRequest.get(r);
    const res = await r.response();
    if (!call || !res) return;
    call.status = res.status();
    if (res.ok()) call.answer = (await res.json()) as ConvertCall['answer'];
  });
  return v;
}

/** Waits until the network has been quiet for 500 ms (converter done, or proof it sent nothing). */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(150);
}

/** Marker id → innerHTML, in DOM order. */
export function markers(page: Page): Promise<{ id: string; html: string; style: string }[]> {
  return page.$$eval('.rova-fx-price[data-rova-fx-product]', (els) =>
    els.map((e) => ({ id: e.getAttribute('data-rova-fx-product') ?? '', html: e.innerHTML, style: (e as HTMLElement).style.cssText })),
  );
}

/** What the server answers for these ids in this currency (asked from Node, its own rate-limit bucket). */
export async function serverPrices(origin: string, currency: string, ids: number[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (let i = 0; i < ids.length; i += 50) {
    const res = await fetch(`${origin}/wp-json/rova-fx/v1/convert`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': visitorAddress() },
      body: JSON.stringify({ currency, product_ids: ids.slice(i, i + 50) }),
    });
    const body = (await res.json()) as { currency: string; prices: Record<string, string> };
    if (body.currency !== currency) throw new Error(`server answered ${body.currency} for ${currency}`);
    Object.assign(out, body.prices);
  }
  return out;
}

/** HTML as the browser serialises it (entities such as &ndash; come back as characters). */
export function normalise(page: Page, html: Record<string, string>): Promise<Record<string, string>> {
  return page.evaluate((h) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(h)) {
      const d = document.createElement('div');
      d.innerHTML = v;
      out[k] = d.innerHTML;
    }
    return out;
  }, html);
}

export async function saveSettings(shop: Shop, settings: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${shop.origin}/wp-json/rova-fx/v1/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-rova-api-key': shop.adminKey },
    body: JSON.stringify(settings),
  });
  if (res.status !== 200) throw new Error(`settings save failed: ${res.status} ${await res.text()}`);
}
