// `npm run test:integration`: the full suite against a real PostgreSQL server and Redis.
// ROVA_TEST_DATABASE_URL (admin connection; each test app creates and drops its own database) and
// ROVA_TEST_REDIS_URL default to the local services. Unreachable services fail the run loudly.
import { spawnSync } from 'node:child_process';
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

for (const [name, url, port] of [['PostgreSQL', pgUrl, 5432], ['Redis', redisUrl, 6379]]) {
  if (!(await reachable(url, port))) {
    console.error(`test:integration: ${name} is not reachable at ${url.replace(/:[^:@/]*@/, ':***@')} — start it or set ROVA_TEST_${name === 'Redis' ? 'REDIS' : 'DATABASE'}_URL`);
    process.exit(1);
  }
}
const env = { ...process.env, ROVA_TEST_DATABASE_URL: pgUrl, ROVA_TEST_REDIS_URL: redisUrl };
const r = spawnSync(process.execPath, [root + 'node_modules/vitest/vitest.mjs', 'run', '--config', root + 'vitest.integration.config.ts', ...process.argv.slice(2)], { stdio: 'inherit', env, cwd: root });
process.exit(r.status ?? 1);
