import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { webhookSecrets } from '../../src/modules/rental/payouts/webhook.js';
import { rows } from '../../src/platform/db/types.js';
import { emitEvent } from '../../src/platform/events/emit.js';
import { webhooksOf } from '../../src/platform/webhooks/service.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { vendor } from '../rental/market/helpers.js';
import { vehicle } from '../rental/helpers.js';

// Issue 37 item 2, the writes a client may send twice that took no Idempotency-Key yet: the catalogue creates and
// batches (wc/v3), the operator's booking, a vendor's new vehicle, and the writes that hand out a secret or send a
// delivery. One key: the first answer again (Idempotent-Replayed), one write; another body (or path) → 422.
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
  admin = (await t.userWithKey('administrator', ['read', 'write'], 'keyed-writes-admin')).key;
});
afterAll(() => t.close());

const send = (url: string, body: unknown, key: string, caller = admin) =>
  t.inject({
    method: 'POST',
    url: `/wp-json/${url}`,
    headers: { 'x-rova-api-key': caller, 'idempotency-key': key },
    ...(body !== undefined ? { payload: body as object } : {}),
  });

const count = async (query: ReturnType<typeof sql>) => (await rows<{ n: number }>(t.platform.db, query))[0]!.n;

/** The same request twice with one key: the first answer (status and body), replayed; what the first answered. */
async function twice(url: string, body: unknown, key: string, status: number, caller = admin) {
  const first = await send(url, body, key, caller);
  expect(first.statusCode, `${url}: ${first.body}`).toBe(status);
  expect(first.headers['idempotent-replayed'], url).toBeUndefined();
  const again = await send(url, body, key, caller);
  expect(again.statusCode, `${url}: ${again.body}`).toBe(status);
  expect(again.headers['idempotent-replayed'], url).toBe('true');
  expect(again.json(), url).toEqual(first.json());
  return first;
}

const wpMismatch = (r: LightMyRequestResponse) => {
  expect(r.statusCode, r.body).toBe(422);
  expect(r.json()).toMatchObject({ code: 'rova_idempotency_key_mismatch', data: { status: 422 } });
};
const rentalMismatch = (r: LightMyRequestResponse) => {
  expect(r.statusCode, r.body).toBe(422);
  expect(r.json()).toMatchObject({ success: false, error_code: 'IDEMPOTENCY_KEY_MISMATCH' });
};

