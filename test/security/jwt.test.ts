// @integration: refresh-token rotation races (same child within 10 s); sessions revoked across connections
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { SignJWT, UnsecuredJWT, base64url, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtSessionsOf, type JwtSessions } from '../../src/platform/auth/jwt/sessions.js';
import { rows } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';

const R = '/wp-json/rova/v1';
let t: TestApp;
let s: JwtSessions;
let userId = 0;
const LOGIN = 'mobile_user';
const PASSWORD = 'correct horse battery';

async function token(
  device = 'test phone',
): Promise<{ access_token: string; refresh_token: string; expires_in: number; token_type: string }> {
  await t.platform.limits.reset('login-ip', '127.0.0.1', 900); // this file logs in far more often than a person
  const r = await t.inject({
    method: 'POST',
    url: `${R}/auth/token`,
    payload: { login: LOGIN, password: PASSWORD, device },
  });
  expect(r.statusCode).toBe(200);
  return r.json();
}
const me = (access: string) =>
  t.inject({ method: 'GET', url: `${R}/auth/me`, headers: { authorization: `Bearer ${access}` } });
const refresh = (rt: string) =>
  t.inject({ method: 'POST', url: `${R}/auth/token/refresh`, payload: { refresh_token: rt } });

beforeAll(async () => {
  t = await makeApp();
  s = jwtSessionsOf(t.platform);
  userId = (
    await t.platform.auth.createUser({
      login: LOGIN,
      email: 'mobile@example.test',
      role: 'customer',
      password: PASSWORD,
    })
  ).id;
}, 240_000);
afterAll(async () => t?.close());

async function signed(
  claims: Record<string, unknown>,
  opts: { exp?: number; nbf?: number; aud?: string; kid?: string } = {},
): Promise<string> {
  const { kid, key } = await s.keys.current();
  const now = Math.floor(Date.now() / 1000);
  const j = new SignJWT({ sid: claims.sid, ...claims })
    .setProtectedHeader({ alg: 'EdDSA', kid: opts.kid ?? kid })
    .setSubject(String(userId))
    .setAudience(opts.aud ?? 'rova')
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(opts.exp ?? now + 600);
  if (opts.nbf !== undefined) j.setNotBefore(opts.nbf);
  return j.sign(key);
}

