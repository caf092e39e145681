import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';

// Issue 37 item 2: the admin creates (users, API keys, webhook endpoints) take an Idempotency-Key, so a client that
// sends one twice (a retry after a 502 or a timeout) gets the first answer and one row, never a second row or a 409
// for its own first attempt.
let t: TestApp;
let admin: string;
let other: string;

beforeAll(async () => {
  t = await makeApp();
  admin = (await t.userWithKey('administrator', ['read', 'write'], 'keyed-admin')).key;
  other = (await t.userWithKey('administrator', ['read', 'write'], 'keyed-other')).key;
  await t.inject({
    method: 'PUT',
    url: '/wp-json/rova/v1/webhooks/settings',
    headers: { 'x-rova-api-key': admin, 'content-type': 'application/json' },
    payload: { allow_private_urls: true },
  });
});
afterAll(() => t.close());

const post = (url: string, body: object, key?: string, caller = admin) =>
  t.inject({
    method: 'POST',
    url: `/wp-json/rova/v1/${url}`,
    headers: {
      'x-rova-api-key': caller,
      'content-type': 'application/json',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    payload: body,
  });

const count = async (query: ReturnType<typeof sql>) => (await rows<{ n: number }>(t.platform.db, query))[0]!.n;

describe('Idempotency-Key on the admin creates', () => {
  it('POST /users twice with one key: the first answer (201, replayed), one user; without a key the second is 409', async () => {
    const body = { login: 'keyed-user', email: 'keyed-user@example.test', role: 'customer', password: 'a-password-1' };
    const first = await post('users', body, 'user-key-1');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post('users', body, 'user-key-1');
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await count(sql`SELECT count(*)::int AS n FROM rova_users WHERE login = 'keyed-user'`)).toBe(1);
    // the key with another body
    const changed = await post('users', { ...body, role: 'vendor' }, 'user-key-1');
    expect(changed.statusCode).toBe(422);
    expect(changed.json()).toMatchObject({ code: 'rova_idempotency_key_mismatch', data: { status: 422 } });
    // keys are per caller: another administrator's same key is its own
    const theirs = await post('users', body, 'user-key-1', other);
    expect(theirs.statusCode).toBe(409);
    expect(theirs.json()).toMatchObject({ code: 'rova_user_exists' });
    // what a retry without a key gets: told "exists" for its own first attempt (hence the key)
    const unkeyed = await post('users', body);
    expect(unkeyed.statusCode).toBe(409);
    const bad = await post('users', { ...body, login: 'keyed-user-2' }, 'bad key');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { 'Idempotency-Key': expect.any(String) } },
    });
    expect(await count(sql`SELECT count(*)::int AS n FROM rova_users WHERE login = 'keyed-user-2'`)).toBe(0);
  });

  it('POST /api-keys twice with one key: the same key (its secret too), one row; the stored answer holds no secret in clear', async () => {
    const user = (
      await post('users', { login: 'key-holder', email: 'key-holder@example.test', role: 'customer' })
    ).json() as {
      id: number;
    };
    for (const format of ['rova', 'woocommerce'] as const) {
      const body = { user_id: user.id, name: `twice-${format}`, scopes: ['read'], format };
      const first = await post('api-keys', body, `api-key-${format}`);
      expect(first.statusCode, first.body).toBe(201);
      const again = await post('api-keys', body, `api-key-${format}`);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.headers['cache-control']).toBe('no-store');
      expect(again.json()).toEqual(first.json());
      expect(
        await count(
          sql`SELECT count(*)::int AS n FROM rova_api_keys WHERE user_id = ${user.id} AND name = ${body.name}`,
        ),
      ).toBe(1);
      const secret = (first.json() as { key?: string; consumer_secret?: string }).key ?? first.json().consumer_secret;
      expect(secret).toMatch(/^(rova_|cs_)/);
      const kept = await rows<{ body: string }>(
        t.platform.db,
        sql`SELECT response_body::text AS body FROM rova_idempotent_requests WHERE key = ${`api-key-${format}`}`,
      );
      expect(kept).toHaveLength(1);
      expect(kept[0]!.body).not.toContain(secret);
      expect(JSON.parse(kept[0]!.body)).toEqual({ sealed: expect.stringMatching(/^v1\./) });
    }
    // the replayed key works
    const replay = (
      await post('api-keys', { user_id: user.id, name: 'twice-rova', scopes: ['read'], format: 'rova' }, 'api-key-rova')
    ).json() as { key: string };
    const me = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/auth/me',
      headers: { 'x-rova-api-key': replay.key },
    });
    expect(me.statusCode, me.body).toBe(200);
  });

  it('POST /webhooks twice with one key: one endpoint, the same signing secret', async () => {
    const body = { url: 'http://127.0.0.1:9/hook', events: ['booking.created'], description: 'keyed' };
    const first = await post('webhooks', body, 'hook-key');
    expect(first.statusCode, first.body).toBe(201);
    const again = await post('webhooks', body, 'hook-key');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((first.json() as { secret: string }).secret).toMatch(/^whsec_/);
    expect(await count(sql`SELECT count(*)::int AS n FROM rova_webhook_endpoints WHERE description = 'keyed'`)).toBe(1);
    // without a key, each request registers an endpoint (the client's choice: it sent no key)
    expect((await post('webhooks', { ...body, description: 'unkeyed' })).statusCode).toBe(201);
    expect((await post('webhooks', { ...body, description: 'unkeyed' })).statusCode).toBe(201);
    expect(await count(sql`SELECT count(*)::int AS n FROM rova_webhook_endpoints WHERE description = 'unkeyed'`)).toBe(
      2,
    );
  });

  it('rova-rental/v1 creates (locations, vehicles, transfer routes, pricing rules): one key → the first answer and one row; errors in the rental shape', async () => {
    const rental = (url: string, body: object, key?: string) =>
      t.inject({
        method: 'POST',
        url: `/wp-json/rova-rental/v1/${url}`,
        headers: { 'x-rova-api-key': admin, ...(key ? { 'idempotency-key': key } : {}) },
        payload: body,
      });
    const cases: [string, object, ReturnType<typeof sql>][] = [
      [
        'locations',
        { name: 'Keyed Office', type: 'office', city: 'Keyed' },
        sql`SELECT count(*)::int AS n FROM rental_locations WHERE name = 'Keyed Office'`,
      ],
      [
        'vehicles',
        { name: 'Keyed Car', price_per_day: 40 },
        sql`SELECT count(*)::int AS n FROM rental_vehicles WHERE name = 'Keyed Car'`,
      ],
      [
        'transfer-routes',
        { origin: 'Keyed A', destination: 'Keyed B', distance_km: 10, pricing: 'fixed', base_price: 25 },
        sql`SELECT count(*)::int AS n FROM rental_transfer_routes WHERE origin = 'Keyed A'`,
      ],
      [
        'pricing-rules',
        { name: 'Keyed weekend', kind: 'weekend', multiplier: 1.1 },
        sql`SELECT count(*)::int AS n FROM rental_pricing_rules WHERE name = 'Keyed weekend'`,
      ],
    ];
    for (const [url, body, stored] of cases) {
      const first = await rental(url, body, `rental-${url}`);
      expect(first.statusCode, `${url}: ${first.body}`).toBe(201);
      const again = await rental(url, body, `rental-${url}`);
      expect(again.statusCode, url).toBe(201);
      expect(again.headers['idempotent-replayed'], url).toBe('true');
      expect(again.json(), url).toEqual(first.json());
      expect(await count(stored), url).toBe(1);
      const changed = 'name' in body ? { ...body, name: 'Another' } : { ...body, destination: 'Another' };
      const mismatch = await rental(url, changed, `rental-${url}`);
      expect(mismatch.statusCode, url).toBe(422);
      expect(mismatch.json(), url).toMatchObject({ success: false, error_code: 'IDEMPOTENCY_KEY_MISMATCH' });
    }
    // a failed create (an unknown location) frees its key: the corrected request with the same key is answered afresh
    const bad = await rental('vehicles', { name: 'Keyed Fix', price_per_day: 40, location_id: 999999 }, 'fix-key');
    expect(bad.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    expect((await rental('vehicles', { name: 'Keyed Fix', price_per_day: 40 }, 'fix-key')).statusCode).toBe(201);
  });
});
