// Makes the upgrade test's fixture from a released version's own code: checks the release out (a tag or commit) into a
// temporary worktree, installs it, lets ITS `rova seed --demo` fill a fresh PostgreSQL database, and keeps
// `pg_dump` of it plus what it held (rows per table, ledger balances) in test/fixtures/upgrade/<version>/.
// test/integration/upgrade.test.ts loads each fixture and migrates it to this checkout's code.
//
//   node scripts/upgrade-fixture.mjs --ref v0.2.0 [--version 0.2.0] [--database-url postgres://postgres@127.0.0.1/postgres]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: { ref: { type: 'string' }, version: { type: 'string' }, 'database-url': { type: 'string' } },
  strict: true,
});
if (!values.ref) {
  console.error('usage: node scripts/upgrade-fixture.mjs --ref <tag or commit> [--version X.Y.Z] [--database-url URL]');
  process.exit(2);
}
const admin =
  values['database-url'] ?? process.env.ROVA_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const work = mkdtempSync(path.join(tmpdir(), 'rova-release-'));
const tree = path.join(work, 'tree');
const name = `rova_release_${Date.now().toString(36)}`;
const dbUrl = Object.assign(new URL(admin), { pathname: `/${name}` }).toString();
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], ...opts });

const client = new pg.Client({ connectionString: admin });
await client.connect();
try {
  run('git', ['-C', root, 'worktree', 'add', '--detach', tree, values.ref]);
  const version = values.version ?? JSON.parse(readFileSync(path.join(tree, 'package.json'), 'utf8')).version;
  console.log(`release ${version} (${values.ref}) checked out in ${tree}; installing it`);
  run('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: tree });
  await client.query(`CREATE DATABASE ${name}`);
  const env = {
    PATH: process.env.PATH,
    HOME: work,
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: dbUrl,
    LOG_LEVEL: 'warn',
    STORE_CURRENCY: 'USD',
    ROVA_SECRET: 'release-fixture-secret-'.padEnd(64, '0'),
  };
  run(process.execPath, ['scripts/rova.mjs', 'seed', '--demo'], { cwd: tree, env });
  const dump = run('pg_dump', ['--no-owner', '--no-privileges', '--format=plain', dbUrl]);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  const tables = (
    await db.query(`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r','p') AND NOT c.relispartition ORDER BY 1`)
  ).rows.map((r) => r.name);
  const counts = {};
  for (const t of tables) counts[t] = Number((await db.query(`SELECT count(*) AS n FROM "${t}"`)).rows[0].n);
  const ledger = (await db.query('SELECT code, balance::text AS balance FROM ledger_accounts ORDER BY code')).rows;
  const migrations = (await db.query('SELECT name FROM rova_migrations ORDER BY name')).rows.map((r) => r.name);
  await db.end();
  const out = path.join(root, 'test/fixtures/upgrade', version);
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'dump.sql.gz'), gzipSync(dump, { level: 9 }));
  writeFileSync(
    path.join(out, 'expected.json'),
    JSON.stringify({ version, ref: values.ref, secret: env.ROVA_SECRET, migrations, counts, ledger }, null, 2) + '\n',
  );
  console.log(`wrote ${path.relative(root, out)}: ${tables.length} tables, ${migrations.length} migrations`);
} finally {
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  await client.end();
  try {
    run('git', ['-C', root, 'worktree', 'remove', '--force', tree]);
  } catch {
    // the checkout may not have been made
  }
  rmSync(work, { recursive: true, force: true });
}
