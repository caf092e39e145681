import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMessages, DEMO_CUSTOMER_PASSWORD } from '../../../src/modules/rental/seed/messages.js';
import { one } from '../../../src/platform/db/types.js';
import type { TestApp } from '../../helpers/app.js';
import { API, insertBooking, insertCustomer, insertVehicle, makeAdminApp } from './fixtures.js';

let t: TestApp;
let admin: string;
let alice: { key: string; userId: number; customerId: number; bookingId: number };
let bob: { key: string; userId: number; customerId: number; bookingId: number };

beforeAll(async () => {
  t = await makeAdminApp();
  const db = t.platform.db;
  admin = (await t.userWithKey('administrator')).key;
  const v = await insertVehicle(db, { name: 'Toyota Corolla' });
  // Alice is linked by customers.user_id; Bob only by the same e-mail.
  const a = await t.userWithKey('customer', ['read', 'write'], 'alice');
  const aCust = await insertCustomer(db, {
    name: 'Alice Customer',
    email: 'alice.rental@example.test',
    userId: a.userId,
  });
  const b = await t.userWithKey('customer', ['read', 'write'], 'bob');
  const bCust = await insertCustomer(db, { name: 'Bob Customer', email: 'bob@example.test' });
  alice = {
    ...a,
    customerId: aCust,
    bookingId: await insertBooking(db, {
      vehicleId: v,
      customerId: aCust,
      status: 'confirmed',
      total: '10',
      createdAt: '2026-05-01T00:00:00Z',
    }),
  };
  bob = {
    ...b,
    customerId: bCust,
    bookingId: await insertBooking(db, {
      vehicleId: v,
      customerId: bCust,
      status: 'confirmed',
      total: '10',
      createdAt: '2026-05-01T00:00:00Z',
    }),
  };
});
afterAll(async () => t?.close());

const req = (method: 'GET' | 'POST', path: string, key: string, payload?: object) =>
  t.inject({ method, url: `${API}${path}`, headers: { 'x-rova-api-key': key }, ...(payload ? { payload } : {}) });

async function ok(method: 'GET' | 'POST', path: string, key: string, payload?: object, status = 200) {
  const r = await req(method, path, key, payload);
  expect(r.statusCode, r.body).toBe(status);
  expect(r.json()).toMatchObject({ success: true, message: expect.any(String) });
  return r.json().data;
}

