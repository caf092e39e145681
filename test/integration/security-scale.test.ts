import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, TEST_PG, TEST_REDIS, type TestApp } from '../helpers/app.js';
import { appDatabaseUrl } from '../helpers/pg-admin.js';

// Two nodes on one PostgreSQL database and one Redis: sessions end and quotas count as on one node.
const dbName = `rova_t_sec_${randomBytes(4).toString('hex')}`;
const R = '/wp-json/rova/v1';
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  if (!TEST_PG || !TEST_REDIS)
    throw new Error('integration tests need ROVA_TEST_DATABASE_URL and ROVA_TEST_REDIS_URL (npm run test:integration)');
  const admin = new pg.Client({ connectionString: TEST_PG });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  // nodes of one deployment share ROVA_SECRET (API-key hashes, sealed signing keys)
  const env = {
    DATABASE_URL: appDatabaseUrl(TEST_PG, dbName),
    REDIS_URL: TEST_REDIS,
    REDIS_PREFIX: `rova-test:${dbName}:`,
    ROVA_SECRET: randomBytes(32).toString('hex'),
  };
  a = await makeApp({ env });
  b = await makeApp({ env });
  await a.platform.auth.createUser({
    login: 'two_nodes',
    email: 'two@example.test',
    role: 'customer',
    password: 'correct horse battery',
  });
}, 240_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  const admin = new pg.Client({ connectionString: TEST_PG });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
});

const token = async (node: TestApp) =>
  (
    await node.inject({
      method: 'POST',
      url: `${R}/auth/token`,
      payload: { login: 'two_nodes', password: 'correct horse battery' },
    })
  ).json() as { access_token: string; refresh_token: string };
const me = (node: TestApp, access: string) =>
  node.inject({ method: 'GET', url: `${R}/auth/me`, headers: { authorization: `Bearer ${access}` } });

describe('security across nodes', () => {
  it('a token issued on one node works on the other; logout on one is seen by the other at once', async () => {
    const p = await token(a);
    expect((await me(b, p.access_token)).statusCode).toBe(200);
    const r = await b.inject({
      method: 'POST',
      url: `${R}/auth/token/refresh`,
      payload: { refresh_token: p.refresh_token },
    });
    expect(r.statusCode).toBe(200);
    const fresh = r.json().access_token as string;
    expect(
      (await a.inject({ method: 'POST', url: `${R}/auth/logout`, headers: { authorization: `Bearer ${fresh}` } }))
        .statusCode,
    ).toBe(200);
    expect((await me(b, fresh)).statusCode).toBe(401);
  });

  it('password change on one node ends the sessions on the other at once', async () => {
    const x = await token(a);
    const y = await token(b);
    const r = await b.inject({
      method: 'PUT',
      url: `${R}/auth/password`,
      headers: { authorization: `Bearer ${y.access_token}` },
      payload: { current_password: 'correct horse battery', new_password: 'correct horse battery 2' },
    });
    expect(r.statusCode).toBe(200);
    expect((await me(a, x.access_token)).statusCode).toBe(401);
    expect((await me(b, x.access_token)).statusCode).toBe(401);
    await a.platform.auth.setPassword((await a.platform.auth.findUser('two_nodes'))!.id, 'correct horse battery');
  });

  it('a key rotation on one node: the other verifies new tokens at once', async () => {
    const { jwtSessionsOf } = await import('../../src/platform/auth/jwt/sessions.js');
    await jwtSessionsOf(a.platform).keys.rotate(930);
    const p = await token(a);
    expect((await me(b, p.access_token)).statusCode).toBe(200);
  });

  it('a 5/min quota is exact across the two nodes (Redis)', async () => {
    const k = await a.userWithKey('customer', ['read']);
    const admin = (await a.userWithKey('administrator')).key;
    const set = await a.inject({
      method: 'PUT',
      url: `${R}/api-keys/${k.keyId}/plan`,
      headers: { 'x-rova-api-key': admin },
      payload: { requests_per_minute: 5 },
    });
    expect(set.statusCode).toBe(200);
    const codes: number[] = [];
    const all = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? a : b).inject({ method: 'GET', url: `${R}/auth/me`, headers: { 'x-rova-api-key': k.key } }),
      ),
    );
    for (const r of all) codes.push(r.statusCode);
    expect(codes.filter((c) => c === 200).length).toBe(5);
    expect(codes.filter((c) => c === 429).length).toBe(3);
    const usage = (
      await b.inject({ method: 'GET', url: `${R}/api-keys/${k.keyId}/usage`, headers: { 'x-rova-api-key': admin } })
    ).json();
    expect(usage.windows[0]).toMatchObject({ used: 5, remaining: 0 });
  });
});
