import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { shopApi, type ShopApi } from './book-api.js';
import { visitors } from './book-helpers.js';
import { launchChromium, startShop, type Shop } from './harness.js';

// One booking-widget test file's shop: the real app with demo data on a real port and one Chromium, started before the
// file's tests and closed after them (every visitor's context, the browser, the shop, then what ran beside it).

/** A server the shop talks to (the Stripe stand-in): started first, closed last. */
export interface Companion {
  /** Starts it; answers what the shop's environment needs to reach it. */
  start(): Promise<Record<string, string>>;
  /** The shop listens. */
  started?(shop: Shop): void;
  close(): Promise<void>;
}

export interface BookShop {
  readonly shop: Shop;
  readonly browser: Browser;
  /** A new visitor (browser context) on a path of the shop; closed after the file. */
  open: ReturnType<typeof visitors>;
  /** The shop's REST API, called from Node. */
  api: ShopApi;
}

/** Registers the file's beforeAll/afterAll: the shop (with `env` on top of the test defaults) and Chromium. */
export function useBookShop(env: Record<string, string> = {}, companion?: Companion): BookShop {
  let shop: Shop | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const reach = companion ? await companion.start() : {};
    [shop, browser] = await Promise.all([startShop({ ...env, ...reach }), launchChromium()]);
    companion?.started?.(shop);
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await shop?.close();
    await companion?.close();
  });

  const up = (): { shop: Shop; browser: Browser } => {
    if (!shop || !browser) throw new Error('the shop starts in beforeAll');
    return { shop, browser };
  };
  return {
    get shop() {
      return up().shop;
    },
    get browser() {
      return up().browser;
    },
    open: visitors(() => ({ ...up(), contexts })),
    api: shopApi(() => up().shop),
  };
}
