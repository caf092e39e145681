import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeptAnswers } from '../../src/platform/kept-answers.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { avail, vehicle } from '../rental/helpers.js';

describe('KeptAnswers: bounded by entries and by bytes', () => {
  const weigh = (_key: string, answer: string) => answer.length;

  it('beyond its entries the oldest kept goes first', () => {
    const kept = new KeptAnswers<string>(2, 1000, weigh);
    kept.keep('a', [], 'xx', 0);
    kept.keep('b', [], 'yyy', 0);
    kept.keep('c', [], 'z', 0);
    expect(kept.get('a', [], 1, 10)).toBeUndefined();
    expect(kept.get('b', [], 1, 10)).toBe('yyy');
    expect(kept.get('c', [], 1, 10)).toBe('z');
    expect(kept.size()).toEqual({ entries: 2, bytes: 4, maxEntries: 2, maxBytes: 1000 });
  });

  it('beyond its bytes the oldest go until the new one fits; one larger than all of them is not kept', () => {
    const kept = new KeptAnswers<string>(100, 10, weigh);
    kept.keep('a', [], 'aaaa', 0);
    kept.keep('b', [], 'bbbb', 0);
    kept.keep('c', [], 'cccc', 0);
    expect(kept.get('a', [], 1, 10)).toBeUndefined();
    expect(kept.size()).toMatchObject({ entries: 2, bytes: 8 });
    kept.keep('d', [], 'd'.repeat(11), 0);
    expect(kept.get('d', [], 1, 10)).toBeUndefined();
    expect(kept.size()).toMatchObject({ entries: 2, bytes: 8 });
    // a key kept again replaces its bytes, not adds to them
    kept.keep('b', [], 'bb', 0);
    expect(kept.size()).toMatchObject({ entries: 2, bytes: 6 });
    kept.clear();
    expect(kept.size()).toMatchObject({ entries: 0, bytes: 0 });
  });
});

describe('GET /metrics: each cache by entries and bytes, with its bounds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp({ env: { METRICS: 'public', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
  }, 240_000);
  afterAll(async () => t?.close());

  const series = async () => {
    const r = await t.inject({ method: 'GET', url: '/metrics' });
    expect(r.statusCode).toBe(200);
    const out = new Map<string, number>();
    for (const m of r.body.matchAll(/^(rova_cache_\w+\{[^}]*\}) (\S+)$/gm))
      out.set(m[1]!, m[2] === '+Inf' ? Infinity : Number(m[2]));
    return out;
  };

  it('an availability answer kept shows as one entry of availability_answers with its bytes', async () => {
    const vid = await vehicle(t, { price_per_day: '100.00' });
    const body = { vehicle_id: vid, pickup_date: '2031-03-02', return_date: '2031-03-05' };
    expect((await avail(t, body)).statusCode).toBe(200);
    const s = await series();
    expect(s.get('rova_cache_entries{cache="availability_answers"}')).toBe(1);
    expect(s.get('rova_cache_bytes{cache="availability_answers"}')).toBeGreaterThan(500);
    expect(s.get('rova_cache_limit{cache="availability_answers",of="entries"}')).toBe(5000);
    expect(s.get('rova_cache_limit{cache="availability_answers",of="bytes"}')).toBe(8 * 1024 * 1024);
    for (const cache of [
      'search_answers',
      'search_busy_windows',
      'search_prices',
      'quotes',
      'known_customers',
      'holding_index',
      'convert_answers',
    ]) {
      expect(s.get(`rova_cache_entries{cache="${cache}"}`), cache).toBeGreaterThanOrEqual(0);
      expect(s.get(`rova_cache_bytes{cache="${cache}"}`), cache).toBeGreaterThanOrEqual(0);
    }
    expect(s.get('rova_cache_limit{cache="holding_index",of="entries"}')).toBe(Infinity);
    // the quote of that answer is kept too
    expect(s.get('rova_cache_entries{cache="quotes"}')).toBeGreaterThanOrEqual(1);
  });
});
