import { mkdir, open, rename } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Platform } from '../context.js';
import { rows, type Db } from '../db/types.js';

const DAY_MS = 86_400_000;
const BATCH = 5_000;

export interface RetentionResult {
  archived: number;
  files: string[];
}

/**
 * Archives audit rows older than `retentionDays` to gzipped NDJSON files in `dir` (one file per batch, written
 * and fsynced before anything is deleted), then drops exactly those rows through rova_audit_purge — the only
 * delete the append-only trigger lets through. A crash between the two leaves the rows in place; the next run
 * archives them again (an archive may then hold a row twice; none is ever lost).
 */
export async function archiveAndPurgeAudit(
  db: Db,
  opts: { retentionDays: number; dir: string; now?: Date },
): Promise<RetentionResult> {
  const cutoff = new Date((opts.now ?? new Date()).getTime() - opts.retentionDays * DAY_MS).toISOString();
  const result: RetentionResult = { archived: 0, files: [] };
  for (;;) {
    const batch = await rows<Record<string, unknown> & { id: number }>(
      db,
      sql`SELECT id::int AS id, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, request_id, actor_user_id::int AS actor_user_id,
        actor_login, auth_method, api_key_id::int AS api_key_id, ip, method, route, path, target, status, outcome, details
        FROM rova_audit_log WHERE at < ${cutoff}::timestamptz ORDER BY id LIMIT ${BATCH}`,
    );
    if (batch.length === 0) return result;
    const first = batch[0]!.id;
    const last = batch[batch.length - 1]!.id;
    await mkdir(opts.dir, { recursive: true });
    const file = path.join(opts.dir, `audit-${cutoff.slice(0, 10)}-${first}-${last}.ndjson.gz`);
    await writeDurably(file, gzipSync(batch.map((r) => JSON.stringify(r)).join('\n') + '\n'));
    await db.execute(sql`SELECT rova_audit_purge(${cutoff}::timestamptz, ${last})`);
    result.archived += batch.length;
    result.files.push(file);
  }
}

async function writeDurably(file: string, data: Buffer): Promise<void> {
  const tmp = `${file}.tmp`;
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, file);
}

/** Daily job (one node at a time, JobRunner lease): AUDIT_RETENTION_DAYS, archives in AUDIT_ARCHIVE_DIR. */
export function scheduleAuditRetention(p: Platform): void {
  p.jobs.schedule({
    name: 'audit-retention',
    intervalMs: () => DAY_MS,
    run: async () => {
      const r = await archiveAndPurgeAudit(p.db, {
        retentionDays: p.config.auditRetentionDays,
        dir: p.config.auditArchiveDir,
      });
      if (r.archived > 0)
        p.log.info({ archived: r.archived, files: r.files }, 'audit rows past retention archived and dropped');
    },
  });
}
