// @integration: the register limit is counted in Redis; e-mail uniqueness is a constraint
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { startSmtp } from './smtp.js';

const R = '/wp-json/rova/v1';
const REGISTERED = {
  success: true,
  message: 'Check your inbox: a mail to finish the registration is on its way to this address.',
};

describe('customer accounts and e-mail over a real SMTP server', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await makeApp({
      env: {
        SMTP_URL: smtp.url,
        STORE_NAME: 'Aegean Cars',
        MAIL_FROM: 'Aegean Cars <cars@example.test>',
        PUBLIC_URL: 'https://cars.example.test',
        STORE_TIMEZONE: 'Europe/Istanbul',
      },
    });
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.inject({ method: 'POST', url: R + url, payload: payload as object, headers });
  const tokenIn = (text: string, path: string) =>
    new RegExp(`${path.replace(/[/.]/g, '\\$&')}\\?token=([A-Za-z0-9_-]+)`).exec(text)?.[1];

  it('register → 202 (a customer account); the verification mail (HTML + text, store name) arrives; the link verifies once', async () => {
    const r = await post('/auth/register', {
      email: 'Mia@Example.test',
      password: 'long enough pw',
      first_name: 'Mia',
      last_name: 'Wong',
      phone: '+90 555',
    });
    expect(r.statusCode).toBe(202);
    expect(r.json()).toEqual(REGISTERED);
    const m = await smtp.waitFor((x) => x.to.includes('mia@example.test'));
    expect(m.subject).toBe('[Aegean Cars] Confirm your e-mail address');
    expect(m.from).toBe('cars@example.test');
    expect(m.raw).toMatch(/Content-Type: text\/plain/);
    expect(m.raw).toMatch(/Content-Type: text\/html/);
    const token = tokenIn(m.decoded, 'https://cars.example.test/wp-json/rova/v1/auth/verify-email');
    expect(token).toBeTruthy();
    const v = await t.inject({ method: 'GET', url: `${R}/auth/verify-email?token=${token}` });
    expect(v.statusCode).toBe(200);
    expect(v.json()).toMatchObject({
      verified: true,
      user: {
        email: 'mia@example.test',
        role: 'customer',
        first_name: 'Mia',
        last_name: 'Wong',
        phone: '+90 555',
        email_verified: true,
        display_name: 'Mia Wong',
      },
    });
    const again = await t.inject({ method: 'GET', url: `${R}/auth/verify-email?token=${token}` });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'rova_invalid_token', data: { status: 400 } });
  });

  it('GET /auth/password/policy: the one rule of registration, reset and change, cacheable for an hour', async () => {
    const r = await t.inject({ method: 'GET', url: `${R}/auth/password/policy` });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('public, max-age=3600');
    expect(r.json()).toEqual({ min_length: 10, max_length: 200, rule: 'at least 10 characters' });
    // nine characters: refused, and the reason says what the rule wants
    const weak = await post('/auth/register', { email: 'nine@example.test', password: '123456789' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().data.params).toEqual({ password: 'password must NOT have fewer than 10 characters' });
  });

  it('password policy; an address that has an account gets the same answer as a new one, its owner a mail, and no second account (issue 19 item 7)', async () => {
    const short = await post('/auth/register', { email: 'short@example.test', password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().data.params).toHaveProperty('password');
    const fresh = await post('/auth/register', { email: 'fresh-one@example.test', password: 'another long pw' });
    const taken = await post('/auth/register', { email: 'MIA@example.test', password: 'another long pw' });
    expect([taken.statusCode, taken.json()]).toEqual([fresh.statusCode, fresh.json()]);
    expect(taken.statusCode).toBe(202);
    const m = await smtp.waitFor(
      (x) => x.to.includes('mia@example.test') && x.subject.includes('already have an account'),
    );
    expect(m.decoded).toContain('No new account was created');
    const n = await t.platform.db.execute(
      sql`SELECT count(*)::int AS n FROM rova_users WHERE email = 'mia@example.test'`,
    );
    expect((n as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
    // the owner's password is untouched: the attempt's password does not log in
    expect((await post('/auth/login', { login: 'mia@example.test', password: 'another long pw' })).statusCode).toBe(
      401,
    );
    expect((await post('/auth/login', { login: 'mia@example.test', password: 'long enough pw' })).statusCode).toBe(200);
  });

  it('forgot: the same answer whether or not the e-mail exists; reset token is single-use and logs every session out', async () => {
    await post('/auth/register', { email: 'ola@example.test', password: 'first password' });
    const login = await post('/auth/login', { login: 'ola@example.test', password: 'first password' });
    expect(login.statusCode).toBe(200);
    const cookie = `rova_session=${login.cookies.find((c) => c.name === 'rova_session')!.value}`;
    const nonce = login.json().nonce as string;
    const app = await post('/auth/token', { login: 'ola@example.test', password: 'first password' });
    expect(app.statusCode).toBe(200);
    const refresh = app.json().refresh_token as string;
    const known = await post('/auth/password/forgot', { email: 'ola@example.test' });
    const unknown = await post('/auth/password/forgot', { email: 'nobody@example.test' });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(unknown.json()).toEqual(known.json());
    const m = await smtp.waitFor((x) => x.to.includes('ola@example.test') && x.subject.includes('Reset'));
    expect(smtp.mails.some((x) => x.to.includes('nobody@example.test'))).toBe(false);
    // the link opens the account page Rova serves (the widget asks for the new password first), on the public address
    const token = /https:\/\/cars\.example\.test\/account\?rova_reset=([A-Za-z0-9_-]+)/.exec(m.decoded)?.[1];
    expect(token).toBeTruthy();
    const page = await t.inject({ method: 'GET', url: `/account?rova_reset=${token!}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('data-rova-book="account"');
    expect(page.body).toContain('<title>My account — Aegean Cars</title>');
    expect(page.body).not.toContain(token!); // the token stays in the address, never in the page
    const short = await post('/auth/password/reset', { token, password: 'short' });
    expect(short.statusCode).toBe(400);
    // the reason names the rule the policy publishes
    expect(short.json().data.params.password).toBe('password must NOT have fewer than 10 characters');
    const ok = await post('/auth/password/reset', { token, password: 'second password' });
    expect(ok.statusCode).toBe(200);
    expect((await post('/auth/password/reset', { token, password: 'third password!' })).statusCode).toBe(400);
    expect((await post('/auth/login', { login: 'ola@example.test', password: 'first password' })).statusCode).toBe(401);
    expect((await post('/auth/login', { login: 'ola@example.test', password: 'second password' })).statusCode).toBe(
      200,
    );
    // the app's session ended too: its refresh token is refused
    expect((await post('/auth/token/refresh', { refresh_token: refresh })).statusCode).toBe(401);
    // the old cookie session ended
    const me = await t.inject({ method: 'GET', url: `${R}/profile`, headers: { cookie, 'x-wp-nonce': nonce } });
    expect(me.statusCode).toBe(401);
    await smtp.waitFor((x) => x.to.includes('ola@example.test') && x.subject.includes('password was changed'));
  });

  it('profile: read and update with cookie + nonce, and with an API key; anonymous → 401', async () => {
    await post('/auth/register', { email: 'pat@example.test', password: 'pat password 1' });
    const login = await post('/auth/login', { login: 'pat@example.test', password: 'pat password 1' });
    const h = {
      cookie: `rova_session=${login.cookies.find((c) => c.name === 'rova_session')!.value}`,
      'x-wp-nonce': login.json().nonce as string,
    };
    const put = await t.inject({
      method: 'PUT',
      url: `${R}/profile`,
      headers: h,
      payload: { first_name: 'Pat', phone: '+1 222' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().user).toMatchObject({ email: 'pat@example.test', first_name: 'Pat', phone: '+1 222' });
    expect((await t.inject({ method: 'GET', url: `${R}/profile`, headers: h })).json().user.first_name).toBe('Pat');
    expect((await t.inject({ method: 'GET', url: `${R}/profile` })).statusCode).toBe(401);
    const k = await t.userWithKey('customer');
    expect(
      (await t.inject({ method: 'GET', url: `${R}/profile`, headers: { 'x-rova-api-key': k.key } })).statusCode,
    ).toBe(200);
    expect(
      (await t.inject({ method: 'PUT', url: `${R}/profile`, headers: h, payload: { role: 'administrator' } }))
        .statusCode,
    ).toBe(400);
  });

  it('the register limit (10 per address per hour): the 11th → 429 whose Retry-After is the real wait, not a fixed minute (issue 19 item 7)', async () => {
    const from = '198.51.100.123';
    for (let i = 0; i < 10; i++) {
      const r = await t.inject({
        method: 'POST',
        url: '/wp-json/rova/v1/auth/register',
        remoteAddress: from,
        payload: { email: `limit${i}-${Date.now()}@example.test`, password: 'long enough password' },
      });
      expect(r.statusCode, r.body).toBe(202);
    }
    const limited = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/auth/register',
      remoteAddress: from,
      payload: { email: `limit-x-${Date.now()}@example.test`, password: 'long enough password' },
    });
    expect(limited.statusCode).toBe(429);
    const wait = Number(limited.headers['retry-after']);
    // the hour's window opened moments ago: the wait is close to an hour, not 60 s
    expect(wait).toBeGreaterThan(3000);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(limited.json().message).toContain(`${wait} s`);
  });

  it('bad input on every account route → 4xx, never 500', async () => {
    const bodies: unknown[] = [
      {},
      [],
      'x',
      { email: 'not-an-email', password: 'x'.repeat(20) },
      { email: 'a@b.co', password: 'y'.repeat(300) },
      { email: 'a@b.co', password: 'p'.repeat(12), extra: 1 },
      { email: 'a\u0000@b.co', password: 'p'.repeat(12) },
    ];
    for (const url of ['/auth/register', '/auth/password/forgot', '/auth/password/reset']) {
      for (const b of bodies) {
        const r = await post(url, b);
        expect(r.statusCode, `${url} ${JSON.stringify(b)}`).toBeGreaterThanOrEqual(400);
        expect(r.statusCode).toBeLessThan(500);
      }
    }
    for (const q of ['', '?token=', '?token=../../x', `?token=${'a'.repeat(500)}`]) {
      const r = await t.inject({ method: 'GET', url: `${R}/auth/verify-email${q}` });
      expect(r.statusCode).toBe(400);
    }
  });

  it('without SMTP_URL mails land in the outbox an admin reads at GET /rova/v1/outbox', async () => {
    const u = await makeApp();
    try {
      expect(
        (
          await u.inject({
            method: 'POST',
            url: `${R}/auth/register`,
            payload: { email: 'box@example.test', password: 'outbox password' },
          })
        ).statusCode,
      ).toBe(202);
      const admin = await u.userWithKey('administrator');
      const r = await u.inject({
        method: 'GET',
        url: `${R}/outbox?to=box@example.test`,
        headers: { 'x-rova-api-key': admin.key },
      });
      expect(r.statusCode).toBe(200);
      expect(r.headers['x-wp-total']).toBe('1');
      expect(r.json()[0]).toMatchObject({
        to: 'box@example.test',
        template: 'verify_email',
        status: 'stored',
        subject: '[Rova] Confirm your e-mail address',
      });
      expect(r.json()[0].html).toContain('<a href="http://127.0.0.1:8080/wp-json/rova/v1/auth/verify-email?token=');
      const cust = await u.userWithKey('customer');
      expect(
        (await u.inject({ method: 'GET', url: `${R}/outbox`, headers: { 'x-rova-api-key': cust.key } })).statusCode,
      ).toBe(403);
    } finally {
      await u.close();
    }
  }, 240_000);
});
