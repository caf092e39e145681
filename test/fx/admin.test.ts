import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { adminOf, FX, row, type Admin } from './helpers.js';

let t: TestApp;
let a: Admin;
beforeAll(async () => {
  t = await makeApp();
  a = await adminOf(t);
});
afterAll(async () => t?.close());

const DEFAULTS = {
  auto_detect: false,
  cache_compat: true,
  switcher: { show_flag: true, show_name: false, show_symbol: true, show_code: true, size: 'medium' },
  rate_update_interval: 'manual',
  rate_sources: ['exchangerate-api', 'ecb'],
  product_widget: { enabled: false, show_flags: true, currencies: [] },
};

describe('permissions', () => {
  it('anonymous → 401, customer → 403, shop manager → 200', async () => {
    expect((await t.inject({ method: 'GET', url: `${FX}/settings` })).statusCode).toBe(401);
    const c = await t.userWithKey('customer');
    const r = await t.inject({ method: 'GET', url: `${FX}/currencies`, headers: { 'x-rova-api-key': c.key } });
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('rest_forbidden');
    expect((await a.get('/settings')).statusCode).toBe(200);
  });
  it('GET /rates does not exist (404 rest_no_route); sync and preview do', async () => {
    const r = await t.inject({ method: 'GET', url: `${FX}/rates` });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ code: 'rest_no_route', message: expect.any(String), data: { status: 404 } });
    expect((await a.get('/rates')).statusCode).toBe(404);
    expect((await a.get('/rates/preview')).statusCode).toBe(200);
    expect((await t.inject({ method: 'POST', url: `${FX}/rates/sync` })).statusCode).toBe(401);
  });
  it('the namespace is listed in the REST index', async () => {
    const r = await t.inject({ method: 'GET', url: '/wp-json/' });
    expect(r.json().namespaces).toContain('rova-fx/v1');
  });
});

describe('settings', () => {
  it('GET returns the full object with defaults', async () => {
    const r = await a.get('/settings');
    expect(r.json()).toEqual(DEFAULTS);
  });
  it('POST refuses an unknown key (400 naming it, nothing saved), merges, corrects invalid values, reports the widget cap', async () => {
    const unknown = await a.post('/settings', { auto_detect: true, provider_api_key: 'secret' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): provider_api_key',
      data: { status: 400, params: { provider_api_key: 'unknown field "provider_api_key"' } },
    });
    expect((await a.get('/settings')).json()).toEqual(DEFAULTS);
    const r = await a.post('/settings', {
      auto_detect: true,
      switcher: { show_flag: false, size: '"><script>' },
      rate_update_interval: 'weekly',
      product_widget: { enabled: true, currencies: ['EUR', 'TRY', 'GBP', 'JPY', 'CHF', 'SEK', 'eur'] },
    });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.success).toBe(true);
    expect(body.settings).toEqual({
      ...DEFAULTS,
      auto_detect: true,
      switcher: { ...DEFAULTS.switcher, show_flag: false, size: 'medium' },
      product_widget: { enabled: true, show_flags: true, currencies: ['EUR', 'TRY', 'GBP', 'JPY', 'CHF'] },
    });
    expect(body.adjustments).toEqual([
      { code: '', field: 'product_widget.currencies', reason: 'widget_currencies_too_many', value: 5 },
    ]);
    expect(body.next_sync).toBeNull();
    expect(body.settings).not.toHaveProperty('provider_api_key');
    const again = await a.get('/settings');
    expect(again.json()).toEqual(body.settings);
    // restore
    await a.post('/settings', { auto_detect: false, switcher: {}, product_widget: {} });
  });
  it('a recurring interval has a next_sync', async () => {
    const before = Math.floor(Date.now() / 1000);
    try {
      const r = await a.post('/settings', { rate_update_interval: 'hourly' });
      expect(r.json().settings.rate_update_interval).toBe('hourly');
      expect(r.json().next_sync.time).toBeGreaterThanOrEqual(before);
      expect(new Date(r.json().next_sync.iso).getTime() / 1000).toBe(r.json().next_sync.time);
    } finally {
      const back = await a.post('/settings', { rate_update_interval: 'bogus' });
      expect(back.json().settings.rate_update_interval).toBe('manual');
      expect(back.json().next_sync).toBeNull();
    }
  });
  it('unknown rate sources → 400 and nothing saved; a known order is kept', async () => {
    const r = await a.post('/settings', { rate_sources: ['ecb', 'yahoo'], auto_detect: true });
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('rest_invalid_param');
    expect((await a.get('/settings')).json().auto_detect).toBe(false);
    const ok = await a.post('/settings', { rate_sources: ['file', 'ecb'] });
    expect(ok.json().settings.rate_sources).toEqual(['file', 'ecb']);
    await a.post('/settings', { rate_sources: ['exchangerate-api', 'ecb'] });
  });
  it('a body that is not an object → 400', async () => {
    const r = await t.inject({
      method: 'POST',
      url: `${FX}/settings`,
      headers: { 'x-rova-api-key': a.key, 'content-type': 'application/json' },
      payload: '[1]',
    });
    expect(r.statusCode).toBe(400);
  });
});

