import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingIndexOf } from '../../src/modules/rental/availability/holding-index.js';
import { HEARTBEAT_BOUND_MS, PEER_GONE_MS } from '../../src/platform/kv/bus.js';
import { vehicle } from '../rental/helpers.js';
import { cuttableProxy, type CuttableProxy } from '../helpers/tcp-cut.js';
import { twoNodes, type TwoNodes } from '../helpers/two-nodes.js';

// Issue 37 item 4: only node a's link to Redis stalls (a proxy between node a and Redis stops forwarding and keeps
// every connection open), node b's works. A booking made on node a then never reaches node b through the bus; node b
// must see it within the stated bound or answer availability from the database — never "available" for a car node
// a booked — and /health on both nodes says which they do.
const V1 = '/wp-json/rova-rental/v1';
const V2 = '/wp-json/rova-rental/v2';
/** The bound with room for this machine's scheduling (both nodes share one event loop here). */
const PAST_BOUND_MS = HEARTBEAT_BOUND_MS + 250;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let n: TwoNodes;
let redisLink: CuttableProxy;
let customer: string;
let car: number;

beforeAll(async () => {
  redisLink = await cuttableProxy({ postgres: false });
  n = await twoNodes(
    { RENTAL_WRITE_RATE_LIMIT: '1000000', RENTAL_PUBLIC_RATE_LIMIT: '1000000' },
    { redisA: (url) => redisLink.route(url) },
  );
  customer = (await n.a.userWithKey('customer')).key;
  car = await vehicle(n.a);
  const until = Date.now() + 20_000;
  while (!(holdingIndexOf(n.a.platform).ready && holdingIndexOf(n.b.platform).ready) && Date.now() < until)
    await sleep(20);
}, 240_000);
afterAll(async () => {
  redisLink?.resume();
  await n?.close();
  await redisLink?.close();
});

const slot = (i: number) => {
  const at = Date.UTC(2043, 0, 1) + i * 3 * 86_400_000;
  return {
    pickup_date: new Date(at).toISOString().slice(0, 10),
    return_date: new Date(at + 86_400_000).toISOString().slice(0, 10),
  };
};

async function available(node: TwoNodes['a'], i: number): Promise<boolean> {
  const r = await node.inject({ method: 'POST', url: `${V1}/availability`, payload: { vehicle_id: car, ...slot(i) } });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data.available as boolean;
}

async function book(i: number): Promise<void> {
  const r = await n.a.inject({
    method: 'POST',
    url: `${V2}/booking/create`,
    headers: { 'x-rova-api-key': customer },
    payload: { vehicle_id: car, ...slot(i), payment_method: 'offline', payment_plan: 'deposit' },
  });
  expect(r.statusCode, r.body).toBe(201);
}

async function health(node: TwoNodes['a']): Promise<{ http: number; failed?: string[]; availability_from: string }> {
  const r = await node.inject({ method: 'GET', url: `${V1}/health` });
  const d = r.json().data as { failed?: string[]; availability_from: string };
  return { http: r.statusCode, failed: d.failed, availability_from: d.availability_from };
}

/**
 * Books slot i on node a, then asks node b about it for `ms`: every "available" answer node b gives is recorded with
 * how long after node a's 201 it was given.
 */
async function bookOnAWatchB(i: number, ms: number): Promise<number[]> {
  await book(i);
  const booked = performance.now();
  const late: number[] = [];
  while (performance.now() - booked < ms) {
    const asked = performance.now();
    if (await available(n.b, i)) late.push(asked - booked);
  }
  return late;
}

describe("node a's Redis link stalled (connections open, nothing forwarded), node b's working", () => {
  it('node b never answers "available" for a car node a booked past the bound; /health on both says availability comes from the database', async () => {
    // before: the bus flows, both answer from memory, node b sees node a's booking within the bound
    expect(await health(n.a)).toMatchObject({ http: 200, availability_from: 'index' });
    expect(await health(n.b)).toMatchObject({ http: 200, availability_from: 'index' });
    expect((await bookOnAWatchB(0, 600)).filter((ms) => ms > PAST_BOUND_MS)).toEqual([]);

    redisLink.stall();
    const stalled = performance.now();
    const stale: string[] = [];
    try {
      // bookings right after the stall began (inside the bound) and well after it
      for (let i = 1; performance.now() - stalled < 4_000; i++) {
        const late = await bookOnAWatchB(i, 700);
        for (const ms of late)
          if (ms > PAST_BOUND_MS)
            stale.push(`slot ${i}: "available" on node b ${Math.round(ms)} ms after node a's 201`);
        if (performance.now() - stalled > PAST_BOUND_MS) {
          const b = await health(n.b);
          expect(b, 'node b: the bus is late (node a silent), availability from the database').toMatchObject({
            http: 503,
            failed: ['bus'],
            availability_from: 'database',
          });
          const a = await health(n.a);
          expect(a.http, 'node a: its own heartbeat does not come back').toBe(503);
          expect(a.availability_from).toBe('database');
          expect(a.failed?.some((f) => f === 'bus' || f === 'redis')).toBe(true);
        }
      }
    } finally {
      redisLink.resume();
    }
    expect(stale).toEqual([]);
    // once the link works again, both reload and answer from memory — with every booking of the stall in it
    await expect.poll(async () => (await health(n.b)).availability_from, { timeout: 15_000 }).toBe('index');
    await expect.poll(async () => (await health(n.a)).availability_from, { timeout: 15_000 }).toBe('index');
    for (let i = 0; i < 4; i++) expect(await available(n.b, i), `slot ${i} after the stall`).toBe(false);
    expect((await bookOnAWatchB(100, 600)).filter((ms) => ms > PAST_BOUND_MS)).toEqual([]);
  }, 120_000);

  it('a stall longer than PEER_GONE_MS: node b does not take node a for gone while node a records its presence in the database, and keeps answering from the database', async () => {
    await expect.poll(async () => (await health(n.b)).availability_from, { timeout: 15_000 }).toBe('index');
    redisLink.stall();
    const stale: string[] = [];
    try {
      await sleep(PEER_GONE_MS + 2_000);
      const late = await bookOnAWatchB(200, 1_500);
      if (late.some((ms) => ms > PAST_BOUND_MS)) stale.push(`"available" on node b ${late.length} times`);
      expect(await health(n.b)).toMatchObject({ http: 503, failed: ['bus'], availability_from: 'database' });
    } finally {
      redisLink.resume();
    }
    expect(stale, 'node b forgot node a (stalled, not gone) and answered from its index').toEqual([]);
    await expect.poll(async () => (await health(n.b)).availability_from, { timeout: 15_000 }).toBe('index');
    expect(await available(n.b, 200)).toBe(false);
  }, 120_000);
});
