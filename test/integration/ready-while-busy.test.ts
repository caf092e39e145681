import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { connectDatabase, type DbHandle } from '../../src/platform/db/connect.js';
import { loadConfig } from '../../src/config.js';
import { TEST_PG } from '../helpers/app.js';

// /readyz pings the database. With every pooled connection busy and requests queued for one, a SELECT 1 waited its
// turn behind them, so a node under load answered its health check late and HAProxy (inter 1 s, fall 2) took a
// healthy node out of rotation — in `bench soak --nodes 2`, both at once. A connection given back in good order a
// moment ago is proof enough; an idle pool still asks the database.
let handle: DbHandle;

beforeAll(async () => {
  if (!TEST_PG) throw new Error('needs ROVA_TEST_DATABASE_URL (npm run test:integration)');
  handle = await connectDatabase(loadConfig({ DATABASE_URL: TEST_PG, DATABASE_POOL_SIZE: '2' }));
});

afterAll(async () => {
  await handle?.close();
});

describe('the database ping of a busy pool', () => {
  it('does not queue behind the requests waiting for a connection', async () => {
    const pool = handle.raw as pg.Pool;
    let finished = 0;
    let stop = false;
    const worker = async () => {
      while (!stop) {
        await handle.db.execute(sql`SELECT pg_sleep(0.03)`);
        finished += 1;
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    try {
      for (let round = 0; round < 5; round++) {
        await new Promise((r) => setTimeout(r, 150));
        expect(pool.waitingCount, 'requests queue for a connection').toBeGreaterThan(0);
        const before = finished;
        await handle.ping();
        // queued behind 6 waiting queries on 2 connections, a SELECT 1 would have seen several of them finish first
        expect(finished - before, `round ${round}: queries finished while the ping waited`).toBe(0);
      }
    } finally {
      stop = true;
      await Promise.all(workers);
    }
  });

  it('an idle pool asks the database', async () => {
    const pool = handle.raw as pg.Pool;
    expect(pool.waitingCount).toBe(0);
    const asked: string[] = [];
    const client = await pool.connect();
    client.release();
    const query = pool.query.bind(pool);
    pool.query = ((text: string, ...rest: unknown[]) => {
      asked.push(text);
      return (query as (t: string, ...r: unknown[]) => unknown)(text, ...rest);
    }) as typeof pool.query;
    try {
      await handle.ping();
    } finally {
      pool.query = query;
    }
    expect(asked).toEqual(['select 1']);
  });
});
