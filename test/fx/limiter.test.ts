// @integration: the convert limit is counted in Redis when REDIS_URL is set
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { FX } from './helpers.js';

const BODY = {
  code: 'rova_fx_rate_limited',
  message: 'Too many currency conversion requests. Please try again shortly.',
};

function poster(t: TestApp) {
  return (
    remoteAddress = '203.0.113.7',
    headers: Record<string, string> = {},
    payload: Record<string, unknown> = { product_ids: [] },
  ) => t.inject({ method: 'POST', url: `${FX}/convert`, payload, headers, remoteAddress });
}

describe('default limit: 120 per 60 s per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp();
  });
  afterAll(async () => t?.close());

  it('requests 1–120 pass, 121+ get 429 with Retry-After: 60 and the exact body, without no-store', async () => {
    const post = poster(t);
    for (let i = 1; i <= 120; i++) {
      const r = await post();
      if (r.statusCode !== 200) throw new Error(`request ${i} got ${r.statusCode}`);
    }
    for (let i = 0; i < 3; i++) {
      const r = await post();
      expect(r.statusCode).toBe(429);
      expect(r.headers['retry-after']).toBe('60');
      expect(r.headers['cache-control']).toBeUndefined();
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(r.json()).toEqual(BODY);
      expect(r.body).toBe(JSON.stringify(BODY));
    }
  });

  it('validation errors are answered before the limiter (even to a limited address) and cost nothing', async () => {
    const post = poster(t);
    const r = await post('203.0.113.7', {}, { currency: 'EUR' });
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('rest_missing_callback_param');
    const fresh = '203.0.113.99';
    for (let i = 0; i < 130; i++) await post(fresh, {}, { product_ids: 'x' });
    expect((await post(fresh)).statusCode).toBe(200);
  });

  it('other addresses have their own counters', async () => {
    expect((await poster(t)('198.51.100.4')).statusCode).toBe(200);
    expect((await poster(t)('2001:db8::1')).statusCode).toBe(200);
  });

  it('forged forwarded headers without TRUST_PROXY do not create buckets', async () => {
    const post = poster(t);
    const addr = '192.0.2.10';
    for (let i = 1; i <= 120; i++) {
      const r = await post(addr, {
        'x-forwarded-for': `10.0.${Math.floor(i / 250)}.${i % 250}`,
        'x-real-ip': 'not-an-ip',
        'cf-connecting-ip': `10.9.9.${i}`,
      });
      expect(r.statusCode).toBe(200);
    }
    expect((await post(addr, { 'x-forwarded-for': '10.77.0.1' })).statusCode).toBe(429);
  });
});

describe('short window, filter and trusted proxies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp({ env: { FX_CONVERT_RATE_LIMIT: '3', FX_CONVERT_RATE_WINDOW: '1', TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => t?.close());

  it('the window expires', async () => {
    const post = poster(t);
    for (let i = 0; i < 3; i++) expect((await post('203.0.113.20')).statusCode).toBe(200);
    const limited = await post('203.0.113.20');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    await new Promise((r) => setTimeout(r, 1100));
    expect((await post('203.0.113.20')).statusCode).toBe(200);
  });

  it('the filter can raise the limit, change the window, or switch limiting off', async () => {
    const post = poster(t);
    const seen: unknown[] = [];
    const remove = t.platform.filters.add('rova_fx_convert_rate_limit', (cur, req) => {
      seen.push({ cur, url: req.url });
      return { limit: 5, window: 30 };
    });
    try {
      for (let i = 0; i < 5; i++) expect((await post('203.0.113.30')).statusCode).toBe(200);
      const r = await post('203.0.113.30');
      expect(r.statusCode).toBe(429);
      expect(r.headers['retry-after']).toBe('30');
      expect(seen[0]).toEqual({ cur: { limit: 3, window: 1 }, url: `${FX}/convert` });
    } finally {
      remove();
    }
    const off = t.platform.filters.add('rova_fx_convert_rate_limit', () => ({ limit: 0, window: 60 }));
    try {
      for (let i = 0; i < 20; i++) expect((await post('203.0.113.31')).statusCode).toBe(200);
    } finally {
      off();
    }
    const offWindow = t.platform.filters.add('rova_fx_convert_rate_limit', (cur) => ({ ...cur, window: 0 }));
    try {
      for (let i = 0; i < 10; i++) expect((await post('203.0.113.32')).statusCode).toBe(200);
    } finally {
      offWindow();
    }
  });

  it('behind a trusted proxy each forwarded address has its own bucket; a non-IP value never creates one', async () => {
    const post = poster(t);
    for (let i = 0; i < 3; i++)
      expect((await post('127.0.0.1', { 'x-forwarded-for': '198.51.100.1' })).statusCode).toBe(200);
    expect((await post('127.0.0.1', { 'x-forwarded-for': '198.51.100.1' })).statusCode).toBe(429);
    expect((await post('127.0.0.1', { 'x-forwarded-for': '198.51.100.2' })).statusCode).toBe(200);
    // Non-IP forwarded values all fall back to the proxy's own address: one shared bucket.
    const codes: number[] = [];
    for (const v of ['not-an-ip', '<script>', 'evil', 'x.y.z.w'])
      codes.push((await post('127.0.0.1', { 'x-forwarded-for': v })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
  });
});

describe('configuration', () => {
  it('an invalid FX_CONVERT_RATE_LIMIT fails at start with a clear message', async () => {
    await expect(makeApp({ env: { FX_CONVERT_RATE_LIMIT: 'lots' } })).rejects.toThrow(
      /FX_CONVERT_RATE_LIMIT must be an integer/,
    );
  });
});
