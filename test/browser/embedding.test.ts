import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCachingProxy } from './caching-proxy.js';
import { SCREENSHOTS, useBrowserShop } from './fixture.js';
import { httpsMirror, markers, normalise, saveSettings, serverPrices, settle } from './harness.js';

// Switcher (keyboard, ARIA listbox), https cookies, a storefront on another origin, a shared cache in front of
// the demo shop, and the product widget — in real Chromium against the real app.
const t = useBrowserShop();

describe('switcher', () => {
  it('keyboard: open, arrows, Home/End, Enter re-prices in place without reload; base restores base HTML', async () => {
    const v = await t.newVisit();
    await v.page.goto(`${t.shop.origin}/demo/shop`);
    await settle(v.page);
    await v.page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    const button = v.page.locator('.rova-fx-switcher .rova-fx-selected');
    const list = v.page.locator('.rova-fx-switcher [role=listbox]');
    expect(await button.getAttribute('aria-haspopup')).toBe('listbox');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    const options = await v.page.$$eval('.rova-fx-switcher [role=option]', (els) =>
      els.map((e) => e.getAttribute('data-currency')),
    );
    expect(options).toEqual(['USD', 'EUR', 'GBP', 'JPY', 'TRY']);
    const selectedFlags = (): Promise<(string | null)[]> =>
      v.page.$$eval('.rova-fx-switcher [role=option]', (els) => els.map((e) => e.getAttribute('aria-selected')));
    expect(await selectedFlags()).toEqual(['true', 'false', 'false', 'false', 'false']);
    // Label parts from the default settings: flag, symbol, code (no name).
    const eurOption = v.page.locator('.rova-fx-switcher [role=option][data-currency=EUR]');
    expect(await eurOption.locator('.rova-fx-flag').textContent()).toBe('🇪🇺');
    expect(await eurOption.locator('.rova-fx-flag').getAttribute('aria-hidden')).toBe('true');
    expect(await eurOption.locator('.rova-fx-label').textContent()).toBe('€ EUR');
    expect(await button.getAttribute('aria-controls')).toBe(await list.getAttribute('id'));
    expect(await list.getAttribute('aria-label')).toBe('Currency');
    expect(await list.isHidden()).toBe(true);

    await button.focus();
    await v.page.keyboard.press('ArrowDown');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await list.isVisible()).toBe(true);
    await expect.poll(() => v.page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('listbox');
    const optionId = (code: string): Promise<string | null> =>
      v.page.locator(`[role=option][data-currency=${code}]`).getAttribute('id');
    // Opened on the selected option (the base); ↓ moves the active descendant.
    expect(await list.getAttribute('aria-activedescendant')).toBe(await optionId('USD'));
    await v.page.keyboard.press('ArrowDown');
    expect(await list.getAttribute('aria-activedescendant')).toBe(await optionId('EUR'));
    await v.page.keyboard.press('ArrowUp');
    expect(await list.getAttribute('aria-activedescendant')).toBe(await optionId('USD'));
    await v.page.keyboard.press('Escape');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await list.isHidden()).toBe(true);
    expect(await v.page.evaluate(() => document.activeElement?.className)).toBe('rova-fx-selected');
    expect(v.calls).toHaveLength(0);
    expect(await v.context.cookies()).toEqual([]);

    await v.page.keyboard.press('Enter');
    await v.page.keyboard.press('End');
    expect(await list.getAttribute('aria-activedescendant')).toBe(
      await v.page.locator('[role=option][data-currency=TRY]').getAttribute('id'),
    );
    await v.page.keyboard.press('Home');
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('Enter');
    await settle(v.page);
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(v.calls.map((c) => c.body.currency)).toEqual(['EUR']);
    await t.expectPricesIn(v.page, 'EUR');
    const [cookie] = await v.context.cookies();
    expect(cookie).toMatchObject({
      name: 'rova_fx_currency',
      value: 'EUR',
      path: '/',
      sameSite: 'Lax',
      secure: false,
      httpOnly: false,
    });
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(await selectedFlags()).toEqual(['false', 'true', 'false', 'false', 'false']);
    expect(await button.textContent()).toContain('EUR');
    expect(await v.page.evaluate(() => document.activeElement?.className)).toBe('rova-fx-selected');

    // Type-ahead "G" → GBP, Space picks.
    await button.focus();
    await v.page.keyboard.press('Space');
    await v.page.keyboard.press('g');
    await v.page.keyboard.press('Space');
    await settle(v.page);
    expect(v.calls.map((c) => c.body.currency)).toEqual(['EUR', 'GBP']);
    await t.expectPricesIn(v.page, 'GBP');

    // Back to the base: the page's own HTML, no request.
    await button.focus();
    await v.page.keyboard.press('ArrowDown');
    await v.page.keyboard.press('Home');
    await v.page.keyboard.press('Enter');
    await settle(v.page);
    expect(v.calls).toHaveLength(2);
    await t.expectBasePrices(v.page);
    expect((await v.context.cookies()).map((c) => `${c.name}=${c.value}`)).toEqual(['rova_fx_currency=USD']);
    expect(await v.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });
});

