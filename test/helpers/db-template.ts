import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { connectDatabase, type DbHandle } from '../../src/platform/db/connect.js';
import { listMigrations, migrate } from '../../src/platform/db/migrate.js';
import { createDatabase } from './pg-admin.js';

/**
 * A migrated database is the starting point of every test app. Running 24 migrations (and, on PGlite, initdb) for
 * each app was most of the suite's setup time, so the test run migrates once and every app starts from a copy:
 * on PGlite a data-directory dump loaded with `loadDataDir`, on PostgreSQL `CREATE DATABASE … TEMPLATE`.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

/** Changes whenever a migration or the PGlite build changes, so a cached template is never stale. */
export function templateKey(): string {
  const h = createHash('sha256');
  for (const m of listMigrations()) h.update(m.name).update(m.checksum);
  h.update(readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  return h.digest('hex').slice(0, 16);
}

/** Writes (or reuses) the migrated PGlite dump for this key; returns its path. */
export async function pgliteTemplateFile(): Promise<string> {
  const dir = path.join(ROOT, 'node_modules/.cache/rova-test');
  const file = path.join(dir, `pglite-${templateKey()}.tar`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const config = loadConfig({ LOG_LEVEL: 'silent' }, { ephemeral: true });
  const h = await connectDatabase(config);
  await migrate(h);
  const client = (h as DbHandle & { raw: { dumpDataDir(c?: 'none' | 'gzip'): Promise<Blob> } }).raw;
  const dump = Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
  await h.close();
  // Written under a temporary name first: a second run starting at the same moment never reads half a file.
  const tmp = `${file}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, dump);
  renameSync(tmp, file);
  return file;
}

/** Creates a migrated PostgreSQL database to copy from; returns its name and a function that drops it. */
export async function postgresTemplate(adminUrl: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `rova_tpl_${templateKey()}_${randomBytes(3).toString('hex')}`;
  const db = await createDatabase(adminUrl, name);
  const h = await connectDatabase(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: db.directUrl }, { ephemeral: true }));
  try {
    await migrate(h);
  } finally {
    await h.close();
  }
  return { name, drop: db.drop };
}
