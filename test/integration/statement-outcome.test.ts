import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditWriter } from '../../src/platform/audit/writer.js';
import { rows } from '../../src/platform/db/types.js';
import { startStripe } from '../rental/journey/stripe-server.js';
import { vehicle } from '../rental/helpers.js';
import { cuttableProxy, type ClientMessage, type CuttableProxy } from '../helpers/tcp-cut.js';
import { twoNodes, type TwoNodes } from '../helpers/two-nodes.js';

// Issue 37 item 5 for the writes a request makes outside a transaction of its own (single statements): the audit
// row, the idempotency key's final mark, the Stripe intent id recorded on the payment. Node a reaches PostgreSQL
// through a proxy that cuts the connection right after the statement (its answer dropped, or the statement itself
// never delivered); what the request answers and what the database holds must agree.
const SK = 'sk_test_rovaLocalFake123';
const WHSEC = 'whsec_rovaLocalWebhookSecret';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let n: TwoNodes;
let proxy: CuttableProxy;
let stripe: Awaited<ReturnType<typeof startStripe>>;

beforeAll(async () => {
  proxy = await cuttableProxy();
  stripe = await startStripe({ secretKey: SK });
  n = await twoNodes(
    {
      RENTAL_WRITE_RATE_LIMIT: '1000000',
      RENTAL_PUBLIC_RATE_LIMIT: '1000000',
      DATABASE_COMMIT_OUTCOME_WAIT_MS: '5000',
      BOOKING_PAYMENT_PROVIDERS: 'offline,stripe',
      STRIPE_SECRET_KEY: SK,
      STRIPE_WEBHOOK_SECRET: WHSEC,
      STRIPE_API_BASE: stripe.url,
    },
    { routeA: (url) => proxy.route(url) },
  );
}, 240_000);
afterAll(async () => {
  await n?.close();
  await proxy?.close();
  await stripe?.close();
});

const text = (m: ClientMessage) => m.body.toString('latin1');
const isCommit = (m: ClientMessage) => m.type === 'Q' && /^commit\b/i.test(text(m));

/** A cut armed for at most `ms`: the number of connections cut, 0 when nothing matched meanwhile (then disarmed). */
async function cutWithin(armed: Promise<number>, ms: number): Promise<number> {
  const cut = await Promise.race([armed, sleep(ms).then(() => 0)]);
  if (cut === 0) proxy.disarm();
  return cut;
}

/** After a cut: node a's pool past its dead connections (3 answers in a row). */
async function settle(): Promise<void> {
  proxy.disarm();
  proxy.restore();
  for (let ok = 0, until = Date.now() + 30_000; ok < 3 && Date.now() < until;) {
    ok = await n.a.platform.db.execute(sql`SELECT 1`).then(
      () => ok + 1,
      () => 0,
    );
    if (ok === 0) await sleep(50);
  }
}

const count = async (q: ReturnType<typeof sql>) => (await rows<{ n: number }>(n.b.platform.db, q))[0]!.n;