describe('JWT access tokens', () => {
  it('login → Bearer pair; the JWT user resolves like any other credential', async () => {
    const p = await token();
    expect(p.token_type).toBe('Bearer');
    expect(p.expires_in).toBe(900);
    expect(p.refresh_token).toMatch(/^rrt_[A-Za-z0-9_-]{43}$/);
    const h = decodeProtectedHeader(p.access_token);
    expect(h.alg).toBe('EdDSA');
    expect(typeof h.kid).toBe('string');
    const payload = JSON.parse(Buffer.from(p.access_token.split('.')[1]!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(Object.keys(payload).sort()).toEqual(['aud', 'exp', 'iat', 'jti', 'sid', 'sub']);
    expect(payload.exp).toBe((payload.iat as number) + 900);
    const r = await me(p.access_token);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ user: { login: LOGIN, role: 'customer' }, method: 'jwt', scopes: null });
    // route policies apply unchanged: a customer is not an administrator
    expect(
      (await t.inject({ method: 'GET', url: `${R}/users`, headers: { authorization: `Bearer ${p.access_token}` } }))
        .statusCode,
    ).toBe(403);
  });

  it('wrong password → 401 rova_invalid_credentials', async () => {
    const r = await t.inject({
      method: 'POST',
      url: `${R}/auth/token`,
      payload: { login: LOGIN, password: 'nope nope nope' },
    });
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual({
      code: 'rova_invalid_credentials',
      message: 'Unknown login or wrong password.',
      data: { status: 401 },
    });
  });

  it('JWKS lists the signing key', async () => {
    await token();
    const r = await t.inject({ method: 'GET', url: `${R}/auth/jwks.json` });
    expect(r.statusCode).toBe(200);
    const k = r.json().keys as { kty: string; crv: string; kid: string; alg: string; use: string; d?: string }[];
    expect(k.length).toBe(1);
    expect(k[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(k[0]!.d).toBeUndefined();
  });

  it('expired, not yet valid, wrong aud, alg none, HS256 with the public key, unknown kid, tampered → 401', async () => {
    const p = await token();
    const sid = String(
      (JSON.parse(Buffer.from(p.access_token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid,
    );
    const now = Math.floor(Date.now() / 1000);
    expect((await me(await signed({ sid }))).statusCode).toBe(200); // the forging helper itself is sound
    const jwk = (await t.inject({ method: 'GET', url: `${R}/auth/jwks.json` })).json().keys[0] as {
      kid: string;
      x: string;
    };
    const bad: Record<string, string> = {
      expired: await signed({ sid }, { exp: now - 120 }),
      not_yet_valid: await signed({ sid }, { nbf: now + 600 }),
      wrong_aud: await signed({ sid }, { aud: 'someone-else' }),
      alg_none: new UnsecuredJWT({
        sid,
        sub: String(userId),
        aud: 'rova',
        jti: 'x',
        iat: now,
        exp: now + 600,
      }).encode(),
      hs256_public_key: await new SignJWT({ sid })
        .setProtectedHeader({ alg: 'HS256', kid: jwk.kid })
        .setSubject(String(userId))
        .setAudience('rova')
        .setJti('x')
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(base64url.decode(jwk.x)),
      unknown_kid: await signed({ sid }, { kid: randomUUID() }),
      tampered: (() => {
        const [h, b, sig] = p.access_token.split('.') as [string, string, string];
        const payload = JSON.parse(Buffer.from(b, 'base64url').toString()) as Record<string, unknown>;
        payload.sid = String(Number(payload.sid) + 1);
        return `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`;
      })(),
    };
    // alg:none with a signature part left empty is not even JWT-shaped; give it one so it reaches the verifier
    bad.alg_none_signed = bad.alg_none!.replace(/\.$/, '.AAAA');
    for (const [name, tok] of Object.entries(bad)) {
      const r = await me(tok);
      expect(r.statusCode, name).toBe(401);
      expect(r.json().code, name).toBe('rest_not_logged_in');
    }
    const withReason = await me(bad.expired!);
    expect(withReason.json().data.reason).toBe('invalid_token');
  });

  it('expiry with the clock: valid within the tolerance, 401 after', async () => {
    const p = await token();
    const start = Date.now();
    try {
      s.now = () => start + 900_000 + 20_000; // 20 s past exp, inside the 30 s tolerance
      expect((await me(p.access_token)).statusCode).toBe(200);
      s.now = () => start + 900_000 + 40_000;
      expect((await me(p.access_token)).statusCode).toBe(401);
    } finally {
      s.now = () => Date.now();
    }
  });

  it('rotation: the old key verifies until its tokens expire, then not; new tokens use the new kid', async () => {
    const before = await token();
    const oldKid = decodeProtectedHeader(before.access_token).kid;
    const r = await s.keys.rotate(900 + 30);
    expect(r.retired).toEqual([oldKid]);
    const after = await token();
    expect(decodeProtectedHeader(after.access_token).kid).toBe(r.kid);
    expect((await me(before.access_token)).statusCode).toBe(200);
    const jwks = (await t.inject({ method: 'GET', url: `${R}/auth/jwks.json` })).json().keys as { kid: string }[];
    expect(jwks.map((k) => k.kid).sort()).toEqual([oldKid, r.kid].sort());
    const start = Date.now();
    try {
      s.now = () => start + 931_000;
      const later = (await t.inject({ method: 'GET', url: `${R}/auth/jwks.json` })).json().keys as { kid: string }[];
      expect(later.map((k) => k.kid)).toEqual([r.kid]);
      expect((await me(before.access_token)).statusCode).toBe(401);
    } finally {
      s.now = () => Date.now();
    }
    expect((await me(after.access_token)).statusCode).toBe(200);
  });
});

describe('refresh tokens', () => {
  it('rotate: each refresh returns a new refresh token and a working access token', async () => {
    const p = await token();
    const r1 = await refresh(p.refresh_token);
    expect(r1.statusCode).toBe(200);
    expect(r1.headers['cache-control']).toBe('no-store');
    const c1 = r1.json();
    expect(c1.refresh_token).not.toBe(p.refresh_token);
    expect((await me(c1.access_token)).statusCode).toBe(200);
    const r2 = await refresh(c1.refresh_token);
    expect(r2.statusCode).toBe(200);
    expect(r2.json().refresh_token).not.toBe(c1.refresh_token);
  });

  it('two concurrent refreshes with the same token both succeed with the same child', async () => {
    const p = await token();
    const [a, b] = await Promise.all([refresh(p.refresh_token), refresh(p.refresh_token)]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json().refresh_token).toBe(b.json().refresh_token);
    expect((await me(b.json().access_token)).statusCode).toBe(200);
  });

  it('reuse of an older token revokes the whole family (and is audited)', async () => {
    const p = await token();
    const c1 = (await refresh(p.refresh_token)).json();
    const c2 = (await refresh(c1.refresh_token)).json();
    expect((await me(c2.access_token)).statusCode).toBe(200);
    // p is now two generations old: not the immediate parent of the live token
    const reuse = await refresh(p.refresh_token);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe('rova_invalid_grant');
    expect((await me(c2.access_token)).statusCode).toBe(401);
    expect((await refresh(c2.refresh_token)).statusCode).toBe(401);
    const audit = await rows<{ details: { reason?: string } }>(
      t.platform.db,
      sql`SELECT details FROM rova_audit_log WHERE route LIKE '%/auth/token/refresh' AND details->>'reason' = 'refresh_token_reuse'`,
    );
    expect(audit.length).toBe(1);
    expect(audit[0]!.details).toMatchObject({ reason: 'refresh_token_reuse', revoked: 'family' });
  });

  it('the immediate parent reused after the 10 s window also revokes the family', async () => {
    const p = await token();
    const c1 = (await refresh(p.refresh_token)).json();
    const start = Date.now();
    try {
      s.now = () => start + 11_000;
      expect((await refresh(p.refresh_token)).statusCode).toBe(401);
    } finally {
      s.now = () => Date.now();
    }
    expect((await refresh(c1.refresh_token)).statusCode).toBe(401);
  });

  it('idle 30 days and absolute 90 days end a session', async () => {
    const p = await token();
    const start = Date.now();
    try {
      s.now = () => start + 31 * 86_400_000;
      expect((await refresh(p.refresh_token)).statusCode).toBe(401);
    } finally {
      s.now = () => Date.now();
    }
    const q = await token();
    await t.platform.db.execute(
      sql`UPDATE rova_auth_sessions SET expires_at = now() - interval '1 second' WHERE id = (SELECT session_id FROM rova_refresh_tokens ORDER BY id DESC LIMIT 1)`,
    );
    expect((await refresh(q.refresh_token)).statusCode).toBe(401);
    expect((await me(q.access_token)).statusCode).toBe(401);
  });

  it('unknown refresh token → 401; revoke ends the session at once', async () => {
    expect((await refresh('rrt_nothing')).statusCode).toBe(401);
    const p = await token();
    const r = await t.inject({
      method: 'POST',
      url: `${R}/auth/token/revoke`,
      payload: { refresh_token: p.refresh_token },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ success: true });
    expect((await me(p.access_token)).statusCode).toBe(401);
    expect((await refresh(p.refresh_token)).statusCode).toBe(401);
  });
});

describe('sessions, logout, password change, user deletion', () => {
  it('lists own sessions and revokes one', async () => {
    const a = await token('phone A');
    const b = await token('phone B');
    const list = await t.inject({
      method: 'GET',
      url: `${R}/auth/sessions`,
      headers: { authorization: `Bearer ${a.access_token}` },
    });
    expect(list.statusCode).toBe(200);
    const items = list.json() as {
      id: number;
      device: string;
      current: boolean;
      created_at: string;
      last_used_at: string;
    }[];
    const mine = items.find((x) => x.current)!;
    expect(mine.device).toBe('phone A');
    const other = items.find((x) => x.device === 'phone B')!;
    expect(other.current).toBe(false);
    const del = await t.inject({
      method: 'DELETE',
      url: `${R}/auth/sessions/${other.id}`,
      headers: { authorization: `Bearer ${a.access_token}` },
    });
    expect(del.statusCode).toBe(200);
    expect((await me(b.access_token)).statusCode).toBe(401);
    expect((await me(a.access_token)).statusCode).toBe(200);
    const again = await t.inject({
      method: 'DELETE',
      url: `${R}/auth/sessions/${other.id}`,
      headers: { authorization: `Bearer ${a.access_token}` },
    });
    expect(again.statusCode).toBe(404);
  });

  it('logout with a JWT ends that session; everywhere=true ends all of them', async () => {
    const a = await token();
    const b = await token();
    const out = await t.inject({
      method: 'POST',
      url: `${R}/auth/logout`,
      headers: { authorization: `Bearer ${a.access_token}` },
    });
    expect(out.statusCode).toBe(200);
    expect((await me(a.access_token)).statusCode).toBe(401);
    expect((await me(b.access_token)).statusCode).toBe(200);
    const c = await token();
    const all = await t.inject({
      method: 'POST',
      url: `${R}/auth/logout?everywhere=true`,
      headers: { authorization: `Bearer ${c.access_token}` },
    });
    expect(all.statusCode).toBe(200);
    expect((await me(b.access_token)).statusCode).toBe(401);
    expect((await me(c.access_token)).statusCode).toBe(401);
  });

  it('password change ends every session (apps and browser)', async () => {
    const a = await token();
    const login = await t.inject({
      method: 'POST',
      url: `${R}/auth/login`,
      payload: { login: LOGIN, password: PASSWORD },
    });
    const cookie = login.cookies.find((c) => c.name === 'rova_session')!.value;
    const nonce = login.json().nonce as string;
    const bad = await t.inject({
      method: 'PUT',
      url: `${R}/auth/password`,
      headers: { authorization: `Bearer ${a.access_token}` },
      payload: { current_password: 'wrong one!', new_password: 'another good one' },
    });
    expect(bad.statusCode).toBe(401);
    const r = await t.inject({
      method: 'PUT',
      url: `${R}/auth/password`,
      headers: { authorization: `Bearer ${a.access_token}` },
      payload: { current_password: PASSWORD, new_password: 'another good one' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().sessions_revoked).toBeGreaterThanOrEqual(2);
    expect((await me(a.access_token)).statusCode).toBe(401);
    expect(
      (
        await t.inject({
          method: 'GET',
          url: `${R}/auth/me`,
          cookies: { rova_session: cookie },
          headers: { 'x-wp-nonce': nonce },
        })
      ).statusCode,
    ).toBe(401);
    await t.platform.auth.setPassword(userId, PASSWORD);
  });

  it('user deletion ends their sessions', async () => {
    const u = await t.platform.auth.createUser({
      login: 'doomed',
      email: 'doomed@example.test',
      role: 'customer',
      password: PASSWORD,
    });
    await t.platform.limits.reset('login-ip', '127.0.0.1', 900);
    const p = (
      await t.inject({ method: 'POST', url: `${R}/auth/token`, payload: { login: 'doomed', password: PASSWORD } })
    ).json();
    expect((await me(p.access_token)).statusCode).toBe(200);
    const admin = await t.userWithKey('administrator');
    const del = await t.inject({
      method: 'DELETE',
      url: `${R}/users/${u.id}`,
      headers: { 'x-rova-api-key': admin.key },
    });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ deleted: true, id: u.id });
    expect((await me(p.access_token)).statusCode).toBe(401);
    expect(
      (await t.inject({ method: 'DELETE', url: `${R}/users/${u.id}`, headers: { 'x-rova-api-key': admin.key } }))
        .statusCode,
    ).toBe(404);
  });
});
