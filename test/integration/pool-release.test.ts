import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { connectDatabase, type DbHandle } from '../../src/platform/db/connect.js';
import { loadConfig } from '../../src/config.js';
import { rows } from '../../src/platform/db/types.js';
import { TEST_PG } from '../helpers/app.js';

// A connection the server closes between the pool's checkout and BEGIN (pg_terminate_backend on an idle pooled
// connection, a failover) used to leak its client: Drizzle sends BEGIN outside its try/finally, so the failing BEGIN
// skipped release and, after a few of these, every checkout waited for a client that never came back
// ("timeout exceeded when trying to connect", /readyz failing for good). Here the pool's connections are terminated
// while transactions check them out, thirty times; afterwards no client may stay checked out.
let handle: DbHandle;
const APP = `rova-pool-release-${process.pid}`;

beforeAll(async () => {
  if (!TEST_PG) throw new Error('needs ROVA_TEST_DATABASE_URL (npm run test:integration)');
  const url = new URL(TEST_PG);
  url.searchParams.set('application_name', APP);
  handle = await connectDatabase(loadConfig({ DATABASE_URL: url.toString() }));
  killer = new pg.Client({ connectionString: TEST_PG });
  await killer.connect();
});

afterAll(async () => {
  await killer?.end();
  await handle?.close();
});

let killer: pg.Client;
const terminate = async () =>
  (
    await killer.query<{ n: number }>(
      'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1',
      [APP],
    )
  ).rows[0]!.n;

describe('a pooled connection closed by the server as a transaction begins', () => {
  it('fails that transaction and gives its client back; the pool keeps working', async () => {
    const pool = handle.raw as pg.Pool;
    let failed = 0;
    for (let round = 0; round < 30; round++) {
      // warm idle connections, then close them on the server side while transactions check them out and BEGIN
      await Promise.allSettled([1, 2, 3].map(() => handle.db.transaction(async (tx) => rows(tx, sql`SELECT 1`))));
      const running = Promise.allSettled(
        [1, 2, 3].map(() => handle.db.transaction(async (tx) => rows<{ one: number }>(tx, sql`SELECT 1 AS one`))),
      );
      await terminate();
      const results = await running;
      failed += results.filter((r) => r.status === 'rejected').length;
      // nothing stays checked out once every transaction has settled
      expect(pool.totalCount - pool.idleCount, `round ${round}: clients still checked out`).toBe(0);
    }
    expect(failed, 'the fault was injected: some transactions failed').toBeGreaterThan(0);
    // the pool has given back every client: more transactions than the pool holds at once all run
    await new Promise((r) => setTimeout(r, 50));
    const after = await Promise.all(
      Array.from({ length: 20 }, () =>
        handle.db.transaction(async (tx) => rows<{ one: number }>(tx, sql`SELECT 1 AS one`)),
      ),
    );
    expect(after.map((r) => r[0]?.one)).toEqual(Array(20).fill(1));
    await expect(handle.ping()).resolves.toBeUndefined();
  }, 60_000);

  it('a script run (migrations) on a closed connection fails and hands its client back too', async () => {
    const pool = handle.raw as pg.Pool;
    for (let round = 0; round < 10; round++) {
      await handle.db.execute(sql`SELECT 1`).catch(() => undefined); // may meet the previous round's closed connection
      const running = handle.runScripts(async (exec) => exec('SELECT 1')).catch(() => undefined);
      await terminate();
      await running;
      expect(pool.totalCount - pool.idleCount).toBe(0);
    }
    await new Promise((r) => setTimeout(r, 50));
    await expect(handle.runScripts(async (exec) => exec('SELECT 1'))).resolves.toBeUndefined();
  });
});
