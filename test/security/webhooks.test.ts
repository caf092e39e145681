// @integration: outbox fan-out uses SKIP LOCKED; deliveries run under a job lease
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/platform/db/types.js';
import { emitEvent } from '../../src/platform/events/emit.js';
import { RETRY_SCHEDULE_S, webhooksOf, type Webhooks } from '../../src/platform/webhooks/service.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { V1, vehicle } from '../rental/helpers.js';

const R = '/wp-json/rova/v1';
let t: TestApp;
let admin = '';
let wh: Webhooks;

// A local receiver speaking plain HTTP: answers with the status the test sets and records what it got.
interface Got {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const got: Got[] = [];
let answer = 204;
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    got.push({ headers: req.headers, body });
    res.statusCode = answer;
    res.end();
  });
});
let url = '';

beforeAll(async () => {
  t = await makeApp();
  wh = webhooksOf(t.platform);
  admin = (await t.userWithKey('administrator')).key;
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
}, 240_000);
afterAll(async () => {
  receiver.close();
  await t?.close();
});

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) =>
  t.inject({
    method,
    url: `${R}${path}`,
    headers: { 'x-rova-api-key': admin },
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });

async function endpoint(events: string[]): Promise<{ id: number; secret: string }> {
  const r = await api('POST', '/webhooks', { url, events });
  expect(r.statusCode).toBe(201);
  return { id: r.json().endpoint.id, secret: r.json().secret };
}

