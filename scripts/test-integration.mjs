// `npm run test:integration`: the full suite against a real PostgreSQL server and Redis.
// ROVA_TEST_DATABASE_URL (admin connection; each test app creates and drops its own database) and
// ROVA_TEST_REDIS_URL default to the local services. Unreachable services fail the run loudly.
// `-- --pgbouncer`: the same suite with every app connecting through a PgBouncer in transaction mode started for the
// run (Debian `pgbouncer`); administration (CREATE/DROP DATABASE, migrating the template) stays direct.
import { spawnSync } from 'node:child_process';
import { startPgBouncer } from './pgbouncer.mjs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pgUrl = process.env.ROVA_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.ROVA_TEST_REDIS_URL || 'redis://127.0.0.1:6379';

function reachable(url, fallbackPort) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port || fallbackPort) });
    s.setTimeout(3000);
    s.on('connect', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
    s.on('timeout', () => (s.destroy(), resolve(false)));
  });
}

for (const [name, url, port] of [
  ['PostgreSQL', pgUrl, 5432],
  ['Redis', redisUrl, 6379],
]) {
  if (!(await reachable(url, port))) {
    console.error(
      `test:integration: ${name} is not reachable at ${url.replace(/:[^:@/]*@/, ':***@')} — start it or set ROVA_TEST_${name === 'Redis' ? 'REDIS' : 'DATABASE'}_URL`,
    );
    process.exit(1);
  }
}
const args = process.argv.slice(2);
const pooled = args.includes('--pgbouncer');
const env = { ...process.env, ROVA_TEST_DATABASE_URL: pgUrl, ROVA_TEST_REDIS_URL: redisUrl };
let pooler = null;
if (pooled) {
  pooler = await startPgBouncer(pgUrl);
  env.ROVA_TEST_POOLER_URL = pooler.url;
  console.log(`test:integration: apps connect through PgBouncer (transaction mode) at 127.0.0.1:${pooler.port}`);
}
const r = spawnSync(
  process.execPath,
  [
    root + 'node_modules/vitest/vitest.mjs',
    'run',
    '--config',
    root + 'vitest.integration.config.ts',
    ...args.filter((a) => a !== '--pgbouncer'),
  ],
  { stdio: 'inherit', env, cwd: root },
);
if (pooler) await pooler.stop();
process.exit(r.status ?? 1);
