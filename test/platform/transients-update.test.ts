// @integration: atomic transient updates are a Redis transaction on Redis and a row lock on PostgreSQL
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { platformModule } from '../../src/platform/module.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ modules: [platformModule] });
}, 120_000);
afterAll(async () => t?.close());

describe('Transients.update (database or Redis, whichever the suite runs on)', () => {
  it('50 concurrent increments of one key: none lost', async () => {
    const tr = t.platform.transients;
    await Promise.all(Array.from({ length: 50 }, () => tr.update<number>('counter', (n) => (n ?? 0) + 1, 60)));
    expect(await tr.get<number>('counter')).toBe(50);
  });

  it('undefined deletes; a throwing updater changes nothing and releases the key', async () => {
    const tr = t.platform.transients;
    await tr.set('k', { a: 1 }, 60);
    await expect(
      tr.update('k', () => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await tr.get('k')).toEqual({ a: 1 });
    expect(
      await tr.update<{ a: number }>(
        'k',
        (v) => ({ a: (v?.a ?? 0) + 1 }),
        (v) => v.a * 10,
      ),
    ).toEqual({ a: 2 });
    expect(await tr.update('k', () => undefined)).toBeUndefined();
    expect(await tr.get('k')).toBeUndefined();
  });

  it('an expired value reads as missing', async () => {
    const tr = t.platform.transients;
    await tr.set('short', 5, 1);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await tr.update<number>('short', (n) => (n ?? 100) + 1, 60)).toBe(101);
  });
});
