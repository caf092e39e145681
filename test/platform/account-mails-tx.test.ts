// Issue 36: an account mail (verification, password reset, the notice of a new password — by a reset or changed while
// signed in —, a guest's code) is written
// to the outbox in the transaction of the change it announces. A failure injected after the outbox write — a
// deferred trigger that refuses the mail at COMMIT — rolls back the change with its mail: no account, token,
// password or code is left without the mail that tells of it, and no mail of a change that did not happen.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { one, rows } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';

const R = '/wp-json/rova/v1';
const V2 = '/wp-json/rova-rental/v2';
const ACCOUNT = 'https://shop.example.test/my-account';
let t: TestApp;

beforeAll(async () => {
  t = await makeApp({ env: { ACCOUNT_URL: ACCOUNT } });
  // refuses, at the commit of the transaction that wrote it, a mail of a template listed in test_refused_mail
  await t.platform.db.execute(sql.raw('CREATE TABLE test_refused_mail (template text PRIMARY KEY)'));
  await t.platform.db.execute(
    sql.raw(`CREATE FUNCTION test_refuse_mail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF EXISTS (SELECT 1 FROM test_refused_mail WHERE template = NEW.template) THEN
        RAISE EXCEPTION 'failure injected after the outbox write';
      END IF; RETURN NULL; END $$`),
  );
  await t.platform.db.execute(
    sql.raw(`CREATE CONSTRAINT TRIGGER test_refuse_mail AFTER INSERT ON rova_mail_outbox
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_refuse_mail()`),
  );
}, 240_000);
afterAll(async () => t?.close());

const refuse = (template: string) =>
  t.platform.db.execute(sql`INSERT INTO test_refused_mail (template) VALUES (${template})`);
const allow = (template: string) =>
  t.platform.db.execute(sql`DELETE FROM test_refused_mail WHERE template = ${template}`);
const post = (url: string, payload: object) => t.inject({ method: 'POST', url, payload });
const mails = (to: string, template: string) =>
  rows<{ text_body: string }>(
    t.platform.db,
    sql`SELECT text_body FROM rova_mail_outbox WHERE to_address = ${to} AND template = ${template} ORDER BY id`,
  );
const count = async (q: ReturnType<typeof sql>) => (await one<{ n: number }>(t.platform.db, q))!.n;
const tokens = (email: string, purpose: string) =>
  count(sql`SELECT count(*)::int AS n FROM rova_account_tokens k JOIN rova_users u ON u.id = k.user_id
    WHERE u.email = ${email} AND k.purpose = ${purpose}`);
const login = (email: string, password: string) =>
  post(`${R}/auth/token`, { login: email, password }).then((r) => r.statusCode);

