import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCachingProxy } from './caching-proxy.js';
import { launchChromium, markers, normalise, saveSettings, serverPrices, settle, startShop, visit, visitorAddress, type Shop, type Visit } from './harness.js';

const SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

let shop: Shop;
let browser: Browser;
let baseHtml: Record<string, string>;
let ids: number[];

beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop(), launchChromium()]);
  const html = await (await fetch(`${shop.origin}/demo/shop`)).text();
  ids = [...new Set([...html.matchAll(/data-rova-fx-product="(\d+)"/g)].map((m) => Number(m[1])))];
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const open: Visit[] = [];
async function newVisit(...args: Parameters<typeof visit> extends [unknown, unknown, ...infer R] ? R : never): Promise<Visit> {
  const v = await visit(browser, shop, ...args);
  open.push(v);
  return v;
}
afterAll(async () => {
  for (const v of open) await v.context.close().catch(() => undefined);
});

async function expectPricesIn(page: Page, currency: string): Promise<void> {
  const expected = await normalise(page, await serverPrices(shop.origin, currency, ids));
  const shown = await markers(page);
  expect(shown.length).toBeGreaterThan(0);
  for (const m of shown) expect(m.html, `marker ${m.id}`).toBe(expected[m.id]);
}

async function expectBasePrices(page: Page): Promise<void> {
  const shown = await markers(page);
  expect(shown.length).toBeGreaterThan(0);
  for (const m of shown) expect(m.html, `marker ${m.id}`).toBe(baseHtml[m.id]);
}

/** A same-origin page with `count` markers (real ids first, then ids that do not exist) and the converter. */
async function syntheticPage(v: Visit, count: number, viaScript = false): Promise<number[]> {
  const json = await (await fetch(`${shop.origin}/assets/rova-fx/config.json`)).text();
  const cfg = viaScript
    ? '<script src="/assets/rova-fx/config.js"></script>'
    : `<script type="application/json" id="rova-fx-config">${json}</script>`;
  const pageIds = [...ids];
  for (let n = 900_001; pageIds.length < count; n++) pageIds.push(n);
  pageIds.length = count;
  const body = `<!doctype html><html><head>${cfg}
<script src="/assets/rova-fx/converter.js" defer></script></head><body>
${pageIds.map((id) => `<p><span class="rova-fx-price" data-rova-fx-product="${id}">$${id}.00</span></p>`).join('\n')}</body></html>`;
  await v.page.route(`${shop.origin}/test/synthetic`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body }));
  await v.page.goto(`${shop.origin}/test/synthetic`);
  await settle(v.page);
  return pageIds;
}

