import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { listMigrations } from '../../src/platform/db/migrate.js';
import { rows } from '../../src/platform/db/types.js';
import { TEST_PG } from '../helpers/app.js';
import { rovaInProcess } from '../helpers/cli.js';
import { createDatabase } from '../helpers/pg-admin.js';

// Every database a released version made migrates to this code with its data intact. Each fixture is the pg_dump
// of a database filled by that release's own `rova seed --demo` (scripts/upgrade-fixture.mjs made it from the
// release's tag or commit), with what it held.

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/upgrade');
const releases = readdirSync(FIXTURES).sort();

interface Expected {
  version: string;
  ref: string;
  secret: string;
  migrations: string[];
  counts: Record<string, number>;
  ledger: { code: string; balance: string }[];
}

const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const d of drops) await d();
});

describe.each(releases)('upgrading a database made by Rova %s', (release) => {
  it('migrates forward to this version: every row kept, the ledger unchanged, verify clean', async () => {
    const dir = path.join(FIXTURES, release);
    const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;
    const db = await createDatabase(TEST_PG, `rova_upgrade_${randomBytes(5).toString('hex')}`);
    drops.push(db.drop);
    execFileSync('psql', ['-v', 'ON_ERROR_STOP=1', '-q', '-X', '-d', db.directUrl], {
      input: gunzipSync(readFileSync(path.join(dir, 'dump.sql.gz'))),
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    const env = { DATABASE_URL: db.url, ROVA_SECRET: expected.secret, LOG_LEVEL: 'silent', STORE_CURRENCY: 'USD' };
    const built = await buildApp(loadConfig({ ...env, ROVA_JOBS: 'false' }, { ephemeral: true }), { logger: false });
    try {
      const now = listMigrations().map((m) => m.name);
      expect(expected.migrations.every((m) => now.includes(m))).toBe(true); // migrations only move forward
      expect(built.migration.applied).toEqual(now.filter((m) => !expected.migrations.includes(m)));
      // rova_migrations grows by the migrations just applied (checked above); every other table keeps its rows
      for (const [table, n] of Object.entries(expected.counts).filter(([name]) => name !== 'rova_migrations')) {
        const got = await rows<{ n: number }>(
          built.platform.db,
          sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`,
        );
        expect({ table, rows: got[0]!.n }).toEqual({ table, rows: n });
      }
      const ledger = await rows<{ code: string; balance: string }>(
        built.platform.db,
        sql`SELECT code, balance::text AS balance FROM ledger_accounts ORDER BY code`,
      );
      expect(ledger).toEqual(expected.ledger);
    } finally {
      await built.app.close();
    }
    const verify = await rovaInProcess(['verify'], { ...env, DATA_DIR: tmpdir() });
    expect(verify.stdout).toMatch(/^verify ok: /m);
    expect(verify.code).toBe(0);
  }, 300_000);
});
