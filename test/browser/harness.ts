import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  type Page,
  type Request,
} from 'playwright-core';
import { makeApp, type TestApp } from '../helpers/app.js';

export const CHROMIUM = process.env.ROVA_CHROMIUM ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Shop {
  t: TestApp;
  origin: string;
  adminKey: string;
  close(): Promise<void>;
}

/**
 * The real app with demo data (`demo: false`: a fresh, empty installation), listening on a real port; loopback is a
 * trusted proxy (X-Forwarded-For buckets).
 */
export async function startShop(env: Record<string, string> = {}, opts: { demo?: boolean } = {}): Promise<Shop> {
  const t = await makeApp({ env: { TRUST_PROXY: 'loopback', ...env }, demo: opts.demo ?? true });
  const admin = await t.userWithKey('administrator');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return { t, origin: `http://127.0.0.1:${port}`, adminKey: admin.key, close: () => t.close() };
}

let visitor = 10;
/**
 * A fresh visitor address (its own rate-limit bucket), sent as X-Forwarded-For by the browser. From 198.18.0.0/15
 * (benchmarking, RFC 2544: 131,072 addresses): the browser files share one process (isolate: false), and past 255
 * visitors a /24 ran out — "203.0.113.256" is no address, so the server counted those visitors as 127.0.0.1, one
 * bucket, and the converter's tests met 429s.
 */
export function visitorAddress(): string {
  visitor += 1;
  return `198.${18 + (visitor >> 16)}.${(visitor >> 8) & 255}.${visitor & 255}`;
}

/** Requests in flight per page (including the recording of /convert answers) and the time of the last change. */
const activity = new WeakMap<Page, { inflight: number; last: number }>();

/**
 * Counts the page's requests in flight, for settle(). `begin`/`end` let a caller count work of its own that follows a
 * request (recording an answer) as activity too.
 */
export function trackActivity(page: Page): { begin(): void; end(): void } {
  const a = { inflight: 0, last: Date.now() };
  activity.set(page, a);
  const begin = (): void => {
    a.inflight += 1;
    a.last = Date.now();
  };
  const end = (): void => {
    a.inflight -= 1;
    a.last = Date.now();
  };
  page.on('request', begin);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  return { begin, end };
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
  opts: {
    cookie?: string;
    headers?: Record<string, string>;
    reducedMotion?: 'reduce' | 'no-preference';
    /** No extra request headers at all (cross-origin pages: Chromium would preflight for them). */
    plain?: boolean;
  } = {},
): Promise<Visit> {
  const context = await browser.newContext({
    extraHTTPHeaders: opts.plain ? {} : { 'X-Forwarded-For': visitorAddress(), ...(opts.headers ?? {}) },
    reducedMotion: opts.reducedMotion ?? 'no-preference',
    viewport: { width: 1100, height: 900 },
  });
  if (opts.cookie) await context.addCookies([{ name: 'rova_fx_currency', value: opts.cookie, url: shop.origin }]);
  const page = await context.newPage();
  const v: Visit = { context, page, calls: [], console: [], pageErrors: [], events: [] };
  const byRequest = new Map<Request, ConvertCall>();
  const { begin, end } = trackActivity(page);
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
  page.on('requestfinished', (r) => {
    const call = byRequest.get(r);
    if (!call) return;
    begin(); // recording the answer counts as activity: settle() returns only once it is stored
    void (async () => {
      try {
        const res = await r.response();
        if (!res) return;
        call.status = res.status();
        if (res.ok()) call.answer = (await res.json()) as ConvertCall['answer'];
      } finally {
        end();
      }
    })();
  });
  return v;
}

/**
 * Waits until the page has had no request in flight for `quietMs`, counted from the later of the last request
 * activity and this call (so a converter run that an action has only just scheduled is waited for, too).
 * Not `waitForLoadState('networkidle')`: that resolves at once after the first time a page went idle, so it
 * would not wait for requests caused by a key press or an inserted marker.
 */
export async function settle(page: Page, quietMs = 500): Promise<void> {
  await page.waitForLoadState('load');
  const a = activity.get(page);
  if (!a) throw new Error('settle(): page was not opened with visit() or trackActivity()');
  const start = Date.now();
  const deadline = start + 30_000;
  for (;;) {
    const now = Date.now();
    if (a.inflight <= 0 && now - Math.max(a.last, start) >= quietMs) return;
    if (now > deadline) throw new Error(`settle(): network not quiet after 30 s (${a.inflight} request(s) in flight)`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Marker id → innerHTML, in DOM order. */
export function markers(page: Page): Promise<{ id: string; html: string; style: string }[]> {
  return page.$$eval('.rova-fx-price[data-rova-fx-product]', (els) =>
    els.map((e) => ({
      id: e.getAttribute('data-rova-fx-product') ?? '',
      html: e.innerHTML,
      style: (e as HTMLElement).style.cssText,
    })),
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

export interface StorefrontOrigin {
  origin: string;
  /** The HTML served for every GET. */
  html: string;
  close(): Promise<void>;
}

/** A second origin (another port on loopback) serving one page: a storefront that embeds the scripts cross-origin. */
export async function startStorefrontOrigin(): Promise<StorefrontOrigin> {
  const site: StorefrontOrigin = { origin: '', html: '', close: async () => undefined };
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(site.html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  site.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return site;
}

/**
 * Serves the shop under `https://shop.test` for this visit (route interception forwards every request to the
 * real server), so the page is a secure context: cookies the scripts write must carry `Secure`.
 */
export async function httpsMirror(v: Visit, shop: { origin: string }): Promise<string> {
  const origin = 'https://shop.test';
  await v.page.route(`${origin}/**`, async (route) => {
    const u = new URL(route.request().url());
    const response = await route.fetch({ url: shop.origin + u.pathname + u.search });
    await route.fulfill({ response });
  });
  return origin;
}