describe('single statements outside a transaction, the connection lost right after them (issue 37 item 5)', () => {
  it('the audit batch: its COMMIT answer lost → the append resolves (the rows committed) and they are stored once', async () => {
    const writer = new AuditWriter(n.a.platform.db);
    const entry = (requestId: string) => ({
      requestId,
      actorUserId: null,
      actorLogin: 'outcome-test',
      authMethod: 'none',
      apiKeyId: null,
      ip: '127.0.0.1',
      method: 'POST',
      route: '/outcome-test',
      path: '/outcome-test',
      target: null,
      status: 201,
      outcome: 'success' as const,
    });
    for (let round = 0; round < 3; round++) {
      const id = `audit-cut-${round}-${Date.now()}`;
      // the COMMIT that follows this batch's INSERT (the INSERT's parameters name the request)
      let sawInsert = false;
      const armed = proxy.cutAt(
        (m) => {
          if (m.type === 'B' && text(m).includes(id)) sawInsert = true;
          return sawInsert && isCommit(m);
        },
        { when: 'answer' },
      );
      const appended = writer.append(entry(id)).then(
        () => 'resolved',
        (err: unknown) => `rejected: ${String(err)}`,
      );
      expect(await cutWithin(armed, 10_000), 'the cut landed at the COMMIT after the audit INSERT').toBeGreaterThan(0);
      expect(await appended).toBe('resolved');
      await settle();
      expect(await count(sql`SELECT count(*)::int AS n FROM rova_audit_log WHERE request_id = ${id}`)).toBe(1);
    }
    // the INSERT's answer lost (before its COMMIT): nothing committed, and the append says so
    const id = `audit-cut-before-${Date.now()}`;
    const armed = proxy.cutAt((m) => m.type === 'B' && text(m).includes(id), { when: 'answer' });
    const appended = writer.append(entry(id)).then(
      () => 'resolved',
      () => 'rejected',
    );
    expect(await cutWithin(armed, 10_000)).toBeGreaterThan(0);
    expect(await appended).toBe('rejected');
    await settle();
    expect(await count(sql`SELECT count(*)::int AS n FROM rova_audit_log WHERE request_id = ${id}`)).toBe(0);
  }, 120_000);

  it('a request through the API: its audit COMMIT answer lost → answered as usual, its audit row stored once', async () => {
    const admin = (await n.a.userWithKey('administrator')).key;
    let sawAudit = false;
    const armed = proxy.cutAt(
      (m) => {
        if (m.type === 'B' && text(m).includes('"route":"/wp-json/rova/v1/users"')) sawAudit = true;
        return sawAudit && isCommit(m);
      },
      { when: 'answer' },
    );
    const res = await n.a.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/users',
      headers: { 'x-rova-api-key': admin },
      payload: { login: 'audited-once', email: 'audited-once@example.test', role: 'customer' },
    });
    expect(await cutWithin(armed, 10_000)).toBeGreaterThan(0);
    expect(res.statusCode, res.body).toBe(201);
    await settle();
    const id = (res.json() as { id: number }).id;
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM rova_audit_log WHERE route = '/wp-json/rova/v1/users' AND target = ${`user:${id}`}`,
      ),
    ).toBe(1);
  }, 120_000);

  it("the idempotency key's final mark never delivered → sent again: the same key answers the stored answer at once (not 409 in flight for the lease)", async () => {
    const admin = (await n.a.userWithKey('administrator')).key;
    const body = { login: 'marked-once', email: 'marked-once@example.test', role: 'customer' };
    const send = () =>
      n.a.inject({
        method: 'POST',
        url: '/wp-json/rova/v1/users',
        headers: { 'x-rova-api-key': admin, 'idempotency-key': 'mark-cut' },
        payload: body,
      });
    // the UPDATE that marks the key done is cut before it reaches the database
    const armed = proxy.cutAt((m) => m.type === 'P' && text(m).includes("SET status = 'done'"), { when: 'message' });
    const first = await send();
    expect(await cutWithin(armed, 10_000), 'the mark was cut').toBeGreaterThan(0);
    expect(first.statusCode, first.body).toBe(201);
    await settle();
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM rova_idempotent_requests WHERE key = 'mark-cut' AND status = 'done'`,
      ),
    ).toBe(1);
    const again = await send();
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await count(sql`SELECT count(*)::int AS n FROM rova_users WHERE login = 'marked-once'`)).toBe(1);
  }, 120_000);

  it("a Stripe booking: the statement recording the intent's id loses its answer → 201 with the client secret (not 503 for a booking that exists)", async () => {
    const { key } = await n.a.userWithKey('customer');
    const v = await vehicle(n.a);
    for (const [i, when] of (['answer', 'message'] as const).entries()) {
      const armed = proxy.cutAt(
        (m) => m.type === 'P' && text(m).includes('UPDATE rental_payments SET status = COALESCE'),
        { when },
      );
      const res = await n.a.inject({
        method: 'POST',
        url: '/wp-json/rova-rental/v2/booking/create',
        headers: { 'x-rova-api-key': key },
        payload: {
          vehicle_id: v,
          pickup_date: `2044-0${i + 1}-01`,
          return_date: `2044-0${i + 1}-03`,
          payment_method: 'stripe',
          payment_plan: 'full',
        },
      });
      expect(await cutWithin(armed, 10_000), `the cut landed (${when})`).toBeGreaterThan(0);
      expect(res.statusCode, res.body).toBe(201);
      const data = (res.json() as { data: { booking: { id: number }; payment: { client_secret: string } } }).data;
      expect(data.payment.client_secret).toMatch(/^pi_.+_secret_/);
      await settle();
      const [payment] = await rows<{ external_id: string | null; status: string }>(
        n.b.platform.db,
        sql`SELECT external_id, status FROM rental_payments WHERE booking_id = ${data.booking.id}`,
      );
      expect(payment?.external_id).toBe(data.payment.client_secret.split('_secret_')[0]);
    }
  }, 120_000);
});

