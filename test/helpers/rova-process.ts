import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Arguments for `node` that run the `rova` CLI from this checkout: the sources transpiled once by the global setup
 * (test/helpers/cli-build.ts), or through tsx when the file runs without it.
 */
export function rovaArgs(...args: string[]): string[] {
  const entry = inject('rovaEntry') as string | undefined;
  return entry ? [entry, ...args] : ['--import', 'tsx', path.join(ROOT, 'src/main.ts'), ...args];
}

/**
 * A new DATA_DIR whose embedded database is already migrated (the run's template, extracted). For tests about what
 * a command does, not about a first start: creating and migrating an embedded database costs a child several seconds.
 */
export function migratedDataDir(prefix = 'rova-data-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const template = inject('pgliteTemplate') as string | undefined;
  if (!template) return dir;
  const pgdata = path.join(dir, 'pgdata');
  mkdirSync(pgdata);
  const r = spawnSync('tar', ['-xf', template, '-C', pgdata], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cannot extract the database template: ${r.stderr}`);
  return dir;
}
