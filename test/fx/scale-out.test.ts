// @integration: two nodes share limits and see rate changes through the Redis bus
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, TEST_PG, TEST_REDIS, type TestApp } from '../helpers/app.js';
import { adminOf, FX, product, row } from './helpers.js';

// Two nodes on one PostgreSQL database and one Redis: a change on one node reaches the other's in-memory view.
describe.skipIf(!TEST_PG || !TEST_REDIS)('two nodes (PostgreSQL + Redis)', () => {
  let n1: TestApp;
  let n2: TestApp;
  beforeAll(async () => {
    n1 = await makeApp({ env: { FX_CONVERT_RATE_LIMIT: '5' } });
    n2 = await makeApp({
      env: {
        DATABASE_URL: n1.config.databaseUrl!,
        REDIS_URL: n1.config.redisUrl!,
        REDIS_PREFIX: n1.config.redisPrefix,
        FX_CONVERT_RATE_LIMIT: '5',
      },
    });
  });
  afterAll(async () => {
    await n2?.close();
    await n1?.close();
  });

  it('a currency saved on node 1 is offered by node 2 within a second; the limit is shared', async () => {
    const a = await adminOf(n1);
    const convert = (t: TestApp, remoteAddress = '203.0.113.50') =>
      t.inject({ method: 'POST', url: `${FX}/convert`, payload: { currency: 'EUR', product_ids: [] }, remoteAddress });
    let poll = 0;
    expect((await convert(n2)).json().currency).toBe('USD');
    await a.post('/currencies', { currencies: [row('EUR', 2)] });
    const deadline = Date.now() + 1000;
    let seen = 'USD';
    while (Date.now() < deadline && seen !== 'EUR') {
      seen = (await convert(n2, `198.51.100.${++poll}`)).json().currency;
      if (seen !== 'EUR') await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toBe('EUR');
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await convert(i % 2 ? n1 : n2, '203.0.113.60')).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('a settings change on node 1 (auto_detect) reaches /convert on node 2 within a second', async () => {
    const a = await adminOf(n1);
    await a.post('/currencies', { currencies: [row('EUR', 2)] });
    let poll = 0;
    const detect = async () =>
      (
        await n2.inject({
          method: 'POST',
          url: `${FX}/convert`,
          payload: { product_ids: [] },
          headers: { 'cf-ipcountry': 'DE' },
          remoteAddress: `198.51.101.${++poll}`,
        })
      ).json();
    expect(await detect()).toEqual({ currency: 'USD', detected: false, prices: {} });
    await a.post('/settings', { auto_detect: true });
    const deadline = Date.now() + 1000;
    let seen = await detect();
    while (Date.now() < deadline && !seen.detected) {
      await new Promise((r) => setTimeout(r, 20));
      seen = await detect();
    }
    expect(seen).toEqual({ currency: 'EUR', detected: true, prices: {} });
    await a.post('/settings', { auto_detect: false });
  });

  it('answers node 2 keeps for a repeated batch follow a price edit and a rate change made on node 1', async () => {
    const a = await adminOf(n1, 'administrator');
    await a.post('/currencies', { currencies: [row('EUR', 2)] });
    const p = await product(n1, a.key, { name: 'Shared', regular_price: '10' });
    let poll = 0;
    const price = async () =>
      (
        await n2.inject({
          method: 'POST',
          url: `${FX}/convert`,
          payload: { currency: 'EUR', product_ids: [p] },
          remoteAddress: `198.51.102.${++poll}`,
        })
      ).json().prices[p] as string | undefined;
    const within = async (want: string) => {
      const deadline = Date.now() + 1000;
      let seen = await price();
      while (Date.now() < deadline && !seen?.includes(want)) {
        await new Promise((r) => setTimeout(r, 20));
        seen = await price();
      }
      return seen;
    };
    expect(await within('20.00')).toContain('20.00');
    expect(await price()).toContain('20.00'); // now served from node 2's answer cache
    const edit = await n1.inject({
      method: 'PUT',
      url: `/wp-json/wc/v3/products/${p}`,
      headers: { 'x-rova-api-key': a.key },
      payload: { regular_price: '11' },
    });
    expect(edit.statusCode).toBe(200);
    expect(await within('22.00')).toContain('22.00');
    await a.post('/currencies', { currencies: [row('EUR', 3)] });
    expect(await within('33.00')).toContain('33.00');
  });
});