describe('currencies', () => {
  it('GET on a fresh store: base from STORE_CURRENCY, no rows, no sync', async () => {
    expect((await a.get('/currencies')).json()).toEqual({
      base_currency: 'USD',
      currencies: [],
      last_sync: null,
      next_sync: null,
      stale_rates: [],
    });
  });

  it('saves sanitised rows with defaults and reports adjustments', async () => {
    const r = await a.post('/currencies', {
      currencies: [
        row('EUR', 0.92, {
          fee: { type: 'percent', value: 2 },
          format: { symbol: '<script>€', thousand_sep: '.', decimal_sep: '.' },
        }),
        { code: 'JPY', enabled: true, rate: { type: 'AUTO', value: ' 150.5 ', updated_at: '-42' } },
        {
          code: 'KWD',
          enabled: false,
          rate: { value: 'abc' },
          rounding: { type: 'up', value: -1, subtract: 0.01 },
          format: { position: 'middle', decimals: 40 },
        },
        {
          code: 'GBP',
          enabled: 1,
          rate: { value: -2 },
          fee: { type: 'none', value: 5 },
          format: { decimals: 'abc', thousand_sep: ',;' },
        },
        { code: 'usd', enabled: true },
        { code: 'USD', enabled: true },
        { code: 'ZZZ', enabled: true },
        'junk',
      ],
    });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.success).toBe(true);
    expect(body.currencies.map((c: { code: string }) => c.code)).toEqual(['EUR', 'JPY', 'KWD', 'GBP']);
    const [eur, jpy, kwd, gbp] = body.currencies;
    expect(eur).toEqual({
      code: 'EUR',
      enabled: true,
      rate: { type: 'manual', value: 0.92, updated_at: null },
      fee: { type: 'percentage', value: 2 },
      rounding: { type: 'disabled', value: 0, subtract: 0 },
      format: { symbol: '€', position: 'left', decimals: 2, decimal_sep: '.', thousand_sep: '' },
    });
    expect(jpy.rate).toEqual({ type: 'auto', value: 150.5, updated_at: 42 });
    expect(jpy.format).toEqual({ symbol: '¥', position: 'left', decimals: 0, decimal_sep: '.', thousand_sep: ',' });
    expect(kwd.enabled).toBe(false);
    expect(kwd.rate.value).toBe(0);
    expect(kwd.rounding).toEqual({ type: 'up', value: 0, subtract: 0.01 });
    expect(kwd.format.decimals).toBe(4);
    expect(kwd.format.position).toBe('left');
    expect(gbp.enabled).toBe(true);
    expect(gbp.fee).toEqual({ type: 'none', value: 0 });
    expect(gbp.format.decimals).toBe(2);
    expect(gbp.format.thousand_sep).toBe(',');
    expect(body.adjustments).toEqual(
      expect.arrayContaining([
        { code: 'EUR', field: 'thousand_sep', reason: 'separators_equal', value: '' },
        { code: 'KWD', field: 'rate', reason: 'not_a_number', value: 0 },
        { code: 'KWD', field: 'rounding_value', reason: 'negative', value: 0 },
        { code: 'KWD', field: 'position', reason: 'position_invalid', value: 'left' },
        { code: 'KWD', field: 'decimals', reason: 'decimals_out_of_range', value: 4 },
        { code: 'GBP', field: 'rate', reason: 'negative', value: 0 },
        { code: 'GBP', field: 'decimals', reason: 'decimals_invalid', value: 2 },
        { code: 'GBP', field: 'thousand_sep', reason: 'separator_truncated', value: ',' },
      ]),
    );
    expect(body.adjustments).toHaveLength(8);
    const got = (await a.get('/currencies')).json();
    expect(got.currencies).toEqual(body.currencies);
    expect(got.base_currency).toBe('USD');
  });

  it('separator rules: complement, empty decimal, control characters, narrow no-break space', async () => {
    const r = await a.post('/currencies', {
      currencies: [
        row('EUR', 1, { format: { decimal_sep: '', thousand_sep: '.' } }),
        row('GBP', 1, { format: { decimal_sep: ',' } }),
        row('CHF', 1, { format: { thousand_sep: '.' } }),
        row('SEK', 1, { format: { thousand_sep: '\u202f', decimal_sep: '' } }),
        row('NOK', 1, { format: { thousand_sep: '\t', decimals: -3 } }),
      ],
    });
    const [eur, gbp, chf, sek, nok] = r.json().currencies;
    expect([eur.format.decimal_sep, eur.format.thousand_sep]).toEqual([',', '.']);
    expect([gbp.format.decimal_sep, gbp.format.thousand_sep]).toEqual([',', '']);
    expect([chf.format.decimal_sep, chf.format.thousand_sep]).toEqual([',', '.']);
    expect([sek.format.decimal_sep, sek.format.thousand_sep]).toEqual(['.', '\u202f']);
    expect([nok.format.thousand_sep, nok.format.decimals]).toEqual(['', 0]);
    expect(r.json().adjustments).toEqual([
      { code: 'EUR', field: 'decimal_sep', reason: 'decimal_sep_empty', value: ',' },
      { code: 'SEK', field: 'decimal_sep', reason: 'decimal_sep_empty', value: '.' },
      { code: 'NOK', field: 'decimals', reason: 'decimals_out_of_range', value: 0 },
      { code: 'NOK', field: 'thousand_sep', reason: 'separator_invalid', value: '' },
    ]);
  });

  it('rows not sent are removed', async () => {
    await a.post('/currencies', { currencies: [row('EUR', 0.9), row('GBP', 0.8)] });
    const r = await a.post('/currencies', { currencies: [row('GBP', 0.8)] });
    expect(r.json().currencies.map((c: { code: string }) => c.code)).toEqual(['GBP']);
    expect((await a.get('/currencies')).json().currencies.map((c: { code: string }) => c.code)).toEqual(['GBP']);
  });

  it('structural errors → 400 and nothing changes', async () => {
    const before = (await a.get('/currencies')).json();
    for (const payload of [
      {},
      { currencies: 'EUR' },
      { currencies: { code: 'EUR' } },
      { currencies: [row('EUR', 1), row('EUR', 2)] },
    ]) {
      const r = await a.post('/currencies', payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(['rest_invalid_param', 'rest_missing_callback_param']).toContain(r.json().code);
    }
    const many = Array.from({ length: 501 }, () => row('EUR', 1));
    const r = await a.post('/currencies', { currencies: many });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toMatch(/500/);
    expect((await a.get('/currencies')).json()).toEqual(before);
  });

  it('500 rows are accepted structurally (codes limited by ISO, so duplicates would fail first)', async () => {
    const codes = Intl.supportedValuesOf('currency')
      .filter((c) => c !== 'USD')
      .slice(0, 150);
    const r = await a.post('/currencies', { currencies: codes.map((c) => row(c, 1)) });
    expect(r.statusCode).toBe(200);
    expect(r.json().currencies).toHaveLength(150);
    await a.post('/currencies', { currencies: [] });
  });

  it('exactly 500 rows pass the cap (rows without an ISO code are dropped silently), 501 do not', async () => {
    const codes = Intl.supportedValuesOf('currency')
      .filter((c) => c !== 'USD')
      .slice(0, 100);
    const junk = (n: number) => Array.from({ length: n }, (_, i) => ({ code: `Q${i}`, enabled: true }));
    const ok = await a.post('/currencies', { currencies: [...codes.map((c) => row(c, 1)), ...junk(400)] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().currencies).toHaveLength(100);
    const over = await a.post('/currencies', { currencies: [...codes.map((c) => row(c, 1)), ...junk(401)] });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({
      code: 'rest_invalid_param',
      data: { status: 400, params: { currencies: 'At most 500 rows.' } },
    });
    expect((await a.get('/currencies')).json().currencies).toHaveLength(100);
    await a.post('/currencies', { currencies: [] });
  });

  it('non-finite numbers are reported as not_finite and stored as 0', async () => {
    const r = await a.post('/currencies', {
      currencies: [
        row('EUR', 0.9, {
          rate: { type: 'manual', value: '1e999' },
          fee: { type: 'fixed', value: '-1e400' },
          rounding: { type: 'up', value: '9e999' },
        }),
      ],
    });
    expect(r.statusCode).toBe(200);
    const [eur] = r.json().currencies;
    expect([eur.rate.value, eur.fee.value, eur.rounding.value]).toEqual([0, 0, 0]);
    expect(r.json().adjustments).toEqual([
      { code: 'EUR', field: 'fee', reason: 'not_finite', value: 0 },
      { code: 'EUR', field: 'rate', reason: 'not_finite', value: 0 },
      { code: 'EUR', field: 'rounding_value', reason: 'not_finite', value: 0 },
    ]);
    await a.post('/currencies', { currencies: [] });
  });
});

describe('rates preview', () => {
  it('GET and POST answer the same shape; POST saves nothing', async () => {
    await a.post('/currencies', { currencies: [row('EUR', 0.5)] });
    const stored = (await a.get('/currencies')).json();
    const post = await a.post('/rates/preview', {
      currencies: [
        row('EUR', 0.5),
        row('GBP', 0, { fee: { type: 'fixed', value: 2 } }),
        row('TRY', 30, { fee: { type: 'percentage', value: -100 } }),
        row('JPY', 150.456),
        row('KWD', 0.30712, { rounding: { type: 'nearest', value: 0.5, subtract: 0.01 } }),
      ],
    });
    expect(post.statusCode).toBe(200);
    expect(post.json()).toEqual({
      base_currency: 'USD',
      sample_amount: 100,
      rates: [
        {
          code: 'EUR',
          raw_rate: 0.5,
          effective_rate: 0.5,
          usable: true,
          sample_from: '$100.00',
          sample_to: '€50.00',
          rate_date: null,
          stale: false,
        },
        {
          code: 'GBP',
          raw_rate: 0,
          effective_rate: 2,
          usable: false,
          sample_from: '$100.00',
          sample_to: '',
          rate_date: null,
          stale: false,
        },
        {
          code: 'TRY',
          raw_rate: 30,
          effective_rate: 0,
          usable: false,
          sample_from: '$100.00',
          sample_to: '',
          rate_date: null,
          stale: false,
        },
        {
          code: 'JPY',
          raw_rate: 150.456,
          effective_rate: 150.456,
          usable: true,
          sample_from: '$100.00',
          sample_to: '¥15,046',
          rate_date: null,
          stale: false,
        },
        {
          code: 'KWD',
          raw_rate: 0.30712,
          effective_rate: 0.30712,
          usable: true,
          sample_from: '$100.00',
          sample_to: 'KWD30.490',
          rate_date: null,
          stale: false,
        },
      ],
    });
    expect((await a.get('/currencies')).json()).toEqual(stored);
    const get = await a.get('/rates/preview');
    expect(get.json()).toEqual({ base_currency: 'USD', sample_amount: 100, rates: [post.json().rates[0]] });
  });
  it('a foreign base_currency → 400; too many rows → 400', async () => {
    const r = await a.post('/rates/preview', { base_currency: 'JPY', currencies: [row('EUR', 0.5)] });
    expect(r.statusCode).toBe(400);
    const same = await a.post('/rates/preview', { base_currency: 'USD', currencies: [row('EUR', 0.5)] });
    expect(same.statusCode).toBe(200);
    expect((await a.post('/rates/preview', { base_currency: ' usd ', currencies: [row('EUR', 0.5)] })).statusCode).toBe(
      200,
    );
    for (const base_currency of [123, 'US', ['USD']]) {
      const bad = await a.post('/rates/preview', { base_currency, currencies: [row('EUR', 0.5)] });
      expect(bad.statusCode, JSON.stringify(base_currency)).toBe(400);
      expect(bad.json().data.params).toHaveProperty('base_currency');
    }
    const many = await a.post('/rates/preview', { currencies: Array.from({ length: 501 }, () => row('EUR', 1)) });
    expect(many.statusCode).toBe(400);
  });
});