describe('storefront on another origin (CORS_ORIGINS)', () => {
  it('absolute endpoint set before config.js; the cookie lives on the storefront origin; /convert answers with CORS', async () => {
    const endpoint = `${t.shop.origin}/wp-json/rova-fx/v1/convert`;
    t.storefront.html = `<!doctype html><html><head>
<script>window.rovaFx = { endpoint: ${JSON.stringify(endpoint)} };</script>
<script src="${t.shop.origin}/assets/rova-fx/config.js"></script>
<script src="${t.shop.origin}/assets/rova-fx/converter.js" defer></script></head><body>
${t.ids.map((id) => `<p><span class="rova-fx-price" data-rova-fx-product="${id}">$${id}.00</span></p>`).join('\n')}</body></html>`;
    // No extra headers (X-Forwarded-For): they would make Chromium preflight for a header the API does not allow.
    const v = await t.newVisit({ plain: true });
    await v.context.addCookies([{ name: 'rova_fx_currency', value: 'GBP', url: t.storefront.origin }]);
    const allowOrigin: (string | undefined)[] = [];
    v.page.on('response', (r) => {
      if (r.request().method() === 'POST' && r.url() === endpoint)
        allowOrigin.push(r.headers()['access-control-allow-origin']);
    });
    await v.page.goto(`${t.storefront.origin}/product-list`);
    await settle(v.page);
    expect(
      await v.page.evaluate(() => (window as unknown as { rovaFx: { endpoint: string; base: string } }).rovaFx),
    ).toMatchObject({ endpoint, base: 'USD' });
    expect(v.calls.map((c) => [c.body, c.status])).toEqual([[{ currency: 'GBP', product_ids: t.ids }, 200]]);
    expect(allowOrigin).toEqual([t.storefront.origin]);
    const gbp = await normalise(v.page, await serverPrices(t.shop.origin, 'GBP', t.ids));
    for (const m of await markers(v.page)) expect(m.html, `marker ${m.id}`).toBe(gbp[m.id]);
    expect(v.pageErrors).toEqual([]);
  });
});

describe('shared cache in front of the demo shop', () => {
  it('one cached page, two visitors, each sees their own currency; the second page came from the cache', async () => {
    const proxy = await startCachingProxy(t.shop.origin);
    try {
      const a = await t.newVisit({ cookie: 'EUR' });
      const ra = await a.page.goto(`${proxy.origin}/demo/shop`);
      await settle(a.page);
      const b = await t.newVisit({ cookie: 'JPY' });
      const rb = await b.page.goto(`${proxy.origin}/demo/shop`);
      await settle(b.page);
      expect(ra?.headers()['x-cache']).toBe('MISS');
      expect(rb?.headers()['x-cache']).toBe('HIT');
      expect(await rb?.text()).toBe(await ra?.text());
      expect(rb?.headers()['set-cookie']).toBeUndefined();
      expect(proxy.hits.filter((u) => u === '/demo/shop')).toHaveLength(1);
      expect(a.calls.map((c) => c.body.currency)).toEqual(['EUR']);
      expect(b.calls.map((c) => c.body.currency)).toEqual(['JPY']);
      await t.expectPricesIn(a.page, 'EUR');
      await t.expectPricesIn(b.page, 'JPY');
    } finally {
      await proxy.close();
    }
  });
});

