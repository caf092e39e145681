import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { connectDatabase, type DbHandle } from '../../src/platform/db/connect.js';
import { rows } from '../../src/platform/db/types.js';
import { TEST_PG } from '../helpers/app.js';
import { adminQuery, appDatabaseUrl, TEST_POOLER } from '../helpers/pg-admin.js';

// Rova behind PgBouncer in transaction mode (issue 23 item 2; `npm run test:integration -- --pgbouncer` runs the
// whole integration suite that way). Rova keeps no session state across transactions except its time zone, which
// must survive a server connection shared with other clients: PgBouncer refuses the startup `options` parameter
// and re-applies a client's TimeZone (tracked from its SET) on whichever server connection serves it.
const name = `rova_t_pool_${randomBytes(4).toString('hex')}`;
let rova: DbHandle;
let other: pg.Client;

beforeAll(async () => {
  if (!TEST_PG) throw new Error('needs ROVA_TEST_DATABASE_URL (npm run test:integration)');
  await adminQuery(TEST_PG, `CREATE DATABASE ${name}`);
  // a server whose default is not UTC: what Rova computes must not change
  await adminQuery(TEST_PG, `ALTER DATABASE ${name} SET timezone TO 'America/New_York'`);
  rova = await connectDatabase(
    loadConfig({ DATABASE_URL: appDatabaseUrl(TEST_PG, name), LOG_LEVEL: 'silent' }, { ephemeral: true }),
  );
  other = new pg.Client({ connectionString: appDatabaseUrl(TEST_PG, name) });
  await other.connect();
});
afterAll(async () => {
  await other?.end().catch(() => undefined);
  await rova?.close();
  await adminQuery(TEST_PG, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

describe(`Rova's connections ${TEST_POOLER ? 'through PgBouncer (transaction mode)' : 'direct'}`, () => {
  it('every transaction runs in UTC, interleaved with a client on the server default', async () => {
    const seen = new Set<string>();
    const others = new Set<string>();
    for (let round = 0; round < 10; round++) {
      const [mine, theirs] = await Promise.all([
        Promise.all(
          Array.from({ length: 8 }, () =>
            rova.db.transaction(
              async (tx) =>
                (
                  await rows<{ tz: string; day: string }>(
                    tx as never,
                    sql`SELECT current_setting('TimeZone') AS tz, ('2026-03-01 02:00:00+00'::timestamptz)::date::text AS day`,
                  )
                )[0]!,
            ),
          ),
        ),
        other.query<{ tz: string }>("SELECT current_setting('TimeZone') AS tz"),
      ]);
      for (const m of mine) {
        seen.add(m.tz);
        // in New York this instant is still 28 February
        expect(m.day).toBe('2026-03-01');
      }
      others.add(theirs.rows[0]!.tz);
    }
    expect([...seen]).toEqual(['UTC']);
    expect([...others]).toEqual(['America/New_York']);
  });
});
