import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Platform } from '../context.js';
import { listBackups } from './restore.js';
import { takeBackup } from './take.js';

const DAY_MS = 86_400_000;

/**
 * Deletes the oldest completed backups beyond `keep`, and work directories (`*.partial`) a crashed run left more
 * than a day ago (a younger one may be a `rova backup` in progress). Returns the names deleted.
 */
export async function pruneBackups(dir: string, keep: number, now = new Date()): Promise<string[]> {
  const done = await listBackups(dir);
  const gone = done.slice(0, Math.max(0, done.length - keep));
  for (const name of gone) await rm(path.join(dir, name), { recursive: true, force: true });
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (!e.isDirectory() || !e.name.endsWith('.partial')) continue;
    const full = path.join(dir, e.name);
    if (now.getTime() - (await stat(full)).mtimeMs > DAY_MS) {
      await rm(full, { recursive: true, force: true });
      gone.push(e.name);
    }
  }
  return gone;
}

/** BACKUP_SCHEDULE: a backup every interval on one node at a time (JobRunner lease), keeping BACKUP_KEEP of them. */
export function scheduleBackups(p: Platform): void {
  // BACKUP_SCHEDULE is read once at start: without it there is no job at all (nothing waits for one that never runs)
  if (p.config.backupEveryMs === null) return;
  p.jobs.schedule({
    name: 'backup',
    intervalMs: () => p.config.backupEveryMs,
    run: async () => {
      const t = await takeBackup(p.dbHandle, p.storage, { into: p.config.backupDir, secret: p.config.secret });
      const pruned = await pruneBackups(p.config.backupDir, p.config.backupKeep);
      p.log.info(
        { backup: t.dir, rows: t.manifest.tables.reduce((n, x) => n + x.rows, 0), pruned },
        'scheduled backup written',
      );
    },
  });
}