describe('switcher on https', () => {
  it('the picked currency cookie is Secure', async () => {
    const v = await t.newVisit();
    const origin = await httpsMirror(v, t.shop);
    await v.page.goto(`${origin}/demo/shop`);
    await settle(v.page);
    await v.page.locator('.rova-fx-switcher .rova-fx-selected').focus();
    await v.page.keyboard.press('Enter');
    await v.page.keyboard.press('End');
    await v.page.keyboard.press('Enter');
    await settle(v.page);
    expect(v.calls.map((c) => [c.body.currency, c.status])).toEqual([['TRY', 200]]);
    await t.expectPricesIn(v.page, 'TRY');
    const cookies = await v.context.cookies(origin);
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({
      name: 'rova_fx_currency',
      value: 'TRY',
      path: '/',
      sameSite: 'Lax',
      secure: true,
      httpOnly: false,
    });
  });
});

describe('product widget', () => {
  beforeAll(async () =>
    saveSettings(t.shop, {
      product_widget: { enabled: true, show_flags: true, currencies: ['EUR', 'USD', 'GBP', 'JPY'] },
    }),
  );
  afterAll(async () => saveSettings(t.shop, { product_widget: { enabled: false } }));

  it('shows the product price in the configured currencies (base left out); the page price stays in the base', async () => {
    const v = await t.newVisit();
    await v.page.goto(`${t.shop.origin}/demo/shop/mileage-package`);
    await settle(v.page);
    const id = Number(await v.page.getAttribute('.rova-fx-widget', 'data-rova-fx-product'));
    expect(v.calls.map((c) => c.body).sort((a, b) => String(a.currency).localeCompare(String(b.currency)))).toEqual([
      { currency: 'EUR', product_ids: [id] },
      { currency: 'GBP', product_ids: [id] },
      { currency: 'JPY', product_ids: [id] },
    ]);
    const items = await v.page.$$eval('.rova-fx-widget .rova-fx-product-price', (els) =>
      els.map((e) => ({
        currency: e.getAttribute('data-currency'),
        html: e.querySelector('.rova-fx-amount')?.innerHTML,
        flag: e.querySelector('.rova-fx-flag')?.textContent,
      })),
    );
    const expected: { currency: string; html: string | undefined; flag: string }[] = [];
    for (const [code, flag] of [
      ['EUR', '🇪🇺'],
      ['GBP', '🇬🇧'],
      ['JPY', '🇯🇵'],
    ] as const) {
      const html = (await normalise(v.page, await serverPrices(t.shop.origin, code, [id])))[String(id)];
      expected.push({ currency: code, html, flag });
    }
    expect(items).toEqual(expected);
    const main = await v.page.$eval(`.price .rova-fx-price[data-rova-fx-product="${id}"]`, (e) => e.textContent);
    expect(main).toContain('$');
    await v.page.screenshot({ path: SCREENSHOTS + 'demo-product-widget.png', fullPage: false });
  });

  it('screenshot: switcher open on the shop page', async () => {
    const v = await t.newVisit({ cookie: 'GBP' });
    await v.page.goto(`${t.shop.origin}/demo/shop`);
    await settle(v.page);
    await v.page.locator('.rova-fx-switcher .rova-fx-selected').click();
    expect(await v.page.getAttribute('.rova-fx-switcher .rova-fx-selected', 'aria-expanded')).toBe('true');
    await v.page.keyboard.press('ArrowDown');
    await v.page.screenshot({
      path: SCREENSHOTS + 'demo-switcher-open.png',
      clip: { x: 0, y: 0, width: 1100, height: 420 },
    });
    await v.page.keyboard.press('Escape');
  });
});