// Issue 37 item 5 for the writes of a login and a password reset: each is one transaction (the session row; the spent
// token with the new password, the ended sessions and the verified mark), so a connection lost before its COMMIT
// leaves nothing (503, the same request may be sent again) and one lost after it is answered as the success it was.
describe('a login and a password reset, the connection lost around their COMMIT (issue 37 item 5)', () => {
  const R = '/wp-json/rova/v1';
  const sessions = (userId: number) =>
    count(sql`SELECT count(*)::int AS n FROM rova_sessions WHERE user_id = ${userId}`);

  it("login: the session INSERT's answer lost → 503 and no session; the COMMIT's answer lost → 200 with a cookie that works, one session", async () => {
    const user = await n.a.platform.auth.createUser({
      login: 'outcome-login',
      email: 'outcome-login@example.test',
      role: 'customer',
      password: 'a long password 1',
    });
    const login = (ua: string) =>
      n.a.inject({
        method: 'POST',
        url: `${R}/auth/login`,
        headers: { 'user-agent': ua },
        payload: { login: 'outcome-login', password: 'a long password 1' },
      });
    // before the COMMIT: the INSERT ran, its answer never came back
    const before = `outcome-before-${Date.now()}`;
    const cutInsert = proxy.cutAt((m) => m.type === 'B' && text(m).includes(before), { when: 'answer' });
    const lost = await login(before);
    expect(await cutWithin(cutInsert, 10_000), 'the cut landed after the session INSERT').toBeGreaterThan(0);
    await settle();
    expect(lost.statusCode, lost.body).toBe(503);
    expect(await sessions(user.id), 'a 503 left a session').toBe(0);
    // after the COMMIT: committed, its answer lost
    const after = `outcome-after-${Date.now()}`;
    let sawInsert = false;
    const cutCommit = proxy.cutAt(
      (m) => {
        if (m.type === 'B' && text(m).includes(after)) sawInsert = true;
        return sawInsert && isCommit(m);
      },
      { when: 'answer' },
    );
    const ok = await login(after);
    expect(await cutWithin(cutCommit, 10_000), "the cut landed at the session's COMMIT").toBeGreaterThan(0);
    expect(ok.statusCode, ok.body).toBe(200);
    await settle();
    expect(await sessions(user.id)).toBe(1);
    const cookie = ok.cookies.find((c) => c.name === 'rova_session')!;
    const nonce = await n.b.inject({
      method: 'GET',
      url: `${R}/auth/nonce`,
      headers: { cookie: `rova_session=${cookie.value}` },
    });
    expect(nonce.statusCode, nonce.body).toBe(200);
  }, 120_000);

  it("password reset: the spent token's answer lost → 503 and the token still works; the COMMIT's answer lost → 200, the new password set", async () => {
    const email = 'outcome-reset@example.test';
    const user = await n.a.platform.auth.createUser({
      login: 'outcome-reset',
      email,
      role: 'customer',
      password: 'the old password 1',
    });
    const forgot = await n.a.inject({ method: 'POST', url: `${R}/auth/password/forgot`, payload: { email } });
    expect(forgot.statusCode, forgot.body).toBe(202);
    const [mail] = await rows<{ text: string }>(
      n.b.platform.db,
      sql`SELECT text_body AS text FROM rova_mail_outbox WHERE to_address = ${email} AND template = 'password_reset'`,
    );
    const token = /rova_reset=([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    const reset = () =>
      n.a.inject({
        method: 'POST',
        url: `${R}/auth/password/reset`,
        payload: { token, password: 'the new password 2' },
      });
    const spends = (m: ClientMessage) => m.type === 'P' && text(m).includes('UPDATE rova_account_tokens SET used_at');
    const unused = () =>
      count(sql`SELECT count(*)::int AS n FROM rova_account_tokens WHERE user_id = ${user.id} AND used_at IS NULL`);
    // before the COMMIT: the token's UPDATE ran, its answer never came back
    const cutSpend = proxy.cutAt(spends, { when: 'answer' });
    const lost = await reset();
    expect(await cutWithin(cutSpend, 10_000), 'the cut landed after the token UPDATE').toBeGreaterThan(0);
    await settle();
    expect(lost.statusCode, lost.body).toBe(503);
    expect(await unused(), 'a 503 spent the token').toBe(1);
    // after the COMMIT: committed, its answer lost
    let sawSpend = false;
    const cutCommit = proxy.cutAt(
      (m) => {
        if (spends(m)) sawSpend = true;
        return sawSpend && isCommit(m);
      },
      { when: 'answer' },
    );
    const ok = await reset();
    expect(await cutWithin(cutCommit, 10_000), "the cut landed at the reset's COMMIT").toBeGreaterThan(0);
    expect(ok.statusCode, ok.body).toBe(200);
    await settle();
    expect(await unused()).toBe(0);
    const login = (password: string) =>
      n.b.inject({ method: 'POST', url: `${R}/auth/login`, payload: { login: 'outcome-reset', password } });
    expect((await login('the old password 1')).statusCode).toBe(401);
    expect((await login('the new password 2')).statusCode).toBe(200);
  }, 120_000);
});
