// Booking without an account: the e-mail code, the guest pass, the manage link of the booking mails, and the
// guest's bookings attached to an account registered later with the same verified address.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { signManageToken } from '../../../src/modules/rental/guests/manage-link.js';
import { vehicle } from '../helpers.js';

const V2 = '/wp-json/rova-rental/v2';
const R = '/wp-json/rova/v1';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  template: string;
}

describe('guest bookings', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    admin = (await t.userWithKey('administrator')).key;
  }, 240_000);
  afterAll(async () => t?.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.inject({ method: 'POST', url: V2 + url, payload: payload as object, headers });
  const outbox = async (to: string): Promise<OutboxMail[]> => {
    const r = await t.inject({
      method: 'GET',
      url: `${R}/outbox?to=${encodeURIComponent(to)}`,
      headers: { 'x-rova-api-key': admin },
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as OutboxMail[]; // newest first
  };
  const codeOf = async (email: string) => {
    const m = (await outbox(email)).find((x) => x.template === 'guest_code');
    return /Your booking code: (\d{6})/.exec(m!.subject)![1]!;
  };
  const manageTokenOf = async (email: string) => {
    const m = (await outbox(email)).find((x) => x.template === 'booking_created');
    return decodeURIComponent(/rova_manage=([^\s"&<)]+)/.exec(m!.text)![1]!);
  };
  const askCode = async (email: string, name = 'Gina Guest') => {
    const r = await post('/guest/verification', { email, name });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().data.verification_id as number;
  };
  const pass = async (email: string, name = 'Gina Guest') => {
    const id = await askCode(email, name);
    const r = await post('/guest/verification/confirm', { verification_id: id, code: await codeOf(email) });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().data.guest_pass as string;
  };
  let n = 0;
  const book = async (guestPass: string) => {
    n += 1;
    const v = await vehicle(t, { price_per_day: '50.00' });
    const r = await post(
      '/guest/booking/create',
      {
        vehicle_id: v,
        pickup_date: `2033-0${n}-10`,
        return_date: `2033-0${n}-12`,
        payment_method: 'offline',
        payment_plan: 'full',
      },
      { 'x-rova-guest-pass': guestPass },
    );
    expect(r.statusCode, r.body).toBe(201);
    return r.json().data.booking as { id: number; reference: string; status: string };
  };
  const manage = (token: string) =>
    t.inject({ method: 'GET', url: `${V2}/guest/manage/booking`, headers: { 'x-rova-manage-token': token } });

  it('a code is mailed; the right code gives a guest pass for the verified name and address; a code works once', async () => {
    const email = 'gina@example.test';
    const id = await askCode(email);
    const mails = await outbox(email);
    expect(mails[0]).toMatchObject({ template: 'guest_code' });
    expect(mails[0]!.text).toContain('expires in 10 minutes');
    // stored hashed: the code is nowhere in the table
    const code = await codeOf(email);
    const row = (await t.platform.db.execute(
      sql`SELECT code_hash FROM rental_guest_codes WHERE id = ${id}`,
    )) as unknown as {
      rows: { code_hash: string }[];
    };
    expect(row.rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.rows[0]!.code_hash).not.toContain(code);
    const ok = await post('/guest/verification/confirm', { verification_id: id, code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      success: true,
      data: { email, name: 'Gina Guest', guest_pass: expect.stringMatching(/^rgp_/) },
    });
    const again = await post('/guest/verification/confirm', { verification_id: id, code });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      success: false,
      error_code: 'INVALID_PARAMS',
      details: { reason: 'code_expired' },
    });
  });

  it('wrong code → 400 with attempts left; the fifth wrong try and every one after (even the right code) → 429', async () => {
    const email = 'wrong@example.test';
    const id = await askCode(email);
    const code = await codeOf(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let left = 4; left >= 1; left--) {
      const r = await post('/guest/verification/confirm', { verification_id: id, code: wrong });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({
        error_code: 'INVALID_PARAMS',
        details: { reason: 'wrong_code', attempts_left: left },
      });
    }
    const fifth = await post('/guest/verification/confirm', { verification_id: id, code: wrong });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toMatchObject({ error_code: 'RATE_LIMIT_EXCEEDED', details: { reason: 'too_many_attempts' } });
    const right = await post('/guest/verification/confirm', { verification_id: id, code });
    expect(right.statusCode).toBe(429);
    // a malformed code is refused by the schema
    expect((await post('/guest/verification/confirm', { verification_id: id, code: '12345' })).statusCode).toBe(400);
  });

  it('an expired code → 400 code_expired; a newer code replaces the older one', async () => {
    const email = 'late@example.test';
    const id = await askCode(email);
    const code = await codeOf(email);
    await t.platform.db.execute(
      sql`UPDATE rental_guest_codes SET expires_at = now() - interval '1 second' WHERE id = ${id}`,
    );
    const r = await post('/guest/verification/confirm', { verification_id: id, code });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ details: { reason: 'code_expired' } });
    const first = await askCode(email);
    const firstCode = await codeOf(email);
    await askCode(email);
    const old = await post('/guest/verification/confirm', { verification_id: first, code: firstCode });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toMatchObject({ details: { reason: 'code_expired' } });
  });

  it('codes are rate-limited per address: the sixth in an hour → 429', async () => {
    const email = 'flood@example.test';
    for (let i = 0; i < 5; i++) await askCode(email);
    const r = await post('/guest/verification', { email, name: 'F' });
    expect(r.statusCode).toBe(429);
    expect(r.headers['retry-after']).toBeDefined();
  });

  it('no booking without a valid pass; with one, the booking is made for the verified guest and audited', async () => {
    const body = {
      vehicle_id: 1,
      pickup_date: '2033-09-01',
      return_date: '2033-09-02',
      payment_method: 'offline',
      payment_plan: 'full',
    };
    const none = await post('/guest/booking/create', body, { 'x-rova-guest-pass': 'rgp_forged' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ success: false, error_code: 'AUTH_REQUIRED' });
    const b = await book(await pass('bob@example.test', 'Bob Guest'));
    expect(b.status).toBe('pending_payment');
    const row = (await t.platform.db.execute(
      sql`SELECT customer_name, customer_email FROM rental_bookings WHERE id = ${b.id}`,
    )) as unknown as { rows: { customer_name: string; customer_email: string }[] };
    expect(row.rows[0]).toEqual({ customer_name: 'Bob Guest', customer_email: 'bob@example.test' });
    const audit = (await t.platform.db.execute(
      sql`SELECT target, status, details FROM rova_audit_log WHERE route = ${`${V2}/guest/booking/create`} AND target = ${`booking:${b.id}`}`,
    )) as unknown as { rows: { status: number; details: Record<string, unknown> }[] };
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ status: 201, details: { actor: 'guest', email: 'bob@example.test' } });
  });

  it('the booking mail’s manage link opens that booking only; cancel and message through it; revoked/expired/forged → 401', async () => {
    const email = 'manage@example.test';
    const b = await book(await pass(email, 'Mara Manage'));
    const token = await manageTokenOf(email);
    const view = await manage(token);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().data).toMatchObject({
      id: b.id,
      reference: b.reference,
      cancellation: { cancellable: true, free: true },
    });
    // another guest's booking: its own token opens only it, and a token cannot be re-pointed (signature)
    const other = await book(await pass('other@example.test', 'Otto Other'));
    const otherToken = await manageTokenOf('other@example.test');
    expect((await manage(otherToken)).json().data.id).toBe(other.id);
    const [ref, issued, expires, sig] = token.split('.');
    expect(ref).toBe(b.reference);
    expect((await manage([other.reference, issued, expires, sig].join('.'))).statusCode).toBe(401);
    expect((await manage([ref, issued, String(Number(expires) + 86_400_000), sig].join('.'))).statusCode).toBe(401);
    // expired: a link signed for a return 31 days ago
    const expired = signManageToken(t.platform.config.secret, b.reference, new Date(Date.now() - 31 * 86_400_000));
    const exp = await manage(expired);
    expect(exp.statusCode).toBe(401);
    expect(exp.json()).toMatchObject({ success: false, error_code: 'AUTH_REQUIRED' });
    // a message about the booking reaches the store's inbox, linked to the booking
    const msg = await post(
      '/guest/manage/messages',
      { message: 'Can I bring a child seat?' },
      { 'x-rova-manage-token': token },
    );
    expect(msg.statusCode, msg.body).toBe(200);
    const inbox = await t.inject({
      method: 'GET',
      url: `/wp-json/rova-rental/v1/messages/${msg.json().data.id}`,
      headers: { 'x-rova-api-key': admin },
    });
    expect(inbox.statusCode, inbox.body).toBe(200);
    expect(JSON.stringify(inbox.json())).toContain('Can I bring a child seat?');
    // cancel: the account's rules (free before the deadline)
    const c = await post('/guest/manage/cancel', {}, { 'x-rova-manage-token': token });
    expect(c.statusCode, c.body).toBe(200);
    expect(c.json()).toMatchObject({ success: true, data: { booking: { id: b.id, status: 'cancelled' }, fee: 0 } });
    expect((await post('/guest/manage/cancel', {}, { 'x-rova-manage-token': token })).statusCode).toBe(409);
    expect((await manage(otherToken)).json().data.status).toBe('pending_payment');
    // the cancellation mail carries a link too; revoking refuses every link issued until now
    const rv = await post('/guest/manage/revoke', {}, { 'x-rova-manage-token': token });
    expect(rv.statusCode).toBe(200);
    expect((await manage(token)).statusCode).toBe(401);
    const audit = (await t.platform.db.execute(
      sql`SELECT route, details FROM rova_audit_log WHERE target = ${`booking:${b.id}`} AND route LIKE ${`${V2}/guest/manage/%`} ORDER BY id`,
    )) as unknown as { rows: { route: string; details: Record<string, unknown> }[] };
    expect(audit.rows.map((r) => r.route.slice(V2.length))).toEqual([
      '/guest/manage/messages',
      '/guest/manage/cancel',
      '/guest/manage/cancel',
      '/guest/manage/revoke',
    ]);
    expect(audit.rows[0]!.details).toMatchObject({ actor: 'guest', via: 'manage_link' });
  });

  it('the manage link changes the dates by the account’s rules: quote, change (Idempotency-Key per booking), revoked → 401', async () => {
    const email = 'change@example.test';
    const b = await book(await pass(email, 'Carl Change'));
    const token = await manageTokenOf(email);
    const head = { 'x-rova-manage-token': token };
    const month = (await manage(token)).json().data.pickup_at.slice(0, 8) as string; // 2033-0n-
    const body = { pickup_date: `${month}10`, return_date: `${month}14` };
    const q = await post('/guest/manage/change/quote', body, head);
    expect(q.statusCode, q.body).toBe(200);
    expect(q.json().data).toMatchObject({
      booking: { id: b.id, days: 4 },
      previous_total: 100,
      total: 200,
      difference: 100,
      fee: 0,
      refund: 0,
      due: 0,
      currency: 'USD',
    });
    // the quote wrote nothing
    expect((await manage(token)).json().data).toMatchObject({
      days: 2,
      total: 100,
      return_at: expect.stringContaining(`${month}12T`),
    });
    // the account's rules: the same dates are no change
    const same = await post('/guest/manage/change', { pickup_date: `${month}10`, return_date: `${month}12` }, head);
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });

    const keyed = { ...head, 'idempotency-key': 'guest-change-1' };
    const c = await post('/guest/manage/change', body, keyed);
    expect(c.statusCode, c.body).toBe(200);
    expect(c.headers['idempotent-replayed']).toBeUndefined();
    expect(c.json()).toMatchObject({
      success: true,
      message: 'Booking changed.',
      data: { booking: { id: b.id, days: 4, total: 200 }, previous_total: 100, total: 200 },
    });
    expect((await manage(token)).json().data).toMatchObject({
      days: 4,
      total: 200,
      return_at: expect.stringContaining(`${month}14T`),
    });
    expect((await outbox(email)).filter((m) => m.template === 'booking_changed')).toHaveLength(1);
    // a replayed key answers the same change, once; the key with another body → 422
    const again = await post('/guest/manage/change', body, keyed);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(c.json());
    expect((await outbox(email)).filter((m) => m.template === 'booking_changed')).toHaveLength(1);
    const other = await post('/guest/manage/change', { ...body, return_date: `${month}15` }, keyed);
    expect(other.statusCode).toBe(422);
    expect((await manage(token)).json().data).toMatchObject({
      days: 4,
      return_at: expect.stringContaining(`${month}14T`),
    });

    const audit = (await t.platform.db.execute(
      sql`SELECT route, details FROM rova_audit_log WHERE target = ${`booking:${b.id}`} AND route = ${`${V2}/guest/manage/change`} ORDER BY id`,
    )) as unknown as { rows: { route: string; details: Record<string, unknown> }[] };
    expect(audit.rows.length).toBeGreaterThanOrEqual(1);
    expect(audit.rows[0]!.details).toMatchObject({ actor: 'guest', via: 'manage_link' });

    // revoked, forged or no token → 401, nothing changed
    expect((await post('/guest/manage/revoke', {}, head)).statusCode).toBe(200);
    const later = { pickup_date: `${month}11`, return_date: `${month}14` };
    const rq = await post('/guest/manage/change/quote', later, head);
    expect(rq.statusCode).toBe(401);
    expect(rq.json()).toMatchObject({ success: false, error_code: 'AUTH_REQUIRED' });
    const rc = await post('/guest/manage/change', later, { ...head, 'idempotency-key': 'guest-change-2' });
    expect(rc.statusCode).toBe(401);
    expect(rc.json()).toMatchObject({ success: false, error_code: 'AUTH_REQUIRED' });
    expect((await post('/guest/manage/change', later, { 'x-rova-manage-token': 'x.y.z.w' })).statusCode).toBe(401);
    const row = (await t.platform.db.execute(
      sql`SELECT pickup_at, return_at FROM rental_bookings WHERE id = ${b.id}`,
    )) as unknown as { rows: { pickup_at: Date | string; return_at: Date | string }[] };
    expect(new Date(row.rows[0]!.pickup_at).toISOString().slice(0, 10)).toBe(`${month}10`);
  });

  it('signing up later with the same address: once it is verified, the guest’s bookings are in the account', async () => {
    const email = 'later@example.test';
    const b = await book(await pass(email, 'Lara Later'));
    const reg = await t.inject({
      method: 'POST',
      url: `${R}/auth/register`,
      payload: { email, password: 'long enough pw' },
    });
    expect(reg.statusCode).toBe(202);
    const login = await t.inject({
      method: 'POST',
      url: `${R}/auth/token`,
      payload: { login: email, password: 'long enough pw' },
    });
    expect(login.statusCode, login.body).toBe(200);
    const auth = { authorization: `Bearer ${login.json().access_token as string}` };
    const mine = () => t.inject({ method: 'GET', url: `${V2}/my/bookings`, headers: auth });
    // not before the address is verified
    expect((await mine()).json().data.items).toEqual([]);
    let verifyMail: OutboxMail | undefined;
    for (let i = 0; i < 50 && !verifyMail; i++) {
      verifyMail = (await outbox(email)).find((m) => m.template === 'verify_email');
      if (!verifyMail) await new Promise((r) => setTimeout(r, 100));
    }
    const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(verifyMail!.text)![1]!;
    expect((await t.inject({ method: 'GET', url: `${R}/auth/verify-email?token=${token}` })).statusCode).toBe(200);
    const items = (await mine()).json().data.items as { id: number }[];
    expect(items.map((x) => x.id)).toEqual([b.id]);
  });
});