describe('account mails are written in the transaction of their change', () => {
  it('registration: refused mail → no account, no token, no mail; allowed → the account and one verification mail', async () => {
    const email = 'tx-register@example.test';
    await refuse('verify_email');
    try {
      const r = await post(`${R}/auth/register`, { email, password: 'long enough pw' });
      expect(r.statusCode, r.body).toBe(500);
      expect(await count(sql`SELECT count(*)::int AS n FROM rova_users WHERE email = ${email}`)).toBe(0);
      expect(await mails(email, 'verify_email')).toEqual([]);
    } finally {
      await allow('verify_email');
    }
    const ok = await post(`${R}/auth/register`, { email, password: 'long enough pw' });
    expect(ok.statusCode, ok.body).toBe(202);
    expect(await count(sql`SELECT count(*)::int AS n FROM rova_users WHERE email = ${email}`)).toBe(1);
    expect(await tokens(email, 'verify_email')).toBe(1);
    expect(await mails(email, 'verify_email')).toHaveLength(1);
  });

  it('password reset: a refused reset mail leaves no token; a refused notice of the new password leaves the old password and the token usable', async () => {
    const email = 'tx-reset@example.test';
    expect((await post(`${R}/auth/register`, { email, password: 'first password' })).statusCode).toBe(202);

    await refuse('password_reset');
    try {
      expect((await post(`${R}/auth/password/forgot`, { email })).statusCode).toBe(500);
      expect(await tokens(email, 'reset_password')).toBe(0);
      expect(await mails(email, 'password_reset')).toEqual([]);
    } finally {
      await allow('password_reset');
    }
    expect((await post(`${R}/auth/password/forgot`, { email })).statusCode).toBe(202);
    expect(await tokens(email, 'reset_password')).toBe(1);
    const [reset] = await mails(email, 'password_reset');
    const token = /Token: (\S+)/.exec(reset!.text_body)![1]!;

    await refuse('password_changed');
    try {
      const r = await post(`${R}/auth/password/reset`, { token, password: 'second password' });
      expect(r.statusCode, r.body).toBe(500);
      expect(await mails(email, 'password_changed')).toEqual([]);
      expect(await login(email, 'first password')).toBe(200);
      expect(await login(email, 'second password')).toBe(401);
    } finally {
      await allow('password_changed');
    }
    // the token was not spent by the reset that rolled back
    const ok = await post(`${R}/auth/password/reset`, { token, password: 'second password' });
    expect(ok.statusCode, ok.body).toBe(200);
    const [notice] = await mails(email, 'password_changed');
    expect(notice!.text_body).toContain("If this wasn't you, reset your password:");
    expect(notice!.text_body).toContain(`Reset my password: ${ACCOUNT}\n`);
    expect(await login(email, 'second password')).toBe(200);
  });

  it('a password changed while signed in: the notice a reset sends (the reset page, never the password), in the change’s transaction', async () => {
    const email = 'tx-change@example.test';
    await t.platform.auth.createUser({ login: email, email, role: 'customer', password: 'first password' });
    const signIn = async (password: string) => {
      const r = await post(`${R}/auth/token`, { login: email, password });
      expect(r.statusCode, r.body).toBe(200);
      return { authorization: `Bearer ${r.json().access_token as string}` };
    };
    const change = (headers: Record<string, string>, current: string, next: string) =>
      t.inject({
        method: 'PUT',
        url: `${R}/auth/password`,
        headers,
        payload: { current_password: current, new_password: next },
      });

    await refuse('password_changed');
    try {
      const r = await change(await signIn('first password'), 'first password', 'second password');
      expect(r.statusCode, r.body).toBe(500);
      expect(await mails(email, 'password_changed')).toEqual([]);
      expect(await login(email, 'first password')).toBe(200);
      expect(await login(email, 'second password')).toBe(401);
    } finally {
      await allow('password_changed');
    }

    const ok = await change(await signIn('first password'), 'first password', 'second password');
    expect(ok.statusCode, ok.body).toBe(200);
    const sent = await mails(email, 'password_changed');
    expect(sent).toHaveLength(1);
    const text = sent[0]!.text_body;
    expect(text).toContain('Your password was just changed and every session was logged out.');
    expect(text).toContain("If this wasn't you, reset your password:");
    expect(text).toContain(`Reset my password: ${ACCOUNT}\n`);
    expect(text).not.toContain('second password');
    expect(text).not.toContain('first password');
    expect(await login(email, 'second password')).toBe(200);
    // a wrong current password changes nothing and mails nothing
    const wrong = await change(await signIn('second password'), 'not the password', 'third password');
    expect(wrong.statusCode, wrong.body).toBe(401);
    expect(await mails(email, 'password_changed')).toHaveLength(1);
  });

  it("a guest's code: a refused mail leaves no code; allowed → one code and one mail", async () => {
    const email = 'tx-guest@example.test';
    const codes = () => count(sql`SELECT count(*)::int AS n FROM rental_guest_codes WHERE email = ${email}`);
    await refuse('guest_code');
    try {
      const r = await post(`${V2}/guest/verification`, { email, name: 'Gus Guest' });
      expect(r.statusCode, r.body).toBe(500);
      expect(await codes()).toBe(0);
      expect(await mails(email, 'guest_code')).toEqual([]);
    } finally {
      await allow('guest_code');
    }
    const ok = await post(`${V2}/guest/verification`, { email, name: 'Gus Guest' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await codes()).toBe(1);
    expect(await mails(email, 'guest_code')).toHaveLength(1);
  });
});