describe('customer side', () => {
  let aliceThread = 0;
  let bobThread = 0;

  it('POST /my/messages starts a pending thread (booking_id must be my own)', async () => {
    const d = await ok(
      'POST',
      '/my/messages',
      alice.key,
      {
        subject: 'Child seat',
        message: 'Can I get a child seat?',
        category: 'booking',
        priority: 'high',
        booking_id: alice.bookingId,
      },
      201,
    );
    expect(d.thread).toMatchObject({
      subject: 'Child seat',
      status: 'pending',
      priority: 'high',
      category: 'booking',
      customer_id: alice.customerId,
      booking_id: alice.bookingId,
      message_count: 1,
    });
    expect(d.message).toMatchObject({
      sender: 'customer',
      author_id: alice.userId,
      body: 'Can I get a child seat?',
      parent_id: null,
    });
    expect(d.replies).toEqual([]);
    aliceThread = d.thread.id;
    const b = await ok(
      'POST',
      '/my/messages',
      bob.key,
      { subject: 'Invoice', message: 'Please send an invoice.' },
      201,
    );
    expect(b.thread).toMatchObject({
      customer_id: bob.customerId,
      category: 'general',
      priority: 'normal',
      status: 'pending',
    });
    bobThread = b.thread.id;

    const other = await req('POST', '/my/messages', alice.key, {
      subject: 'x',
      message: 'y',
      booking_id: bob.bookingId,
    });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    for (const bad of [
      { subject: 'x' },
      { subject: 'x', message: 'y', category: 'spam' },
      { subject: 'x', message: 'y', priority: 'asap' },
      { subject: '   ', message: 'y' },
    ]) {
      const r = await req('POST', '/my/messages', alice.key, bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(r.json().error_code).toBe('INVALID_PARAMS');
    }
  });

  it('a customer sees only their own threads; another customer\u2019s thread is 404', async () => {
    const mine = await ok('GET', '/my/messages', alice.key);
    expect(mine.items.map((i: { id: number }) => i.id)).toEqual([aliceThread]);
    expect((await ok('GET', '/my/messages', bob.key)).items.map((i: { id: number }) => i.id)).toEqual([bobThread]);
    for (const [m, path, body] of [
      ['GET', `/my/messages/${bobThread}`, undefined],
      ['POST', `/my/messages/${bobThread}/reply`, { message: 'hijack' }],
      ['POST', `/my/messages/${bobThread}/close`, undefined],
      ['GET', '/my/messages/999999', undefined],
    ] as const) {
      const r = await req(m, path, alice.key, body);
      expect(r.statusCode, path).toBe(404);
      expect(r.json()).toEqual({ success: false, error_code: 'RESOURCE_NOT_FOUND', message: 'Message not found.' });
    }
    const n = await one<{ n: number }>(
      t.platform.db,
      sql`SELECT count(*)::int AS n FROM rental_messages WHERE thread_id = ${bobThread}`,
    );
    expect(n?.n).toBe(1);
  });

  it('admin reply → replied; the customer sees it, unread until viewed', async () => {
    const r = await ok('POST', `/messages/${aliceThread}/reply`, admin, { message: 'Added, free of charge.' }, 201);
    expect(r).toMatchObject({ thread_id: aliceThread, status: 'replied', previous_status: 'pending' });
    const list = await ok('GET', '/my/messages', alice.key);
    expect(list.items[0]).toMatchObject({
      status: 'replied',
      unread_count: 1,
      message_count: 2,
      last_sender: 'admin',
      preview: 'Added, free of charge.',
    });
    const view = await ok('GET', `/my/messages/${aliceThread}`, alice.key);
    expect(view.replies).toHaveLength(1);
    expect(view.replies[0]).toMatchObject({
      sender: 'admin',
      subject: 'Re: Child seat',
      parent_id: aliceThread,
      is_read: true,
    });
    expect((await ok('GET', '/my/messages', alice.key)).items[0].unread_count).toBe(0);
  });

  it('customer reply puts the thread back to pending; close closes; a reply re-opens a closed thread', async () => {
    const r = await ok('POST', `/my/messages/${aliceThread}/reply`, alice.key, { message: 'Thanks! ISOFIX?' }, 201);
    expect(r).toMatchObject({ status: 'pending', previous_status: 'replied' });
    const c = await ok('POST', `/my/messages/${aliceThread}/close`, alice.key);
    expect(c).toMatchObject({ status: 'closed', previous_status: 'pending' });
    const again = await ok(
      'POST',
      `/my/messages/${aliceThread}/reply`,
      alice.key,
      { message: 'One more question.' },
      201,
    );
    expect(again).toMatchObject({ status: 'pending', previous_status: 'closed' });
    const blank = await req('POST', `/my/messages/${aliceThread}/reply`, alice.key, { message: '  ' });
    expect(blank.statusCode).toBe(400);
  });

  it('a customer-role user without a rental customer gets an empty inbox, and a record when starting a thread', async () => {
    const carol = await t.userWithKey('customer', ['read', 'write'], 'carol');
    expect(await ok('GET', '/my/messages', carol.key)).toMatchObject({ items: [], total: 0 });
    expect((await req('GET', `/my/messages/${aliceThread}`, carol.key)).statusCode).toBe(404);
    const d = await ok('POST', '/my/messages', carol.key, { subject: 'Hi', message: 'First contact' }, 201);
    const c = await one<{ user_id: number; email: string }>(
      t.platform.db,
      sql`SELECT user_id::int AS user_id, email FROM rental_customers WHERE id = ${d.thread.customer_id}`,
    );
    expect(c).toEqual({ user_id: carol.userId, email: 'carol@example.test' });
  });

  it('other roles not linked to a customer → 403 PERMISSION_DENIED', async () => {
    const vendor = await t.userWithKey('vendor');
    for (const [m, path] of [
      ['GET', '/my/messages'],
      ['POST', '/my/messages'],
    ] as const) {
      const r = await req(m, path, vendor.key, m === 'POST' ? { subject: 'a', message: 'b' } : undefined);
      expect(r.statusCode).toBe(403);
      expect(r.json()).toMatchObject({ success: false, error_code: 'PERMISSION_DENIED' });
    }
  });
});

describe('a message sent again is stored once (no Idempotency-Key: the same author\u2019s identical last message within 60 s is the answer)', () => {
  const count = async (where: string, id: number) =>
    (await one<{ n: number }>(
      t.platform.db,
      sql`SELECT count(*)::int AS n FROM rental_messages WHERE ${sql.raw(where)} = ${id}`,
    ))!.n;

  it('a new thread, a customer reply and an admin reply, each sent twice in a row and twice at once', async () => {
    const dave = await t.userWithKey('customer', ['read', 'write'], 'dave');
    const body = { subject: 'Late return', message: 'Can I return the car at 22:00?' };
    const first = await ok('POST', '/my/messages', dave.key, body, 201);
    const again = await ok('POST', '/my/messages', dave.key, body, 201);
    expect(again).toEqual(first);
    const both = await Promise.all(
      [1, 2].map(() => ok('POST', '/my/messages', dave.key, { ...body, subject: 'Early pickup' }, 201)),
    );
    expect(both[1].thread.id).toBe(both[0].thread.id);
    expect(await count('customer_id', first.thread.customer_id)).toBe(2); // two threads, one per subject

    const thread = first.thread.id as number;
    const replies = await Promise.all(
      [1, 2].map(() => ok('POST', `/my/messages/${thread}/reply`, dave.key, { message: 'And a child seat.' }, 201)),
    );
    expect(replies[1].reply_id).toBe(replies[0].reply_id);
    const repeat = await ok('POST', `/my/messages/${thread}/reply`, dave.key, { message: 'And a child seat.' }, 201);
    expect(repeat).toMatchObject({
      reply_id: replies[0].reply_id,
      thread_id: thread,
      status: 'pending',
      previous_status: 'pending',
    });
    const adminReplies = await Promise.all(
      [1, 2].map(() => ok('POST', `/messages/${thread}/reply`, admin, { message: 'Yes, both fine.' }, 201)),
    );
    expect(adminReplies[1].reply_id).toBe(adminReplies[0].reply_id);
    expect(await count('thread_id', thread)).toBe(3);

    // something else, or the same text answering another message, is a new message
    const other = await ok('POST', `/my/messages/${thread}/reply`, dave.key, { message: 'Thanks.' }, 201);
    const thanksAgain = await ok('POST', `/my/messages/${other.reply_id}/reply`, dave.key, { message: 'Thanks.' }, 201);
    expect(thanksAgain.reply_id).not.toBe(other.reply_id);
    expect(await count('thread_id', thread)).toBe(5);
  });
});

describe('admin inbox', () => {
  let ids: Record<string, number> = {};
  beforeAll(async () => {
    const mk = async (key: string, subject: string, message: string, category: string, priority: string) =>
      (await ok('POST', '/my/messages', key, { subject, message, category, priority }, 201)).thread.id as number;
    ids = {
      findable: await mk(alice.key, 'Findable refund', 'refund please', 'payment', 'urgent'),
      booking1: await mk(bob.key, 'Pickup place', 'where is the office?', 'booking', 'normal'),
      booking2: await mk(bob.key, 'Return time', 'can I return later?', 'booking', 'low'),
    };
    await ok('POST', `/messages/${ids.booking2}/status`, admin, { status: 'replied' });
  });

  const total = async (q: string) => (await ok('GET', `/messages${q}`, admin)).total as number;

  it('lists threads (not replies) with counters, newest activity first', async () => {
    const d = await ok('GET', '/messages?per_page=100', admin);
    expect(d.items.length).toBe(d.total);
    expect(d.items.every((i: { id: number; thread_id: number }) => i.id === i.thread_id)).toBe(true);
    expect(d.items[0].id).toBe(ids.booking2); // status change is not activity, but it was created last
    const mine = d.items.find((i: { id: number }) => i.id === ids.findable);
    expect(mine).toMatchObject({
      customer_name: 'Alice Customer',
      customer_email: 'alice.rental@example.test',
      unread_count: 1,
      message_count: 1,
    });
  });

  it('filters: status, priority, category, search (subject, body, customer) combine with AND', async () => {
    expect(await total('?priority=urgent')).toBe(1);
    expect(await total('?category=booking')).toBe(3); // Alice's first thread + two of Bob's
    expect(await total('?category=booking&status=pending')).toBe(2); // Alice's re-opened thread + Pickup place
    expect(await total('?status=replied&category=booking&priority=low')).toBe(1);
    expect(await total('?search=findable')).toBe(1);
    expect(await total('?search=OFFICE')).toBe(1); // body
    expect(await total('?search=Bob%20Customer')).toBe(3);
    expect(await total('?search=zzz_nothing')).toBe(0);
    for (const q of ['?status=answered_not', '?priority=asap', '?category=spam', '?page=0', '?per_page=500']) {
      const r = await req('GET', `/messages${q}`, admin);
      expect(r.statusCode, q).toBe(400);
      expect(r.json().error_code).toBe('INVALID_PARAMS');
    }
  });

  it('GET /messages/{id}: thread view (first message + replies in order) from any message id; marks customer messages read', async () => {
    const r1 = await ok('POST', `/messages/${ids.findable}/reply`, admin, { message: 'Refund issued.' }, 201);
    await ok('POST', `/my/messages/${ids.findable}/reply`, alice.key, { message: 'Got it' }, 201);
    const v = await ok('GET', `/messages/${r1.reply_id}`, admin);
    expect(v.thread).toMatchObject({ id: ids.findable, status: 'pending', message_count: 3, unread_count: 0 });
    expect(v.message).toMatchObject({ id: ids.findable, body: 'refund please', sender: 'customer', is_read: true });
    expect(v.replies.map((m: { body: string; sender: string }) => [m.sender, m.body])).toEqual([
      ['admin', 'Refund issued.'],
      ['customer', 'Got it'],
    ]);
    expect(v.replies[1].parent_id).toBe(ids.findable);
    const nf = await req('GET', '/messages/987654', admin);
    expect(nf.statusCode).toBe(404);
    expect(nf.json()).toEqual({ success: false, error_code: 'RESOURCE_NOT_FOUND', message: 'Message not found.' });
  });

  it('reply with close_thread → closed; replying again re-opens as replied', async () => {
    const c = await ok(
      'POST',
      `/messages/${ids.booking1}/reply`,
      admin,
      { message: 'Terminal 1.', close_thread: true },
      201,
    );
    expect(c).toMatchObject({ status: 'closed', previous_status: 'pending' });
    expect((await ok('GET', `/messages/${ids.booking1}`, admin)).thread.status).toBe('closed');
    const again = await ok(
      'POST',
      `/messages/${ids.booking1}/reply`,
      admin,
      { message: 'Correction: Terminal 2.' },
      201,
    );
    expect(again).toMatchObject({ status: 'replied', previous_status: 'closed' });
    for (const bad of [{}, { message: '' }, { message: 'x', close_thread: 'maybe' }]) {
      const r = await req('POST', `/messages/${ids.booking1}/reply`, admin, bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await req('POST', '/messages/987654/reply', admin, { message: 'x' })).statusCode).toBe(404);
  });

  it('POST /messages/{id}/status: pending|replied|closed any → any; `answered` = replied; anything else 400', async () => {
    const s = await ok('POST', `/messages/${ids.booking1}/status`, admin, { status: 'closed' });
    expect(s).toEqual({ id: ids.booking1, thread_id: ids.booking1, status: 'closed', previous_status: 'replied' });
    expect(await ok('POST', `/messages/${ids.booking1}/status`, admin, { status: 'closed' })).toMatchObject({
      status: 'closed',
      previous_status: 'closed',
    });
    expect(await ok('POST', `/messages/${ids.booking1}/status`, admin, { status: 'pending' })).toMatchObject({
      status: 'pending',
      previous_status: 'closed',
    });
    expect(await ok('POST', `/messages/${ids.booking1}/status`, admin, { status: 'answered' })).toMatchObject({
      status: 'replied',
    });
    for (const bad of [{ status: 'nonexistent_status' }, { status: 'urgent' }, { status: '' }, {}, { status: 3 }]) {
      const r = await req('POST', `/messages/${ids.booking1}/status`, admin, bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(r.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    }
    expect((await ok('GET', `/messages/${ids.booking1}`, admin)).thread.status).toBe('replied');
    expect((await req('POST', '/messages/987654/status', admin, { status: 'closed' })).statusCode).toBe(404);
  });
});

describe('demo seed', () => {
  it('adds ~40 messages in 14 threads for existing customers, gives customers a login, and is idempotent', async () => {
    const s = await makeAdminApp();
    try {
      const db = s.platform.db;
      const v = await insertVehicle(db, { name: 'Seat Leon' });
      const ela = await insertCustomer(db, { name: 'Ela Demo', email: 'ela.demo@example.test' });
      const fuat = await insertCustomer(db, { name: 'Fuat Demo', email: 'fuat.demo@example.test' });
      await insertBooking(db, {
        vehicleId: v,
        customerId: ela,
        status: 'confirmed',
        total: '10',
        createdAt: '2026-05-01T00:00:00Z',
      });
      await s.userWithKey('administrator');
      const count = async () =>
        (await one<{ n: number; t: number }>(
          db,
          sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE parent_id IS NULL)::int AS t FROM rental_messages`,
        ))!;
      await seedMessages(s.platform);
      const after = await count();
      expect(after.n).toBeGreaterThanOrEqual(35);
      expect(after.t).toBe(14);
      await seedMessages(s.platform);
      expect(await count()).toEqual(after);
      const kinds = await one<{ s: number; p: number; c: number }>(
        db,
        sql`SELECT count(DISTINCT status)::int AS s, count(DISTINCT priority)::int AS p, count(DISTINCT category)::int AS c FROM rental_messages WHERE parent_id IS NULL`,
      );
      expect(kinds).toEqual({ s: 3, p: 4, c: 6 });
      // Ela got a customer login (e-mail + demo password) and sees only her threads.
      const login = await s.inject({
        method: 'POST',
        url: '/wp-json/rova/v1/auth/login',
        payload: { login: 'ela.demo@example.test', password: DEMO_CUSTOMER_PASSWORD },
      });
      expect(login.statusCode).toBe(200);
      expect(login.json().user.role).toBe('customer');
      const cookie = login.cookies.find((c) => c.name === 'rova_session')!.value;
      const mine = await s.inject({
        method: 'GET',
        url: `${API}/my/messages?per_page=100`,
        cookies: { rova_session: cookie },
        headers: { 'x-wp-nonce': login.json().nonce },
      });
      expect(mine.statusCode).toBe(200);
      const items = mine.json().data.items as { customer_id: number }[];
      expect(items.length).toBe(7);
      expect(items.every((i) => i.customer_id === ela)).toBe(true);
      const linked = await one<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM rental_customers WHERE id IN (${ela}, ${fuat}) AND user_id IS NOT NULL`,
      );
      expect(linked?.n).toBe(2);
    } finally {
      await s.close();
    }
  });
});
