// @integration: per-key quotas are counted in Redis when REDIS_URL is set
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotasOf } from '../../src/platform/limits/quotas.js';
import { makeApp, type TestApp } from '../helpers/app.js';

const R = '/wp-json/rova/v1';
let t: TestApp;
let admin = '';
beforeAll(async () => {
  t = await makeApp();
  admin = (await t.userWithKey('administrator')).key;
}, 240_000);
afterAll(async () => t?.close());

const setPlan = (id: number, body: Record<string, unknown>) =>
  t.inject({ method: 'PUT', url: `${R}/api-keys/${id}/plan`, headers: { 'x-rova-api-key': admin }, payload: body });

describe('per-key quotas', () => {
  it('5/min: the 6th request → 429 with Retry-After, RateLimit-Policy and RateLimit, in the namespace error shape', async () => {
    const k = await t.userWithKey('customer', ['read']);
    const set = await setPlan(k.keyId, { name: 'tiny', requests_per_minute: 5 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({
      name: 'tiny',
      requests_per_minute: 5,
      requests_per_day: null,
      route_costs: {},
      counts: 'all',
    });
    for (let i = 1; i <= 5; i++) {
      const r = await t.inject({ method: 'GET', url: `${R}/auth/me`, headers: { 'x-rova-api-key': k.key } });
      expect(r.statusCode, `request ${i}`).toBe(200);
      expect(r.headers['ratelimit-policy']).toBe('"minute";q=5;w=60');
      expect(r.headers.ratelimit).toMatch(new RegExp(`^"minute";r=${5 - i};t=([1-9]|[1-5][0-9]|60)$`));
    }
    const over = await t.inject({ method: 'GET', url: `${R}/auth/me`, headers: { 'x-rova-api-key': k.key } });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({
      code: 'rest_rate_limited',
      message: expect.stringContaining('Quota'),
      data: { status: 429 },
    });
    expect(over.headers['ratelimit-policy']).toBe('"minute";q=5;w=60');
    expect(over.headers.ratelimit).toMatch(/^"minute";r=0;t=\d+$/);
    const retry = Number(over.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    // the rental namespace answers in its own shape
    const rental = await t.inject({
      method: 'GET',
      url: '/wp-json/rova-rental/v1/locations',
      headers: { 'x-rova-api-key': k.key },
    });
    expect(rental.statusCode).toBe(429);
    expect(rental.json()).toEqual({ success: false, error_code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String) });
    // a refused request costs nothing; usage shows the full window
    const usage = await t.inject({
      method: 'GET',
      url: `${R}/api-keys/${k.keyId}/usage`,
      headers: { 'x-rova-api-key': admin },
    });
    expect(usage.statusCode).toBe(200);
    expect(usage.json()).toMatchObject({
      api_key_id: k.keyId,
      plan: { name: 'tiny', counts: 'all' },
      windows: [{ policy: 'minute', limit: 5, used: 5, remaining: 0 }],
    });
  });

  it('weighted routes count their weight; the day window is enforced too', async () => {
    const k = await t.userWithKey('customer', ['read']);
    await setPlan(k.keyId, {
      requests_per_minute: 10,
      requests_per_day: 100,
      route_costs: { 'GET /rova/v1/auth/me': 3 },
    });
    for (let i = 1; i <= 3; i++) {
      const r = await t.inject({ method: 'GET', url: `${R}/auth/me`, headers: { 'x-rova-api-key': k.key } });
      expect(r.statusCode).toBe(200);
      expect(r.headers['ratelimit-policy']).toBe('"minute";q=10;w=60, "day";q=100;w=86400');
      expect(r.headers.ratelimit).toMatch(new RegExp(`^"minute";r=${10 - 3 * i};t=\\d+$`));
    }
    expect(
      (await t.inject({ method: 'GET', url: `${R}/auth/me`, headers: { 'x-rova-api-key': k.key } })).statusCode,
    ).toBe(429);
    // a cost-1 route still fits in the last unit
    expect(
      (await t.inject({ method: 'GET', url: `${R}/auth/sessions`, headers: { 'x-rova-api-key': k.key } })).statusCode,
    ).toBe(200);

    const d = await t.userWithKey('customer', ['read']);
    await setPlan(d.keyId, { requests_per_minute: 100, requests_per_day: 2 });
    for (let i = 0; i < 2; i++)
      expect(
        (await t.inject({ method: 'GET', url: `${R}/auth/me`, headers: { 'x-rova-api-key': d.key } })).statusCode,
      ).toBe(200);
    const over = await t.inject({ method: 'GET', url: `${R}/auth/me`, headers: { 'x-rova-api-key': d.key } });
    expect(over.statusCode).toBe(429);
    expect(over.headers.ratelimit).toMatch(/^"day";r=0;t=\d+$/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(60);
  });

  it('keys without a plan: the default plan (60 writes/min in rental) and headers on every answer', async () => {
    const k = await t.userWithKey('administrator');
    const r = await t.inject({ method: 'GET', url: `${R}/auth/me`, headers: { 'x-rova-api-key': k.key } });
    expect(r.headers['ratelimit-policy']).toBe('"minute";q=60;w=60');
    expect(r.headers.ratelimit).toBe('"minute";r=60;t=60');
    const w = await t.inject({
      method: 'PUT',
      url: '/wp-json/rova-rental/v1/customers/999999',
      headers: { 'x-rova-api-key': k.key },
      payload: { name: 'x' },
    });
    expect(w.statusCode).toBe(404);
    expect(w.headers.ratelimit).toMatch(/^"minute";r=59;t=\d+$/);
    const own = await t.inject({ method: 'GET', url: `${R}/api-keys/me/usage`, headers: { 'x-rova-api-key': k.key } });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({
      api_key_id: k.keyId,
      plan: { name: 'default', requests_per_minute: 60, counts: 'writes' },
      windows: [{ used: 1, remaining: 59 }],
    });
    // removing a plan falls back to the default
    await setPlan(k.keyId, { requests_per_minute: 7 });
    expect(
      (await t.inject({ method: 'GET', url: `${R}/auth/me`, headers: { 'x-rova-api-key': k.key } })).headers[
        'ratelimit-policy'
      ],
    ).toBe('"minute";q=7;w=60');
    const del = await t.inject({
      method: 'DELETE',
      url: `${R}/api-keys/${k.keyId}/plan`,
      headers: { 'x-rova-api-key': admin },
    });
    expect(del.json()).toMatchObject({ name: 'default', counts: 'writes' });
    await quotasOf(t.platform).reset(k.keyId);
  });

  it('bad plans → 400, unknown key → 404, non-admins → 403, usage of someone else → 403', async () => {
    const k = await t.userWithKey('customer');
    const bad = [
      { requests_per_minute: 0 },
      { requests_per_minute: 5, requests_per_day: -1 },
      { requests_per_minute: 5, route_costs: { 'FETCH /x': 2 } },
      { requests_per_minute: 5, route_costs: { 'GET /x': 0 } },
      { requests_per_minute: 5, extra: true },
    ];
    for (const b of bad) expect((await setPlan(k.keyId, b)).statusCode, JSON.stringify(b)).toBe(400);
    expect((await setPlan(999999, { requests_per_minute: 5 })).statusCode).toBe(404);
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: `${R}/api-keys/${k.keyId}/plan`,
          headers: { 'x-rova-api-key': k.key },
          payload: { requests_per_minute: 1000 },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.inject({ method: 'GET', url: `${R}/api-keys/${k.keyId}/usage`, headers: { 'x-rova-api-key': k.key } }))
        .statusCode,
    ).toBe(403);
  });
});
