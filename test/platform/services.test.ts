// @integration: transients, the invalidation bus and the job leader lock have Redis and PostgreSQL implementations
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Filters } from '../../src/platform/hooks.js';
import { JobRunner } from '../../src/platform/jobs.js';
import { makeApp, type TestApp } from '../helpers/app.js';

declare module '../../src/platform/hooks.js' {
  interface FilterMap {
    test_filter: [value: number, label: string];
  }
}

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => t?.close());

describe('rate limiter', () => {
  it('counts per key in a fixed window and resets after it', async () => {
    const { limits } = t.platform;
    for (let i = 1; i <= 3; i++) expect((await limits.hit('t', 'a', 3, 1)).allowed).toBe(true);
    const fourth = await limits.hit('t', 'a', 3, 1);
    expect(fourth).toMatchObject({ allowed: false, count: 4, remaining: 0, limit: 3 });
    expect(fourth.resetMs).toBeGreaterThan(0);
    expect(fourth.resetMs).toBeLessThanOrEqual(1000);
    expect((await limits.hit('t', 'b', 3, 1)).allowed).toBe(true);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await limits.hit('t', 'a', 3, 1)).toMatchObject({ allowed: true, count: 1 });
  });
  it('takes the limit per call (filters may raise it without losing counts)', async () => {
    const { limits } = t.platform;
    for (let i = 0; i < 5; i++) await limits.hit('u', 'k', 5, 60);
    expect((await limits.hit('u', 'k', 5, 60)).allowed).toBe(false);
    expect(await limits.hit('u', 'k', 10, 60)).toMatchObject({ allowed: true, count: 7, remaining: 3 });
  });
});

describe('transients', () => {
  it('stores with and without TTL, expires, deletes', async () => {
    const { transients } = t.platform;
    await transients.set('a', { x: 1 }, 1);
    await transients.set('b', [1, 2]);
    expect(await transients.get('a')).toEqual({ x: 1 });
    expect(await transients.get('b')).toEqual([1, 2]);
    await new Promise((r) => setTimeout(r, 1200));
    expect(await transients.get('a')).toBeUndefined();
    await transients.delete('b');
    expect(await transients.get('b')).toBeUndefined();
  });
});

describe('options and invalidation bus', () => {
  it('options are cached and a write from another app sharing the store invalidates them', async () => {
    await t.platform.options.set('store_thing', { v: 1 });
    expect(await t.platform.options.get('store_thing')).toEqual({ v: 1 });
    const seen: string[] = [];
    const off = t.platform.bus.subscribe('topic-x', (p) => seen.push(p));
    await t.platform.bus.publish('topic-x', 'hello');
    off();
    await t.platform.bus.publish('topic-x', 'after-off');
    expect(seen).toEqual(['hello']);
  });
});

describe('filters', () => {
  it('apply in priority order and can be removed', () => {
    const f = new Filters();
    expect(f.apply('test_filter', 1, 'x')).toBe(1);
    const off = f.add('test_filter', (v) => v * 10, 20);
    f.add('test_filter', (v, label) => v + label.length, 5);
    expect(f.apply('test_filter', 1, 'abc')).toBe(40);
    off();
    expect(f.apply('test_filter', 1, 'abc')).toBe(4);
  });
});

describe('job leader lease', () => {
  it('only one runner holds a lease until it expires', async () => {
    const a = new JobRunner(t.platform.db, t.platform.log);
    const b = new JobRunner(t.platform.db, t.platform.log);
    expect(await a.acquireLease('lease-test', 500)).toBe(true);
    expect(await b.acquireLease('lease-test', 500)).toBe(false);
    expect(await a.acquireLease('lease-test', 500)).toBe(true);
    await new Promise((r) => setTimeout(r, 600));
    expect(await b.acquireLease('lease-test', 500)).toBe(true);
    expect(await a.acquireLease('lease-test', 500)).toBe(false);
  });
});

describe('ROVA_EXTENSIONS', () => {
  it('loads a module that registers filters, and refuses a missing file', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = mkdtempSync(path.join(tmpdir(), 'rova-ext-'));
    const file = path.join(dir, 'ext.mjs');
    writeFileSync(file, "export default (p) => { p.filters.add('test_filter', (v) => v + 100); };\n");
    const e = await makeApp({ env: { ROVA_EXTENSIONS: file } });
    try {
      expect(e.platform.filters.apply('test_filter', 1, 'x')).toBe(101);
    } finally {
      await e.close();
    }
    await expect(makeApp({ env: { ROVA_EXTENSIONS: path.join(dir, 'missing.mjs') } })).rejects.toThrow(
      /ROVA_EXTENSIONS/,
    );
  });
});
