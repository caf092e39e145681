import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, useBrowserShop } from './fixture.js';
import { httpsMirror, markers, normalise, saveSettings, serverPrices, settle, visitorAddress } from './harness.js';

// The converter in real Chromium against the real app (design/currency.md §8): currency resolution, batching,
// detection, errors, late markers, reduced motion. Switcher, widget, embedding and caching: embedding.test.ts.
const t = useBrowserShop();

describe('demo shop + converter in Chromium', () => {
  it('base visitor (no cookie, auto-detect off): base prices, no request; screenshot USD', async () => {
    const v = await t.newVisit();
    await v.page.goto(`${t.shop.origin}/demo/shop`);
    await settle(v.page);
    expect(v.calls).toHaveLength(0);
    const shown = await markers(v.page);
    expect(shown.length).toBe(t.ids.length);
    expect(Object.fromEntries(shown.map((m) => [m.id, m.html]))).toEqual(t.baseHtml);
    expect(shown[0]?.html).toContain('$');
    await v.page.screenshot({ path: SCREENSHOTS + 'demo-shop-usd.png', fullPage: false });
  });

  it('cookie EUR: every marker shows the EUR price HTML from /convert; never a request for USD', async () => {
    const v = await t.newVisit({ cookie: 'EUR' });
    await v.page.goto(`${t.shop.origin}/demo/shop`);
    await settle(v.page);
    expect(v.calls).toHaveLength(1);
    expect(v.calls[0]?.body).toEqual({ currency: 'EUR', product_ids: t.ids });
    expect(v.calls[0]?.status).toBe(200);
    expect(v.calls.some((c) => c.body.currency === 'USD')).toBe(false);
    await t.expectPricesIn(v.page, 'EUR');
    expect(await v.page.textContent('.rova-fx-switcher .rova-fx-selected')).toContain('EUR');
    await v.page.screenshot({ path: SCREENSHOTS + 'demo-shop-eur.png', fullPage: false });
    const cookies = await v.context.cookies();
    expect(cookies.map((c) => `${c.name}=${c.value}`)).toEqual(['rova_fx_currency=EUR']);
  });

  it('cookie = base currency (USD): no request at all', async () => {
    const v = await t.newVisit({ cookie: 'USD' });
    await v.page.goto(`${t.shop.origin}/demo/shop`);
    await settle(v.page);
    expect(v.calls).toHaveLength(0);
    await t.expectBasePrices(v.page);
    // Markers added later: still the base, still no request.
    await v.page.evaluate((id) => {
      const p = document.createElement('p');
      p.innerHTML = `<span class="rova-fx-price" data-rova-fx-product="${id}">$1.00</span>`;
      document.body.append(p);
    }, t.ids[0]);
    await settle(v.page);
    expect(v.calls).toHaveLength(0);
    expect(await v.page.$eval('body > p:last-child .rova-fx-price', (e) => e.innerHTML)).toBe('$1.00');
  });

  it('a page with no markers sends nothing', async () => {
    const v = await t.newVisit({ cookie: 'EUR' });
    await t.syntheticPage(v, 0);
    expect(v.calls).toHaveLength(0);
  });

  it('120 markers: 3 batches of at most 50 t.ids, all in the cookie currency', async () => {
    const v = await t.newVisit({ cookie: 'GBP' });
    const pageIds = await t.syntheticPage(v, 120);
    expect(v.calls.map((c) => c.body.product_ids.length)).toEqual([50, 50, 20]);
    expect(v.calls.every((c) => c.body.currency === 'GBP')).toBe(true);
    expect(v.calls.flatMap((c) => c.body.product_ids)).toEqual(pageIds);
    const shown = await markers(v.page);
    const gbp = await normalise(v.page, await serverPrices(t.shop.origin, 'GBP', t.ids));
    for (const m of shown) expect(m.html).toBe(gbp[m.id] ?? `$${m.id}.00`);
  });

  it('embedding with config.js (window.rovaFx) instead of the inline JSON works the same', async () => {
    const v = await t.newVisit({ cookie: 'TRY' });
    const pageIds = await t.syntheticPage(v, 60, true);
    expect(v.calls.map((c) => [c.body.currency, c.body.product_ids.length])).toEqual([
      ['TRY', 50],
      ['TRY', 10],
    ]);
    expect(v.calls.flatMap((c) => c.body.product_ids)).toEqual(pageIds);
    const tr = await normalise(v.page, await serverPrices(t.shop.origin, 'TRY', t.ids));
    for (const m of await markers(v.page)) expect(m.html).toBe(tr[m.id] ?? `$${m.id}.00`);
  });

  it('explicit ?currency=EUR: converted, no cookie written', async () => {
    const v = await t.newVisit();
    await v.page.goto(`${t.shop.origin}/demo/shop?currency=EUR`);
    await settle(v.page);
    expect(v.calls.map((c) => c.body.currency)).toEqual(['EUR']);
    await t.expectPricesIn(v.page, 'EUR');
    expect(await v.context.cookies()).toEqual([]);
  });

  it('cookie beats ?currency=', async () => {
    const v = await t.newVisit({ cookie: 'JPY' });
    await v.page.goto(`${t.shop.origin}/demo/shop?currency=EUR`);
    await settle(v.page);
    expect(v.calls.map((c) => c.body.currency)).toEqual(['JPY']);
    await t.expectPricesIn(v.page, 'JPY');
  });

  it('429 from the server: base prices stay, no console error from the scripts, no page error', async () => {
    const address = visitorAddress();
    for (let i = 0; i < 120; i++) {
      const r = await fetch(`${t.shop.origin}/wp-json/rova-fx/v1/convert`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ currency: 'EUR', product_ids: [t.ids[0]] }),
      });
      expect(r.status).toBe(200);
    }
    const v = await t.newVisit({ cookie: 'EUR', headers: { 'X-Forwarded-For': address } });
    await v.page.goto(`${t.shop.origin}/demo/shop`);
    await settle(v.page);
    expect(v.calls.map((c) => c.status)).toEqual([429]);
    await t.expectBasePrices(v.page);
    expect(v.pageErrors).toEqual([]);
    // Chromium itself logs "Failed to load resource: … 429" for any non-2xx fetch; the scripts log only console.debug.
    const errors = v.console.filter((m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource'));
    expect(errors.map((m) => m.text())).toEqual([]);
    expect(v.console.some((m) => m.type() === 'debug' && m.text().includes('base prices kept'))).toBe(true);
  });

  it('markers inserted later are priced once, and own writes never trigger another request', async () => {
    const v = await t.newVisit({ cookie: 'EUR' });
    await v.page.goto(`${t.shop.origin}/demo/shop`);
    await settle(v.page);
    expect(v.calls).toHaveLength(1);
    const late = [t.ids[2], t.ids[3]] as number[];
    await v.page.evaluate((l) => {
      const box = document.createElement('div');
      box.id = 'late';
      box.innerHTML =
        l.map((id) => `<span class="rova-fx-price" data-rova-fx-product="${id}">$0.00</span>`).join('') +
        `<span class="rova-fx-price" data-rova-fx-product="${l[0]}">$0.00</span>`;
      document.body.append(box);
      document.body.append(document.createElement('p')); // unrelated mutation
    }, late);
    await settle(v.page);
    expect(v.calls).toHaveLength(2);
    expect(v.calls[1]?.body).toEqual({ currency: 'EUR', product_ids: late });
    const eur = await normalise(v.page, await serverPrices(t.shop.origin, 'EUR', late));
    const lateShown = await v.page.$$eval('#late .rova-fx-price', (els) => els.map((e) => e.innerHTML));
    expect(lateShown).toEqual([eur[String(late[0])], eur[String(late[1])], eur[String(late[0])]]);
    await v.page.waitForTimeout(600);
    expect(v.calls).toHaveLength(2);
  });

  it('prefers-reduced-motion: prices are swapped without any transition', async () => {
    const v = await t.newVisit({ cookie: 'EUR', reducedMotion: 'reduce' });
    const styles: string[] = [];
    await v.page.exposeFunction('__recordStyle', (s: string) => styles.push(s));
    await v.page.addInitScript(() => {
      new MutationObserver((records) => {
        for (const r of records)
          if (r.attributeName === 'style')
            (window as unknown as { __recordStyle(s: string): void }).__recordStyle(
              (r.target as HTMLElement).style.cssText,
            );
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['style'] });
    });
    await v.page.goto(`${t.shop.origin}/demo/shop`);
    await settle(v.page);
    await t.expectPricesIn(v.page, 'EUR');
    expect(styles).toEqual([]);

    const w = await t.newVisit({ cookie: 'EUR' });
    const animated: string[] = [];
    await w.page.exposeFunction('__recordStyle', (s: string) => animated.push(s));
    await w.page.addInitScript(() => {
      new MutationObserver((records) => {
        for (const r of records)
          if (r.attributeName === 'style')
            (window as unknown as { __recordStyle(s: string): void }).__recordStyle(
              (r.target as HTMLElement).style.cssText,
            );
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['style'] });
    });
    await w.page.goto(`${t.shop.origin}/demo/shop`);
    await settle(w.page);
    expect(animated.some((s) => s.includes('transition'))).toBe(true);
  });
});