describe('demo shop + converter in Chromium', () => {
  it('base visitor (no cookie, auto-detect off): base prices, no request; screenshot USD', async () => {
    const v = await newVisit();
    await v.page.goto(`${shop.origin}/demo/shop`);
    await settle(v.page);
    expect(v.calls).toHaveLength(0);
    const shown = await markers(v.page);
    expect(shown.length).toBe(ids.length);
    baseHtml = Object.fromEntries(shown.map((m) => [m.id, m.html]));
    expect(shown[0]?.html).toContain('$');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await v.page.screenshot({ path: SCREENSHOTS + 'demo-shop-usd.png', fullPage: false });
  });

  it('cookie EUR: every marker shows the EUR price HTML from /convert; never a request for USD', async () => {
    const v = await newVisit({ cookie: 'EUR' });
    await v.page.goto(`${shop.origin}/demo/shop`);
    await settle(v.page);
    expect(v.calls).toHaveLength(1);
    expect(v.calls[0]?.body).toEqual({ currency: 'EUR', product_ids: ids });
    expect(v.calls[0]?.status).toBe(200);
    expect(v.calls.some((c) => c.body.currency === 'USD')).toBe(false);
    await expectPricesIn(v.page, 'EUR');
    expect(await v.page.textContent('.rova-fx-switcher .rova-fx-selected')).toContain('EUR');
    await v.page.screenshot({ path: SCREENSHOTS + 'demo-shop-eur.png', fullPage: false });
    const cookies = await v.context.cookies();
    expect(cookies.map((c) => `${c.name}=${c.value}`)).toEqual(['rova_fx_currency=EUR']);
  });

  it('cookie = base currency (USD): no request at all', async () => {
    const v = await newVisit({ cookie: 'USD' });
    await v.page.goto(`${shop.origin}/demo/shop`);
    await settle(v.page);
    expect(v.calls).toHaveLength(0);
    await expectBasePrices(v.page);
  });

  it('a page with no markers sends nothing', async () => {
    const v = await newVisit({ cookie: 'EUR' });
    await syntheticPage(v, 0);
    expect(v.calls).toHaveLength(0);
  });

  it('120 markers: 3 batches of at most 50 ids, all in the cookie currency', async () => {
    const v = await newVisit({ cookie: 'GBP' });
    const pageIds = await syntheticPage(v, 120);
    expect(v.calls.map((c) => c.body.product_ids.length)).toEqual([50, 50, 20]);
    expect(v.calls.every((c) => c.body.currency === 'GBP')).toBe(true);
    expect(v.calls.flatMap((c) => c.body.product_ids)).toEqual(pageIds);
    const shown = await markers(v.page);
    const gbp = await normalise(v.page, await serverPrices(shop.origin, 'GBP', ids));
    for (const m of shown) expect(m.html).toBe(gbp[m.id] ?? `$${m.id}.00`);
  });

  it('embedding with config.js (window.rovaFx) instead of the inline JSON works the same', async () => {
    const v = await newVisit({ cookie: 'TRY' });
    const pageIds = await syntheticPage(v, 60, true);
    expect(v.calls.map((c) => [c.body.currency, c.body.product_ids.length])).toEqual([
      ['TRY', 50],
      ['TRY', 10],
    ]);
    expect(v.calls.flatMap((c) => c.body.product_ids)).toEqual(pageIds);
    const tr = await normalise(v.page, await serverPrices(shop.origin, 'TRY', ids));
    for (const m of await markers(v.page)) expect(m.html).toBe(tr[m.id] ?? `$${m.id}.00`);
  });

  it('explicit ?currency=EUR: converted, no cookie written', async () => {
    const v = await newVisit();
    await v.page.goto(`${shop.origin}/demo/shop?currency=EUR`);
    await settle(v.page);
    expect(v.calls.map((c) => c.body.currency)).toEqual(['EUR']);
    await expectPricesIn(v.page, 'EUR');
    expect(await v.context.cookies()).toEqual([]);
  });

  it('cookie beats ?currency=', async () => {
    const v = await newVisit({ cookie: 'JPY' });
    await v.page.goto(`${shop.origin}/demo/shop?currency=EUR`);
    await settle(v.page);
    expect(v.calls.map((c) => c.body.currency)).toEqual(['JPY']);
    await expectPricesIn(v.page, 'JPY');
  });

  it('429 from the server: base prices stay, no console error from the scripts, no page error', async () => {
    const address = visitorAddress();
    for (let i = 0; i < 120; i++) {
      const r = await fetch(`${shop.origin}/wp-json/rova-fx/v1/convert`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ currency: 'EUR', product_ids: [ids[0]] }),
      });
      expect(r.status).toBe(200);
    }
    const v = await newVisit({ cookie: 'EUR', headers: { 'X-Forwarded-For': address } });
    await v.page.goto(`${shop.origin}/demo/shop`);
    await settle(v.page);
    expect(v.calls.map((c) => c.status)).toEqual([429]);
    await expectBasePrices(v.page);
    expect(v.pageErrors).toEqual([]);
    // Chromium itself logs "Failed to load resource: … 429" for any non-2xx fetch; the scripts log only console.debug.
    const errors = v.console.filter((m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource'));
    expect(errors.map((m) => m.text())).toEqual([]);
    expect(v.console.some((m) => m.type() === 'debug' && m.text().includes('base prices kept'))).toBe(true);
  });

  it('markers inserted later are priced once, and own writes never trigger another request', async () => {
    const v = await newVisit({ cookie: 'EUR' });
    await v.page.goto(`${shop.origin}/demo/shop`);
    await settle(v.page);
    expect(v.calls).toHaveLength(1);
    const late = [ids[2], ids[3]] as number[];
    await v.page.evaluate((l) => {
      const box = document.createElement('div');
      box.id = 'late';
      box.innerHTML = l.map((id) => `<span class="rova-fx-price" data-rova-fx-product="${id}">$0.00</span>`).join('') + `<span class="rova-fx-price" data-rova-fx-product="${l[0]}">$0.00</span>`;
      document.body.append(box);
      document.body.append(document.createElement('p')); // unrelated mutation
    }, late);
    await settle(v.page);
    expect(v.calls).toHaveLength(2);
    expect(v.calls[1]?.body).toEqual({ currency: 'EUR', product_ids: late });
    const eur = await normalise(v.page, await serverPrices(shop.origin, 'EUR', late));
    const lateShown = await v.page.$$eval('#late .rova-fx-price', (els) => els.map((e) => e.innerHTML));
    expect(lateShown).toEqual([eur[String(late[0])], eur[String(late[1])], eur[String(late[0])]]);
    await v.page.waitForTimeout(600);
    expect(v.calls).toHaveLength(2);
  });

  it('prefers-reduced-motion: prices are swapped without any transition', async () => {
    const v = await newVisit({ cookie: 'EUR', reducedMotion: 'reduce' });
    const styles: string[] = [];
    await v.page.exposeFunction('__recordStyle', (s: string) => styles.push(s));
    await v.page.addInitScript(() => {
      new MutationObserver((records) => {
        for (const r of records) if (r.attributeName === 'style') (window as unknown as { __recordStyle(s: string): void }).__recordStyle((r.target as HTMLElement).style.cssText);
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['style'] });
    });
    await v.page.goto(`${shop.origin}/demo/shop`);
    await settle(v.page);
    await expectPricesIn(v.page, 'EUR');
    expect(styles).toEqual([]);

    const w = await newVisit({ cookie: 'EUR' });
    const animated: string[] = [];
    await w.page.exposeFunction('__recordStyle', (s: string) => animated.push(s));
    await w.page.addInitScript(() => {
      new MutationObserver((records) => {
        for (const r of records) if (r.attributeName === 'style') (window as unknown as { __recordStyle(s: string): void }).__recordStyle((r.target as HTMLElement).style.cssText);
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['style'] });
    });
    await w.page.goto(`${shop.origin}/demo/shop`);
    await settle(w.page);
    expect(animated.some((s) => s.includes('transition'))).toBe(true);
  });
});

