// @integration: two nodes share limits and see rate changes through the Redis bus
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, TEST_PG, TEST_REDIS, type TestApp } from '../helpers/app.js';
import { adminOf, FX, row } from './helpers.js';

// Two nodes on one PostgreSQL database and one Redis: a change on one node reaches the other's in-memory view.
describe.skipIf(!TEST_PG || !TEST_REDIS)('two nodes (PostgreSQL + Redis)', () => {
  let n1: TestApp;
  let n2: TestApp;
  beforeAll(async () => {
    n1 = await makeApp({ env: { FX_CONVERT_RATE_LIMIT: '5' } });
    n2 = await makeApp({
      env: { DATABASE_URL: n1.config.databaseUrl!, REDIS_URL: n1.config.redisUrl!, REDIS_PREFIX: n1.config.redisPrefix, FX_CONVERT_RATE_LIMIT: '5' },
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
      (await n2.inject({ method: 'POST', url: `${FX}/convert`, payload: { product_ids: [] }, headers: { 'cf-ipcountry': 'DE' }, remoteAddress: `198.51.101.${++poll}` })).json();
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
});
