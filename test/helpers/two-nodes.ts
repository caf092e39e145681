import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { makeApp, TEST_PG, TEST_REDIS, type TestApp } from './app.js';
import { createDatabase } from './pg-admin.js';

export interface TwoNodes {
  a: TestApp;
  b: TestApp;
  close(): Promise<void>;
}

/**
 * Two nodes of one deployment: one PostgreSQL database (copied from the run's migrated template), one Redis key
 * prefix, one ROVA_SECRET. For races that only show between connections of different processes' pools.
 */
export async function twoNodes(
  env: Record<string, string> = {},
  opts: { routeA?: (databaseUrl: string) => string; redisA?: (redisUrl: string) => string } = {},
): Promise<TwoNodes> {
  if (!TEST_PG || !TEST_REDIS)
    throw new Error('two nodes need ROVA_TEST_DATABASE_URL and ROVA_TEST_REDIS_URL (npm run test:integration)');
  const name = `rova_t_2n_${randomBytes(5).toString('hex')}`;
  const db = await createDatabase(TEST_PG, name, (inject('postgresTemplate') as string | undefined) || undefined);
  const shared = {
    DATABASE_URL: db.url,
    REDIS_URL: TEST_REDIS,
    REDIS_PREFIX: `rova-test:${name}:`,
    ROVA_SECRET: randomBytes(32).toString('hex'),
    ...env,
  };
  // node a may reach the database another way (a proxy a test can cut), node b directly
  // node a may also reach Redis another way (a proxy a test can stall)
  const a = await makeApp({
    env: {
      ...shared,
      ...(opts.routeA ? { DATABASE_URL: opts.routeA(shared.DATABASE_URL) } : {}),
      ...(opts.redisA ? { REDIS_URL: opts.redisA(shared.REDIS_URL) } : {}),
    },
  });
  const b = await makeApp({ env: shared });
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await db.drop();
    },
  };
}
