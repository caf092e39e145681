// @integration: concurrent creates of one address race past the check to the unique index (separate connections)
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, type Db } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';

// A user created by two requests at once: the first to commit wins, the other is told 409 rova_user_exists (not
// 500 from the unique index). On PostgreSQL the requests race for real; on both drivers the lost race is replayed
// exactly by a database handle whose check sees nothing, as a request whose check ran before the other's commit.
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await makeApp();
  admin = (await t.userWithKey('administrator')).key;
}, 240_000);
afterAll(async () => t?.close());

const create = (login: string, email: string) =>
  t.inject({
    method: 'POST',
    url: '/wp-json/rova/v1/users',
    headers: { 'x-rova-api-key': admin },
    payload: { login, email, role: 'customer', password: 'a-password-1' },
  });

describe('POST /rova/v1/users under concurrency', () => {
  it('eight creates of one address at once: one 201, seven 409 rova_user_exists, one user', async () => {
    const all = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create(`racer-${i}`, 'same.address@example.test')),
    );
    expect(all.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of all.filter((x) => x.statusCode === 409))
      expect(r.json()).toMatchObject({ code: 'rova_user_exists', data: { status: 409 } });
    const n = await rows<{ n: number }>(
      t.platform.db,
      sql`SELECT count(*)::int AS n FROM rova_users WHERE email = 'same.address@example.test'`,
    );
    expect(n[0]!.n).toBe(1);
  });

  it('the check passed but the address was written meanwhile: 409 rova_user_exists from the unique index', async () => {
    expect((await create('first-writer', 'meanwhile@example.test')).statusCode).toBe(201);
    // the two look-ups of the check see no user (they ran before the other request's commit)
    let lookups = 0;
    const late = new Proxy(t.platform.db, {
      get(target, prop, receiver) {
        if (prop === 'execute')
          return (q: unknown) =>
            lookups++ < 2 ? Promise.resolve({ rows: [] }) : (target.execute as (x: unknown) => unknown)(q);
        return Reflect.get(target, prop, receiver) as unknown;
      },
    }) as Db;
    await expect(
      t.platform.auth.createUser({ login: 'second-writer', email: 'meanwhile@example.test', role: 'customer' }, late),
    ).rejects.toMatchObject({ status: 409, code: 'rova_user_exists' });
    expect(lookups).toBe(3);
  });
});
