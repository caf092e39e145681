import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  launchChromium,
  markers,
  normalise,
  serverPrices,
  settle,
  startShop,
  startStorefrontOrigin,
  visit,
  type Shop,
  type StorefrontOrigin,
  type Visit,
} from './harness.js';

export const SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

type VisitOptions = Parameters<typeof visit> extends [unknown, unknown, ...infer R] ? R : never;

export interface BrowserShop {
  shop: Shop;
  /** A second origin, allowed by the shop's CORS_ORIGINS. */
  storefront: StorefrontOrigin;
  browser: Browser;
  /** Product ids of the demo shop's markers, in page order. */
  ids: number[];
  /** Marker id → the page's own (base-currency) HTML as Chromium serialises it, read with scripts disabled. */
  baseHtml: Record<string, string>;
  /** A new visitor (browser context), closed after the file. */
  newVisit(...args: VisitOptions): Promise<Visit>;
  /** Every marker shows exactly what POST /convert answers for its id in `currency`. */
  expectPricesIn(page: Page, currency: string): Promise<void>;
  /** Every marker shows its base HTML. */
  expectBasePrices(page: Page): Promise<void>;
  /** A same-origin page with `count` markers (real ids first, then ids that do not exist) and the converter. */
  syntheticPage(v: Visit, count: number, viaScript?: boolean): Promise<number[]>;
}

/**
 * Per test file: the real app with demo data on a real port (CORS_ORIGINS = a second local origin) and one
 * Chromium; everything is closed in afterAll (contexts, browser, servers), so no process is left behind.
 */
export function useBrowserShop(): BrowserShop {
  const open: Visit[] = [];
  const f = {
    ids: [] as number[],
    baseHtml: {} as Record<string, string>,
  } as BrowserShop;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    f.storefront = await startStorefrontOrigin();
    [f.shop, f.browser] = await Promise.all([startShop({ CORS_ORIGINS: f.storefront.origin }), launchChromium()]);
    const html = await (await fetch(`${f.shop.origin}/demo/shop`)).text();
    f.ids = [...new Set([...html.matchAll(/data-rova-fx-product="(\d+)"/g)].map((m) => Number(m[1])))];
    const plain = await f.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await plain.newPage();
      await page.goto(`${f.shop.origin}/demo/shop`);
      f.baseHtml = Object.fromEntries((await markers(page)).map((m) => [m.id, m.html]));
    } finally {
      await plain.close();
    }
  }, 120_000);

  afterAll(async () => {
    for (const v of open) await v.context.close().catch(() => undefined);
    await f.browser?.close();
    await f.shop?.close();
    await f.storefront?.close();
  });

  f.newVisit = async (...args) => {
    const v = await visit(f.browser, f.shop, ...args);
    open.push(v);
    return v;
  };

  f.expectPricesIn = async (page, currency) => {
    const expected = await normalise(page, await serverPrices(f.shop.origin, currency, f.ids));
    const shown = await markers(page);
    expect(shown.length).toBeGreaterThan(0);
    for (const m of shown) expect(m.html, `marker ${m.id}`).toBe(expected[m.id]);
  };

  f.expectBasePrices = async (page) => {
    const shown = await markers(page);
    expect(shown.length).toBeGreaterThan(0);
    for (const m of shown) expect(m.html, `marker ${m.id}`).toBe(f.baseHtml[m.id]);
  };

  f.syntheticPage = async (v, count, viaScript = false) => {
    const json = await (await fetch(`${f.shop.origin}/assets/rova-fx/config.json`)).text();
    const cfg = viaScript
      ? '<script src="/assets/rova-fx/config.js"></script>'
      : `<script type="application/json" id="rova-fx-config">${json}</script>`;
    const pageIds = [...f.ids];
    for (let n = 900_001; pageIds.length < count; n++) pageIds.push(n);
    pageIds.length = count;
    const body = `<!doctype html><html><head>${cfg}
<script src="/assets/rova-fx/converter.js" defer></script></head><body>
${pageIds.map((id) => `<p><span class="rova-fx-price" data-rova-fx-product="${id}">$${id}.00</span></p>`).join('\n')}</body></html>`;
    await v.page.route(`${f.shop.origin}/test/synthetic`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body }),
    );
    await v.page.goto(`${f.shop.origin}/test/synthetic`);
    await settle(v.page);
    return pageIds;
  };

  return f;
}
