// @integration: a lost database connection is the behaviour under test
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { isDatabaseUnavailable } from '../../src/platform/db/outage.js';
import { makeApp, type TestApp } from '../helpers/app.js';

/** Takes the database away under the running app: PGlite closed, or the PostgreSQL pool ended. */
async function stopDatabase(t: TestApp): Promise<void> {
  const h = t.platform.dbHandle;
  if (h.kind === 'pglite') await (h.raw as PGlite).close();
  else await (h.raw as pg.Pool).end();
}

describe('database outage', () => {
  let t: TestApp;
  let key = '';
  beforeAll(async () => {
    t = await makeApp();
    key = (await t.userWithKey('administrator')).key;
    await stopDatabase(t);
  });
  afterAll(async () => t?.close());

  it("DB-backed routes answer 503 with Retry-After in each namespace's error shape", async () => {
    const cases: [string, string, object | undefined, Record<string, unknown>][] = [
      ['GET', '/wp-json/rova-rental/v1/vehicles', undefined, { success: false, error_code: 'SERVICE_UNAVAILABLE' }],
      [
        'POST',
        '/wp-json/wc/v3/products',
        { name: 'Lost', regular_price: '1' },
        { code: 'rest_unavailable', data: { status: 503 } },
      ],
      ['GET', '/wp-json/rova/v1/users', undefined, { code: 'rest_unavailable', data: { status: 503 } }],
      ['GET', '/wp-json/rova-fx/v1/settings', undefined, { data: { status: 503 } }],
    ];
    for (const [method, url, payload, shape] of cases) {
      const res = await t.inject({
        method: method as 'GET',
        url,
        headers: { 'x-rova-api-key': key },
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({
        ...shape,
        message: 'The database is unavailable. Try again in a few seconds.',
      });
    }
  });

  it('a write that fails because the database is down is logged (no audit row can be written)', async () => {
    const warn = vi.spyOn(t.app.log, 'warn');
    try {
      const res = await t.inject({
        method: 'PUT',
        url: '/wp-json/rova-rental/v1/locations/1',
        headers: { 'x-rova-api-key': key },
        payload: { name: 'x' },
      });
      expect(res.statusCode).toBe(503);
      const messages = warn.mock.calls.map((c) => c[1] ?? c[0]);
      expect(messages).toContain('write failed: database unavailable');
    } finally {
      warn.mockRestore();
    }
  });

  it('tells an outage from a refused query', () => {
    expect(
      isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        new Error('Failed query', {
          cause: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
        }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(new Error('Failed query', { cause: new Error('Connection terminated unexpectedly') })),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(Object.assign(new Error('the database system is starting up'), { code: '57P03' })),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('database "rova" is not currently accepting connections'), { code: '55000' }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('currval of sequence "s" is not yet defined in this session'), { code: '55000' }),
      ),
    ).toBe(false);
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      ),
    ).toBe(false);
    expect(isDatabaseUnavailable(new Error('column "x" does not exist'))).toBe(false);
    // PgBouncer's own errors (transaction pooling): its server connection died, or it has none to give
    expect(
      isDatabaseUnavailable(
        new Error('Failed query: rollback', {
          cause: Object.assign(new Error('server conn crashed?'), { code: '08P01' }),
        }),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('query_wait_timeout'), { code: '08P01' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax error at or near "x"'), { code: '42601' }))).toBe(
      false,
    );
  });
});