describe('auto-detect', () => {
  beforeAll(async () => saveSettings(t.shop, { auto_detect: true }));
  afterAll(async () => saveSettings(t.shop, { auto_detect: false }));

  it('trusted country header DE: first batch alone with currency null, rest in the detected EUR, cookie written', async () => {
    const v = await t.newVisit({ headers: { 'CF-IPCountry': 'DE' } });
    const pageIds = await t.syntheticPage(v, 120);
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

  it('on https the detected currency cookie is Secure (same attributes otherwise)', async () => {
    const v = await t.newVisit({ headers: { 'CF-IPCountry': 'DE' } });
    const origin = await httpsMirror(v, t.shop);
    await v.page.goto(`${origin}/demo/shop`);
    await settle(v.page);
    expect(v.calls.map((c) => [c.body.currency, c.status])).toEqual([[null, 200]]);
    expect(await v.page.evaluate(() => window.isSecureContext && location.protocol)).toBe('https:');
    await t.expectPricesIn(v.page, 'EUR');
    const cookies = await v.context.cookies(origin);
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({
      name: 'rova_fx_currency',
      value: 'EUR',
      domain: 'shop.test',
      path: '/',
      sameSite: 'Lax',
      secure: true,
      httpOnly: false,
    });
  });

  it('demo shop with a detected country: converted and remembered', async () => {
    const v = await t.newVisit({ headers: { 'CF-IPCountry': 'GB' } });
    await v.page.goto(`${t.shop.origin}/demo/shop`);
    await settle(v.page);
    expect(v.calls.map((c) => c.body.currency)).toEqual([null]);
    await t.expectPricesIn(v.page, 'GBP');
    expect((await v.context.cookies()).map((c) => `${c.name}=${c.value}`)).toEqual(['rova_fx_currency=GBP']);
    // Next page: the cookie now decides, an explicit request.
    await v.page.reload();
    await settle(v.page);
    expect(v.calls.map((c) => c.body.currency)).toEqual([null, 'GBP']);
  });

  it('detection finds nothing (XX): base prices, no cookie, no further batches', async () => {
    const v = await t.newVisit({ headers: { 'CF-IPCountry': 'XX' } });
    await t.syntheticPage(v, 120);
    expect(v.calls.map((c) => c.body.currency)).toEqual([null]);
    expect(v.calls[0]?.answer).toMatchObject({ currency: 'USD', detected: false });
    expect(await v.context.cookies()).toEqual([]);
  });

  it('explicit ?currency= with auto-detect on: no detect request, no cookie', async () => {
    const v = await t.newVisit({ headers: { 'CF-IPCountry': 'DE' } });
    await v.page.goto(`${t.shop.origin}/demo/shop?currency=TRY`);
    await settle(v.page);
    expect(v.calls.map((c) => c.body.currency)).toEqual(['TRY']);
    await t.expectPricesIn(v.page, 'TRY');
    expect(await v.context.cookies()).toEqual([]);
  });
});