describe('Idempotency-Key on the remaining writes', () => {
  it('wc/v3 product create and products/batch: one product per key; another body → 422', async () => {
    const body = { name: 'Keyed product', type: 'variable', sku: 'KEYED-1' };
    const first = await twice('wc/v3/products', body, 'product-1', 201);
    expect(await count(sql`SELECT count(*)::int AS n FROM rova_products WHERE sku = 'KEYED-1'`)).toBe(1);
    wpMismatch(await send('wc/v3/products', { ...body, name: 'Another' }, 'product-1'));

    const batch = {
      create: [{ name: 'Keyed batch A', sku: 'KEYED-B1' }],
      update: [{ id: first.json().id, sku: 'KEYED-1' }],
    };
    const b = await twice('wc/v3/products/batch', batch, 'batch-1', 200);
    expect(b.json().create).toHaveLength(1);
    expect(await count(sql`SELECT count(*)::int AS n FROM rova_products WHERE sku = 'KEYED-B1'`)).toBe(1);
    wpMismatch(await send('wc/v3/products/batch', { create: [{ name: 'Keyed batch B' }] }, 'batch-1'));
    expect(await count(sql`SELECT count(*)::int AS n FROM rova_products WHERE name = 'Keyed batch B'`)).toBe(0);
  });

  it('wc/v3 variation create and variations/batch: one variation per key; another body or parent → 422', async () => {
    const parent = (await send('wc/v3/products', { name: 'Keyed parent', type: 'variable' }, 'parent-1')).json()
      .id as number;
    const other = (await send('wc/v3/products', { name: 'Keyed parent 2', type: 'variable' }, 'parent-2')).json()
      .id as number;
    const variations = (id: number) =>
      count(sql`SELECT count(*)::int AS n FROM rova_products WHERE parent_id = ${id} AND type = 'variation'`);
    const body = { regular_price: '7', sku: 'KEYED-V1' };
    await twice(`wc/v3/products/${parent}/variations`, body, 'variation-1', 201);
    expect(await variations(parent)).toBe(1);
    wpMismatch(await send(`wc/v3/products/${parent}/variations`, { ...body, regular_price: '8' }, 'variation-1'));
    // the same key and body for another product is another request, not the first one's answer
    wpMismatch(await send(`wc/v3/products/${other}/variations`, body, 'variation-1'));
    expect(await variations(other)).toBe(0);

    const batch = { create: [{ regular_price: '9', sku: 'KEYED-V2' }] };
    const b = await twice(`wc/v3/products/${parent}/variations/batch`, batch, 'vbatch-1', 200);
    expect(b.json().create).toHaveLength(1);
    expect(await variations(parent)).toBe(2);
    wpMismatch(
      await send(`wc/v3/products/${parent}/variations/batch`, { create: [{ regular_price: '1' }] }, 'vbatch-1'),
    );
    expect(await variations(parent)).toBe(2);
  });

  it('rova-rental/v1 POST /bookings (operator): one booking per key; another body → 422 in the rental shape', async () => {
    const v = await vehicle(t);
    const body = {
      vehicle_id: v,
      customer: { name: 'Keyed Customer', email: 'keyed-customer@example.test' },
      pickup_date: '2033-03-01',
      return_date: '2033-03-04',
    };
    const first = await twice('rova-rental/v1/bookings', body, 'booking-1', 201);
    expect(first.json()).toMatchObject({ success: true, message: 'Booking created.', data: { vehicle_id: v } });
    expect(await count(sql`SELECT count(*)::int AS n FROM rental_bookings WHERE vehicle_id = ${v}`)).toBe(1);
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM rova_events WHERE type = 'booking.created' AND payload->'data'->>'id' = ${String(first.json().data.id)}`,
      ),
    ).toBe(1);
    rentalMismatch(await send('rova-rental/v1/bookings', { ...body, notes: 'changed' }, 'booking-1'));
    // a refused booking (the slot is taken) keeps no answer: its retry is checked afresh
    const taken = await send('rova-rental/v1/bookings', { ...body, pickup_date: '2033-03-02' }, 'booking-2');
    expect(taken.json()).toMatchObject({ success: false, error_code: 'VEHICLE_NOT_AVAILABLE' });
    const retried = await send('rova-rental/v1/bookings', { ...body, pickup_date: '2033-03-02' }, 'booking-2');
    expect(retried.statusCode).toBe(409);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await count(sql`SELECT count(*)::int AS n FROM rental_bookings WHERE vehicle_id = ${v}`)).toBe(1);
  });

  it('rova-rental/v1 POST /vendor/vehicles: one listing per key (per vendor); another body → 422', async () => {
    const a = await vendor(t);
    const b = await vendor(t);
    const body = { name: 'Keyed Van', price_per_day: 55 };
    const first = await twice(`rova-rental/v1/vendor/vehicles`, body, 'listing-1', 201, a.key);
    expect(first.json()).toMatchObject({ data: { name: 'Keyed Van', lifecycle: 'pending_review' } });
    const listed = (id: number) =>
      count(sql`SELECT count(*)::int AS n FROM rental_vehicles WHERE name = 'Keyed Van' AND vendor_id = ${id}`);
    expect(await listed(a.id)).toBe(1);
    expect(await count(sql`SELECT count(*)::int AS n FROM vendor_listings WHERE vendor_id = ${a.id}`)).toBe(1);
    rentalMismatch(await send('rova-rental/v1/vendor/vehicles', { ...body, price_per_day: 56 }, 'listing-1', a.key));
    // keys are per caller: another vendor's same key lists its own vehicle
    expect((await send('rova-rental/v1/vendor/vehicles', body, 'listing-1', b.key)).statusCode).toBe(201);
    expect(await listed(b.id)).toBe(1);
    expect(await listed(a.id)).toBe(1);
  });

  it('webhook rotate-secret: one rotation per key (the same secret again, kept sealed); another endpoint or body → 422', async () => {
    await t.inject({
      method: 'PUT',
      url: '/wp-json/rova/v1/webhooks/settings',
      headers: { 'x-rova-api-key': admin },
      payload: { allow_private_urls: true },
    });
    const hook = async (description: string) =>
      (
        await send('rova/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'], description }, description)
      ).json() as { endpoint: { id: number }; secret: string };
    const one = await hook('rotate-one');
    const two = await hook('rotate-two');
    const sealed = async (id: number) =>
      (
        await rows<{ s: string; p: string | null }>(
          t.platform.db,
          sql`SELECT secret_enc AS s, previous_secret_enc AS p FROM rova_webhook_endpoints WHERE id = ${id}`,
        )
      )[0]!;
    const before = await sealed(one.endpoint.id);
    const body = { overlap_seconds: 60 };
    const first = await twice(`rova/v1/webhooks/${one.endpoint.id}/rotate-secret`, body, 'rotate-1', 200);
    const secret = (first.json() as { secret: string }).secret;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(one.secret);
    const after = await sealed(one.endpoint.id);
    // rotated once: the secret before the request is the previous one (a second rotation would have dropped it)
    expect(after.p).toBe(before.s);
    expect(after.s).not.toBe(before.s);
    const kept = await rows<{ body: string }>(
      t.platform.db,
      sql`SELECT response_body::text AS body FROM rova_idempotent_requests WHERE key = 'rotate-1'`,
    );
    expect(kept[0]!.body).not.toContain(secret);
    wpMismatch(await send(`rova/v1/webhooks/${one.endpoint.id}/rotate-secret`, { overlap_seconds: 0 }, 'rotate-1'));
    wpMismatch(await send(`rova/v1/webhooks/${two.endpoint.id}/rotate-secret`, body, 'rotate-1'));
    expect((await sealed(two.endpoint.id)).p).toBeNull();
    expect(await sealed(one.endpoint.id)).toEqual(after);
  });

  it('webhook delivery replay: one new delivery per key; another delivery → 422', async () => {
    const wh = webhooksOf(t.platform);
    await wh.runOnce();
    const made = await send(
      'rova/v1/webhooks',
      { url: 'http://127.0.0.1:9/replayed', events: ['product.updated'], description: 'replay' },
      'replay-hook',
    );
    const ep = (made.json() as { endpoint: { id: number } }).endpoint.id;
    await t.platform.transaction((tx) => emitEvent(tx, 'product.updated', { id: 1, parent_id: null }));
    await t.platform.transaction((tx) => emitEvent(tx, 'product.updated', { id: 2, parent_id: null }));
    await wh.runOnce();
    const deliveries = () =>
      count(sql`SELECT count(*)::int AS n FROM rova_webhook_deliveries WHERE endpoint_id = ${ep}`);
    expect(await deliveries()).toBe(2);
    const [d1, d2] = (
      await rows<{ id: number }>(
        t.platform.db,
        sql`SELECT id::int AS id FROM rova_webhook_deliveries WHERE endpoint_id = ${ep} ORDER BY id`,
      )
    ).map((r) => r.id);
    const first = await twice(`rova/v1/webhooks/${ep}/deliveries/${d1}/replay`, undefined, 'replay-1', 200);
    expect(first.json()).toMatchObject({ endpoint_id: ep, event_type: 'product.updated', attempts: 1 });
    expect(first.json().id).not.toBe(d1);
    expect(await deliveries()).toBe(3);
    wpMismatch(await send(`rova/v1/webhooks/${ep}/deliveries/${d2}/replay`, undefined, 'replay-1'));
    expect(await deliveries()).toBe(3);
  });

  it('rova-rental/v2 POST /payouts/webhook-secret: one secret per key (kept sealed, the one callbacks verify with); another body → 422', async () => {
    const first = await twice('rova-rental/v2/payouts/webhook-secret', undefined, 'payout-secret-1', 201);
    const secret = (first.json() as { data: { secret: string } }).data.secret;
    expect(secret).toMatch(/^whsec_/);
    expect(first.headers['cache-control']).toBe('no-store');
    // the secret replayed is the one stored (a second run would have replaced it)
    expect(await webhookSecrets(t.platform)).toContain(secret);
    const kept = await rows<{ body: string }>(
      t.platform.db,
      sql`SELECT response_body::text AS body FROM rova_idempotent_requests WHERE key = 'payout-secret-1'`,
    );
    expect(kept[0]!.body).not.toContain(secret);
    rentalMismatch(await send('rova-rental/v2/payouts/webhook-secret', { note: 'x' }, 'payout-secret-1'));
    expect(await webhookSecrets(t.platform)).toContain(secret);
  });
});
