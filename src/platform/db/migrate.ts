import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DbHandle } from './connect.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/', import.meta.url));

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((name) => {
      const sql = readFileSync(dir + name, 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export interface MigrateResult {
  applied: string[];
  /** True when the database had no migrations before this run (a brand-new database). */
  wasEmpty: boolean;
}

// Arbitrary constant: the advisory lock that serialises migrations across nodes starting together.
const MIGRATION_LOCK = 727_001;

export async function migrate(handle: DbHandle, migrations = listMigrations()): Promise<MigrateResult> {
  const applied: string[] = [];
  let wasEmpty = false;
  await handle.runScripts(async (exec, query) => {
    await query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await exec(`CREATE TABLE IF NOT EXISTS rova_migrations (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Map(
      (await query<{ name: string; checksum: string }>('SELECT name, checksum FROM rova_migrations')).map((r) => [
        r.name,
        r.checksum,
      ]),
    );
    wasEmpty = done.size === 0;
    for (const m of migrations) {
      const prev = done.get(m.name);
      if (prev !== undefined) {
        if (prev !== m.checksum) {
          throw new Error(
            `migration ${m.name} was changed after it was applied; add a new migration instead of editing it`,
          );
        }
        continue;
      }
      await exec(m.sql);
      await query('INSERT INTO rova_migrations (name, checksum) VALUES ($1, $2)', [m.name, m.checksum]);
      applied.push(m.name);
    }
  });
  return { applied, wasEmpty };
}

/** Names of committed migrations not yet applied (health check). */
export async function pendingMigrations(handle: DbHandle, migrations = listMigrations()): Promise<string[]> {
  let pending: string[] = [];
  await handle.runScripts(async (_exec, query) => {
    const done = new Set((await query<{ name: string }>('SELECT name FROM rova_migrations')).map((r) => r.name));
    pending = migrations.filter((m) => !done.has(m.name)).map((m) => m.name);
  });
  return pending;
}