describe('outbound webhooks', () => {
  it('a URL to 127.0.0.1 is refused by default; the admin setting allows it', async () => {
    const r = await api('POST', '/webhooks', { url, events: ['booking.created'] });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'rova_webhook_url_refused', data: { status: 400 } });
    for (const u of [
      'http://localhost:9/x',
      'http://10.1.2.3/x',
      'http://[::1]/x',
      'http://169.254.169.254/latest',
      'ftp://example.com/x',
      // IPv6 forms that carry a private IPv4 address: IPv4-compatible, IPv4-mapped, 6to4, Teredo (client address inverted)
      'http://[::127.0.0.1]/x',
      'http://[::ffff:10.0.0.1]/x',
      'http://[2002:7f00:1::]/x',
      'http://[2002:a9fe:a9fe::1]/x',
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x',
    ]) {
      expect((await api('POST', '/webhooks', { url: u, events: ['booking.created'] })).statusCode, u).toBe(400);
    }
    expect(
      (await api('POST', '/webhooks', { url: 'https://example.com/x', events: ['no.such_event'] })).statusCode,
    ).toBe(400);
    const s = await api('PUT', '/webhooks/settings', { allow_private_urls: true });
    expect(s.json()).toEqual({ allow_private_urls: true });
    const types = (await api('GET', '/webhooks/event-types')).json() as { type: string }[];
    for (const ty of [
      'booking.created',
      'booking.confirmed',
      'booking.cancelled',
      'booking.completed',
      'message.created',
      'product.updated',
      'currency.rates_synced',
    ]) {
      expect(types.map((x) => x.type)).toContain(ty);
    }
  });

  it('booking.created reaches a local receiver that verifies it with standardwebhooks', async () => {
    const ep = await endpoint(['booking.*']);
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const listed = (await api('GET', `/webhooks/${ep.id}`)).json();
    expect(listed).toMatchObject({ id: ep.id, url, events: ['booking.*'], enabled: true });
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    const v = await vehicle(t);
    const b = await t.inject({
      method: 'POST',
      url: `${V1}/bookings`,
      headers: { 'x-rova-api-key': admin },
      payload: {
        vehicle_id: v,
        customer: { name: 'Ada', email: 'ada-wh@example.test' },
        pickup_date: '2031-03-01',
        return_date: '2031-03-03',
      },
    });
    expect(b.statusCode).toBe(201);
    got.length = 0;
    answer = 204;
    await wh.runOnce();
    expect(got.length).toBe(1);
    const msg = got[0]!;
    const verified = new Webhook(ep.secret).verify(msg.body, {
      'webhook-id': String(msg.headers['webhook-id']),
      'webhook-timestamp': String(msg.headers['webhook-timestamp']),
      'webhook-signature': String(msg.headers['webhook-signature']),
    }) as { type: string; data: { id: number; status: string } };
    expect(verified.type).toBe('booking.created');
    expect(verified.data).toMatchObject({ id: b.json().data.id, status: 'pending_payment' });
    const log = (await api('GET', `/webhooks/${ep.id}/deliveries`)).json() as {
      status: string;
      response_status: number;
      response_time_ms: number;
    }[];
    expect(log[0]).toMatchObject({ status: 'delivered', response_status: 204 });
    expect(log[0]!.response_time_ms).toBeGreaterThanOrEqual(0);
    await api('DELETE', `/webhooks/${ep.id}`);
  });

  it('a rolled-back change emits nothing', async () => {
    const before = (await rows<{ n: number }>(t.platform.db, sql`SELECT count(*)::int AS n FROM rova_events`))[0]!.n;
    await expect(
      t.platform.transaction(async (tx) => {
        await emitEvent(tx, 'booking.created', { id: 1 });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    // a booking refused for an overlap writes no event either
    const v = await vehicle(t);
    const create = () =>
      t.inject({
        method: 'POST',
        url: `${V1}/bookings`,
        headers: { 'x-rova-api-key': admin },
        payload: {
          vehicle_id: v,
          customer: { name: 'B', email: 'b-wh@example.test' },
          pickup_date: '2031-05-01',
          return_date: '2031-05-03',
        },
      });
    expect((await create()).statusCode).toBe(201);
    expect((await create()).statusCode).toBe(409);
    const after = (await rows<{ n: number }>(t.platform.db, sql`SELECT count(*)::int AS n FROM rova_events`))[0]!.n;
    expect(after).toBe(before + 1);
  });

  it('receiver down → retries on the backoff schedule with jitter (fake clock); replay from the log', async () => {
    await wh.runOnce(); // drain older events
    const ep = await endpoint(['product.updated']);
    answer = 503;
    got.length = 0;
    await t.platform.transaction((tx) => emitEvent(tx, 'product.updated', { id: 42, parent_id: null }));
    const start = Date.now();
    let now = start;
    wh.now = () => now;
    wh.random = () => 1; // upper edge of the jitter: +10 %
    try {
      await wh.runOnce();
      expect(got.length).toBe(1);
      let total = 0;
      for (let i = 0; i < RETRY_SCHEDULE_S.length; i++) {
        const d = (await api('GET', `/webhooks/${ep.id}/deliveries`)).json()[0] as {
          status: string;
          attempts: number;
          next_attempt_at: string;
          response_status: number;
        };
        expect(d).toMatchObject({ status: 'pending', attempts: i + 1, response_status: 503 });
        const wait = new Date(d.next_attempt_at).getTime() - now;
        expect(wait).toBe(Math.round(RETRY_SCHEDULE_S[i]! * 1000 * 1.1));
        total += wait;
        now += wait - 1000;
        await wh.runOnce(); // not due yet
        expect(got.length).toBe(i + 1);
        now += 1000;
        await wh.runOnce();
        expect(got.length).toBe(i + 2);
      }
      expect(total / 3_600_000).toBeGreaterThan(70); // ~3 days
      const last = (await api('GET', `/webhooks/${ep.id}/deliveries`)).json()[0] as {
        id: number;
        status: string;
        attempts: number;
        next_attempt_at: string | null;
      };
      expect(last).toMatchObject({ status: 'failed', attempts: RETRY_SCHEDULE_S.length + 1, next_attempt_at: null });
      const detail = (await api('GET', `/webhooks/${ep.id}/deliveries/${last.id}`)).json();
      expect(detail.log.length).toBe(RETRY_SCHEDULE_S.length + 1);
      // replay once the receiver is back
      answer = 200;
      const rep = await api('POST', `/webhooks/${ep.id}/deliveries/${last.id}/replay`);
      expect(rep.statusCode).toBe(200);
      expect(rep.json()).toMatchObject({ status: 'delivered', response_status: 200, event_type: 'product.updated' });
      expect(got.at(-1)!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
    } finally {
      wh.now = () => Date.now();
      wh.random = () => Math.random();
    }
    await api('DELETE', `/webhooks/${ep.id}`);
  });

  it('410 Gone disables the endpoint', async () => {
    await wh.runOnce();
    const ep = await endpoint(['*']);
    answer = 410;
    await t.platform.transaction((tx) => emitEvent(tx, 'message.created', { id: 1, thread_id: 1, author: 'customer' }));
    await wh.runOnce();
    const e = (await api('GET', `/webhooks/${ep.id}`)).json();
    expect(e).toMatchObject({ enabled: false, disabled_reason: 'the endpoint answered 410 Gone' });
    const d = (await api('GET', `/webhooks/${ep.id}/deliveries`)).json()[0];
    expect(d).toMatchObject({ status: 'failed', response_status: 410 });
    got.length = 0;
    await t.platform.transaction((tx) => emitEvent(tx, 'message.created', { id: 2, thread_id: 1, author: 'customer' }));
    await wh.runOnce();
    expect(got.length).toBe(0);
    await api('DELETE', `/webhooks/${ep.id}`);
  });

  it('secret rotation: both signatures during the overlap, each verifies', async () => {
    await wh.runOnce();
    const ep = await endpoint(['product.updated']);
    const rot = await api('POST', `/webhooks/${ep.id}/rotate-secret`, { overlap_seconds: 3600 });
    expect(rot.statusCode).toBe(200);
    const fresh = rot.json().secret as string;
    expect(fresh).not.toBe(ep.secret);
    answer = 200;
    got.length = 0;
    await t.platform.transaction((tx) => emitEvent(tx, 'product.updated', { id: 7, parent_id: null }));
    await wh.runOnce();
    const m = got[0]!;
    expect(String(m.headers['webhook-signature']).split(' ').length).toBe(2);
    const h = {
      'webhook-id': String(m.headers['webhook-id']),
      'webhook-timestamp': String(m.headers['webhook-timestamp']),
      'webhook-signature': String(m.headers['webhook-signature']),
    };
    expect(() => new Webhook(fresh).verify(m.body, h)).not.toThrow();
    expect(() => new Webhook(ep.secret).verify(m.body, h)).not.toThrow();
    await api('DELETE', `/webhooks/${ep.id}`);
  });

  it('CRUD needs an administrator', async () => {
    const c = (await t.userWithKey('customer')).key;
    expect((await t.inject({ method: 'GET', url: `${R}/webhooks`, headers: { 'x-rova-api-key': c } })).statusCode).toBe(
      403,
    );
    expect((await t.inject({ method: 'GET', url: `${R}/webhooks` })).statusCode).toBe(401);
    expect((await api('GET', '/webhooks/999999')).statusCode).toBe(404);
  });
});
