import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { TEST_PG, TEST_REDIS } from '../helpers/app.js';
import { query, startRovaServer, underLoad, type RovaServer } from '../helpers/db-faults.js';
import { appDatabaseUrl } from '../helpers/pg-admin.js';

// Issue 19 item 5: the server closes connections under a real server process (pg_terminate_backend) while requests
// run. The process must live, every request must get an answer (2xx, or 503 with Retry-After), and no write that was
// answered with an error may have been committed.
const ADMIN = `pgterm-admin-${randomBytes(8).toString('hex')}`;
const dbName = `rova_t_term_${randomBytes(4).toString('hex')}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'rova-term-'));
let server: RovaServer;
const urlOf = (db: string) => {
  const u = new URL(TEST_PG);
  u.pathname = '/' + db;
  return u.toString();
};

beforeAll(async () => {
  if (!TEST_PG || !TEST_REDIS)
    throw new Error('needs ROVA_TEST_DATABASE_URL and ROVA_TEST_REDIS_URL (npm run test:integration)');
  const template = inject('postgresTemplate') as string | undefined;
  await query(
    urlOf('postgres'),
    template ? `CREATE DATABASE ${dbName} TEMPLATE ${template}` : `CREATE DATABASE ${dbName}`,
  );
  server = await startRovaServer({
    HOME: dataDir,
    DATA_DIR: dataDir,
    DATABASE_URL: appDatabaseUrl(TEST_PG, dbName),
    REDIS_URL: TEST_REDIS,
    REDIS_PREFIX: `rova-test:${dbName}:`,
    ROVA_BOOTSTRAP_ADMIN_KEY: ADMIN,
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await query(urlOf('postgres'), `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('PostgreSQL closes connections under load', () => {
  it('20 × pg_terminate_backend: the process lives, every request is answered 2xx or 503, no write answered with an error was committed', async () => {
    let killed = 0;
    await underLoad(
      server,
      ADMIN,
      urlOf(dbName),
      async () => {
        for (let round = 0; round < 20; round++) {
          await new Promise((r) => setTimeout(r, 150));
          const r = await query<{ n: number }>(
            urlOf('postgres'),
            'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
            [dbName],
          );
          killed += r[0]?.n ?? 0;
          expect(
            server.exited(),
            `the server exited after termination round ${round}:\n${server.log().slice(-3000)}`,
          ).toBe(false);
        }
      },
      'term',
    );
    expect(killed).toBeGreaterThan(0);
  }, 120_000);
});
