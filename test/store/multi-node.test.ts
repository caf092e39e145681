// @integration: two nodes keep one catalogue view through the Redis bus
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueView } from '../../src/modules/store/catalogue-view.js';
import { makeApp, TEST_PG, TEST_REDIS, type TestApp } from '../helpers/app.js';
import { client } from './helpers.js';

/** Two nodes on one PostgreSQL database and one Redis: a write on node A drops node B's catalogue view. */
describe.skipIf(!TEST_PG || !TEST_REDIS)('catalogue view across nodes', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await makeApp();
    b = await makeApp({
      env: { DATABASE_URL: a.config.databaseUrl!, REDIS_URL: a.config.redisUrl!, REDIS_PREFIX: a.config.redisPrefix },
    });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a write on one node invalidates the view on the other', async () => {
    const ca = client(a, (await a.userWithKey('administrator')).key);
    const id = (await ca.post('/products', { name: 'Shared', regular_price: '10' })).json().id as number;
    const view = catalogueView(b.platform);
    await view.load();
    expect(view.priceHtml(id, null)).toContain('10.00');
    await ca.patch(`/products/${id}`, { regular_price: '12' });
    await expect.poll(() => view.priceHtml(id, null), { timeout: 2000 }).toBeNull();
    await view.load();
    expect(view.priceHtml(id, null)).toContain('12.00');
  });
});