describe('auto-detect', () => {
  beforeAll(async () => saveSettings(shop, { auto_detect: true }));
  afterAll(async () => saveSettings(shop, { auto_detect: false }));

  it('trusted country header DE: first batch alone with currency null, rest in the detected EUR, cookie written', async () => {
    const v = await newVisit({ headers: { 'CF-IPCountry': 'DE' } });
    const pageIds = await syntheticPage(v, 120);
    expect(v.calls.map((c) => [c.body.currency, c.body.product_ids.length])).toEqual([
      [null, 50],
      ['EUR', 50],
      ['EUR', 20],
    ]);
    expect(v.calls[0]?.answer).toMatchObject({ currency: 'EUR', detected: true });
    // The detect batch went alone: its answer arrived before the next batch was sent.
    expect(v.events.slice(0, 2)).toEqual(['req#0', 'res#0']);
    expect(v.calls.flatMap((c) => c.body.product_ids)).toEqual(pageIds);
    const cookie = (await v.context.cookies()).find((c) => c.name === 'rova_fx_currency');
    expect(cookie).toMatchObject({ value: 'EUR', path: '/', sameSite: 'Lax', secure: false, httpOnly: false });
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it('demo shop with a detected country: converted and remembered', async () => {
    const v = await newVisit({ headers: { 'CF-IPCountry': 'GB' } });
    await v.page.goto(`${shop.origin}/demo/shop`);
    await settle(v.page);
    expect(v.calls.map((c) => c.body.currency)).toEqual([null]);
    await expectPricesIn(v.page, 'GBP');
    expect((await v.context.cookies()).map((c) => `${c.name}=${c.value}`)).toEqual(['rova_fx_currency=GBP']);
    // Next page: the cookie now decides, an explicit request.
    await v.page.reload();
    await settle(v.page);
    expect(v.calls.map((c) => c.body.currency)).toEqual([null, 'GBP']);
  });

  it('detection finds nothing (XX): base prices, no cookie, no further batches', async () => {
    const v = await newVisit({ headers: { 'CF-IPCountry': 'XX' } });
    await syntheticPage(v, 120);
    expect(v.calls.map((c) => c.body.currency)).toEqual([null]);
    expect(v.calls[0]?.answer).toMatchObject({ currency: 'USD', detected: false });
    expect(await v.context.cookies()).toEqual([]);
  });

  it('explicit ?currency= with auto-detect on: no detect request, no cookie', async () => {
    const v = await newVisit({ headers: { 'CF-IPCountry': 'DE' } });
    await v.page.goto(`${shop.origin}/demo/shop?currency=TRY`);
    await settle(v.page);
    expect(v.calls.map((c) => c.body.currency)).toEqual(['TRY']);
    await expectPricesIn(v.page, 'TRY');
    expect(await v.context.cookies()).toEqual([]);
  });
});

describe('switcher', () => {
  it('keyboard: open, arrows, Home/End, Enter re-prices in place without reload; base restores base HTML', async () => {
    const v = await newVisit();
    await v.page.goto(`${shop.origin}/demo/shop`);
    await settle(v.page);
    await v.page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    const button = v.page.locator('.rova-fx-switcher .rova-fx-selected');
    const list = v.page.locator('.rova-fx-switcher [role=listbox]');
    expect(await button.getAttribute('aria-haspopup')).toBe('listbox');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    const options = await v.page.$$eval('.rova-fx-switcher [role=option]', (els) => els.map((e) => e.getAttribute('data-currency')));
    expect(options).toEqual(['USD', 'EUR', 'GBP', 'JPY', 'TRY']);

    await button.focus();
    await v.page.keyboard.press('ArrowDown');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => v.page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('listbox');
    await v.page.keyboard.press('Escape');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await v.page.evaluate(() => document.activeElement?.className)).toBe('rova-fx-selected');

    await v.page.keyboard.press('Enter');
    await v.page.keyboard.press('End');
    expect(await list.getAttribute('aria-activedescendant')).toBe(await v.page.locator('[role=option][data-currency=TRY]').getAttribute('id'));
    await v.page.keyboard.press('Home');
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('Enter');
    await settle(v.page);
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(v.calls.map((c) => c.body.currency)).toEqual(['EUR']);
    await expectPricesIn(v.page, 'EUR');
    expect((await v.context.cookies()).map((c) => `${c.name}=${c.value}`)).toEqual(['rova_fx_currency=EUR']);
    expect(await v.page.getAttribute('[role=option][data-currency=EUR]', 'aria-selected')).toBe('true');
    expect(await button.textContent()).toContain('EUR');

    // Type-ahead "G" → GBP, Space picks.
    await button.focus();
    await v.page.keyboard.press('Space');
    await v.page.keyboard.press('g');
    await v.page.keyboard.press('Space');
    await settle(v.page);
    expect(v.calls.map((c) => c.body.currency)).toEqual(['EUR', 'GBP']);
    await expectPricesIn(v.page, 'GBP');

    // Back to the base: the page's own HTML, no request.
    await button.focus();
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('Home');
    await v.page.keyboard.press('Enter');
    await settle(v.page);
    expect(v.calls).toHaveLength(2);
    await expectBasePrices(v.page);
    expect((await v.context.cookies()).map((c) => `${c.name}=${c.value}`)).toEqual(['rova_fx_currency=USD']);
    expect(await v.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });
});

describe('shared cache in front of the demo shop', () => {
  it('one cached page, two visitors, each sees their own currency; the second page came from the cache', async () => {
    const proxy = await startCachingProxy(shop.origin);
    try {
      const a = await newVisit({ cookie: 'EUR' });
      const ra = await a.page.goto(`${proxy.origin}/demo/shop`);
      await settle(a.page);
      const b = await newVisit({ cookie: 'JPY' });
      const rb = await b.page.goto(`${proxy.origin}/demo/shop`);
      await settle(b.page);
      expect(ra?.headers()['x-cache']).toBe('MISS');
      expect(rb?.headers()['x-cache']).toBe('HIT');
      expect(await rb?.text()).toBe(await ra?.text());
      expect(rb?.headers()['set-cookie']).toBeUndefined();
      expect(proxy.hits.filter((u) => u === '/demo/shop')).toHaveLength(1);
      expect(a.calls.map((c) => c.body.currency)).toEqual(['EUR']);
      expect(b.calls.map((c) => c.body.currency)).toEqual(['JPY']);
      await expectPricesIn(a.page, 'EUR');
      await expectPricesIn(b.page, 'JPY');
    } finally {
      await proxy.close();
    }
  });
});

describe('product widget', () => {
  beforeAll(async () => saveSettings(shop, { product_widget: { enabled: true, show_flags: true, currencies: ['EUR', 'USD', 'GBP', 'JPY'] } }));
  afterAll(async () => saveSettings(shop, { product_widget: { enabled: false } }));

  it('shows the product price in the configured currencies (base left out); the page price stays in the base', async () => {
    const v = await newVisit();
    await v.page.goto(`${shop.origin}/demo/shop/mileage-package`);
    await settle(v.page);
    const id = Number(await v.page.getAttribute('.rova-fx-widget', 'data-rova-fx-product'));
    expect(v.calls.map((c) => c.body).sort((a, b) => String(a.currency).localeCompare(String(b.currency)))).toEqual([
      { currency: 'EUR', product_ids: [id] },
      { currency: 'GBP', product_ids: [id] },
      { currency: 'JPY', product_ids: [id] },
    ]);
    const items = await v.page.$$eval('.rova-fx-widget .rova-fx-product-price', (els) =>
      els.map((e) => ({ currency: e.getAttribute('data-currency'), html: e.querySelector('.rova-fx-amount')?.innerHTML, flag: e.querySelector('.rova-fx-flag')?.textContent })),
    );
    const expected: { currency: string; html: string | undefined; flag: string }[] = [];
    for (const [code, flag] of [['EUR', '🇪🇺'], ['GBP', '🇬🇧'], ['JPY', '🇯🇵']] as const) {
      const html = (await normalise(v.page, await serverPrices(shop.origin, code, [id])))[String(id)];
      expected.push({ currency: code, html, flag });
    }
    expect(items).toEqual(expected);
    const main = await v.page.$eval(`.price .rova-fx-price[data-rova-fx-product="${id}"]`, (e) => e.textContent);
    expect(main).toContain('$');
    await v.page.screenshot({ path: SCREENSHOTS + 'demo-product-widget.png', fullPage: false });
  });

  it('screenshot: switcher open on the shop page', async () => {
    const v = await newVisit({ cookie: 'GBP' });
    await v.page.goto(`${shop.origin}/demo/shop`);
    await settle(v.page);
    await v.page.locator('.rova-fx-switcher .rova-fx-selected').click();
    expect(await v.page.getAttribute('.rova-fx-switcher .rova-fx-selected', 'aria-expanded')).toBe('true');
    await v.page.keyboard.press('ArrowDown');
    await v.page.screenshot({ path: SCREENSHOTS + 'demo-switcher-open.png', clip: { x: 0, y: 0, width: 1100, height: 420 } });
    await v.page.keyboard.press('Escape');
  });
});
