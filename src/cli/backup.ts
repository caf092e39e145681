import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupRefused, readVerifiedManifest } from '../platform/backup/manifest.js';
import { askServerForBackup, embeddedServerPid } from '../platform/backup/handoff.js';
import { archiveTargetProblem, checkRestorable, databaseIsEmpty, restoreBackup } from '../platform/backup/restore.js';
import { takeBackup } from '../platform/backup/take.js';
import { connectDatabase } from '../platform/db/connect.js';
import { openS3, openStorage } from '../platform/storage/index.js';
import type { CliCommand, CliContext } from '../modules/types.js';
import { command, fail } from './command.js';

const isS3 = (where: string) => where.startsWith('s3://');

/** `rova backup [--to DIR|s3://bucket/prefix?endpoint=…]`. */
export const backupCommand: CliCommand = command(
  {
    summary: 'write a consistent backup of the database and stored files while the server runs',
    usage: ['backup [--to DIR|s3://bucket/prefix]'],
    details: [
      'The default --to is BACKUP_DIR (DATA_DIR/backups). The backup is a directory rova-backup-<time> with a',
      'manifest (version, migrations, rows per table, checksums). ROVA_SECRET is not in it: keep the secret apart.',
      'On PostgreSQL the database is a pg_dump custom-format archive: pg_dump of the server’s major version or newer',
      'must be on PATH (Debian: postgresql-client-NN). On the embedded database every table is NDJSON, and a running',
      'server takes the backup itself when asked (same machine, same DATA_DIR).',
    ],
  },
  async (ctx) => {
    const { values } = parseArgs({ args: ctx.args, options: { to: { type: 'string' } }, strict: true });
    const to = values.to ?? ctx.config.backupDir;
    const local = isS3(to) ? await mkdtemp(path.join(os.tmpdir(), 'rova-backup-')) : path.resolve(to);
    try {
      const dir = await backupInto(ctx, local);
      if (dir === null) return 1;
      if (isS3(to)) {
        const name = path.basename(dir);
        await uploadBackup(ctx, dir, to);
        ctx.io.stdout.write(`${to.replace(/\?.*$/, '')}/backups/${name}\n`);
      } else ctx.io.stdout.write(`${dir}\n`);
      return 0;
    } catch (err) {
      ctx.io.stderr.write(`rova: backup failed: ${(err as Error).message}\n`);
      return 1;
    } finally {
      if (isS3(to)) await rm(local, { recursive: true, force: true });
    }
  },
);

/** Takes the backup here, or has the running embedded server take it; the backup's directory, null on failure. */
async function backupInto(ctx: CliContext, into: string): Promise<string | null> {
  const pid = ctx.config.databaseUrl ? null : embeddedServerPid(ctx.config.dataDir);
  if (pid !== null) {
    ctx.io.stderr.write(`the embedded database is in use by the server (pid ${pid}): asking it to take the backup\n`);
    const r = await askServerForBackup(ctx.config.dataDir, pid, into);
    if ('error' in r) {
      ctx.io.stderr.write(`rova: the server could not take the backup: ${r.error}\n`);
      return null;
    }
    return r.dir;
  }
  const handle = await connectDatabase(ctx.config);
  const storage = openStorage(ctx.config.storageUrl, handle.db);
  try {
    const t = await takeBackup(handle, storage, { into, secret: ctx.config.secret });
    const rowsTotal = t.manifest.tables.reduce((n, x) => n + x.rows, 0);
    const how = t.manifest.dump ? ` (pg_dump archive, ${t.manifest.dump.pg_dump})` : '';
    ctx.io.stderr.write(
      `backup taken at ${t.manifest.taken_at}${how}: ${t.manifest.tables.length} tables, ${rowsTotal} rows, ` +
        `${t.manifest.storage.objects.length} stored files. ROVA_SECRET is not in it: keep a copy of the secret elsewhere.\n`,
    );
    return t.dir;
  } finally {
    await storage.close();
    await handle.close();
  }
}

async function uploadBackup(ctx: CliContext, dir: string, url: string): Promise<void> {
  const s3 = openS3(url);
  const name = path.basename(dir);
  try {
    for (const rel of walk(dir))
      await s3.put(`backups/${name}/${rel}`, await readFile(path.join(dir, rel)), 'application/octet-stream');
    ctx.io.stderr.write(`uploaded ${name} to ${s3.label}\n`);
  } finally {
    await s3.close();
  }
}

function walk(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(dir, r));
    else out.push(r);
  }
  return out;
}

async function downloadBackup(url: string, into: string): Promise<string> {
  // s3://bucket/prefix/backups/rova-backup-<time>?endpoint=…: the storage is the part before /backups/
  const m = /^(s3:\/\/[^?]*?)\/backups\/(rova-backup-[^/?]+)\/?(\?.*)?$/.exec(url);
  if (!m)
    throw new BackupRefused(
      `${url}: give the backup's address as printed by rova backup (…/backups/rova-backup-<time>)`,
    );
  const s3 = openS3(`${m[1]}${m[3] ?? ''}`);
  const dir = path.join(into, m[2]!);
  try {
    for await (const key of s3.keys(`backups/${m[2]}/`)) {
      const obj = await s3.get(key);
      if (!obj) continue;
      const file = path.join(dir, key.slice(`backups/${m[2]}/`.length));
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, obj.data);
    }
  } finally {
    await s3.close();
  }
  return dir;
}

/** `rova restore FROM`: into an empty DATA_DIR (embedded) or an empty PostgreSQL database (DATABASE_URL). */
export function restoreCommand(verify: () => CliCommand | undefined): CliCommand {
  return command(
    {
      summary: 'restore a backup into an empty database (embedded or PostgreSQL), then verify it',
      usage: ['restore FROM (a backup directory, or the s3:// address rova backup printed)'],
      details: [
        'Refuses a damaged backup (checksums), a target that holds data, and a ROVA_SECRET other than the one the',
        'backup was taken with. Migrates the restored data to this version and runs rova verify at the end.',
        'A backup of PostgreSQL (a pg_dump archive) restores into PostgreSQL only, with pg_restore (on PATH, at least',
        'as new as the pg_dump that made it); a backup of the embedded database restores into either.',
      ],
    },
    async (ctx) => {
      const { positionals } = parseArgs({ args: ctx.args, allowPositionals: true, strict: true });
      if (positionals.length !== 1) return fail(ctx, 'usage: rova restore FROM');
      const from = positionals[0]!;
      const tmp = isS3(from) ? await mkdtemp(path.join(os.tmpdir(), 'rova-restore-')) : null;
      try {
        const dir = tmp ? await downloadBackup(from, tmp) : path.resolve(from);
        return await restoreFrom(ctx, dir, verify());
      } catch (err) {
        if (err instanceof BackupRefused) {
          ctx.io.stderr.write(`rova: restore refused: ${err.message}\n`);
          return 2;
        }
        throw err;
      } finally {
        if (tmp) await rm(tmp, { recursive: true, force: true });
      }
    },
  );
}

async function restoreFrom(ctx: CliContext, dir: string, verify: CliCommand | undefined): Promise<number> {
  const manifest = await readVerifiedManifest(dir);
  checkRestorable(manifest, ctx.config.secret);
  const problem = archiveTargetProblem(manifest, !!ctx.config.databaseUrl);
  if (problem) throw new BackupRefused(problem);
  const pgdata = path.join(ctx.config.dataDir, 'pgdata');
  if (!ctx.config.databaseUrl && existsSync(pgdata) && readdirSync(pgdata).length > 0)
    throw new BackupRefused(
      `${ctx.config.dataDir} already holds a database: restore into an empty DATA_DIR (or move this one away first)`,
    );
  const handle = await connectDatabase(ctx.config);
  try {
    if (!(await databaseIsEmpty(handle.db)))
      throw new BackupRefused('the database at DATABASE_URL already holds tables: restore into an empty database');
    const storage = openStorage(ctx.config.storageUrl, handle.db);
    try {
      const r = await restoreBackup(handle, storage, dir, manifest);
      const how = manifest.dump ? ', pg_dump archive restored with pg_restore' : '';
      ctx.io.stderr.write(
        `restored the backup of ${manifest.taken_at} (Rova ${manifest.version}${how}): ${r.tables} tables, ` +
          `${r.rows} rows, ${r.objects} stored files\n`,
      );
    } finally {
      await storage.close();
    }
  } finally {
    await handle.close();
  }
  // A normal open migrates the restored data to this version; then the same checks as `rova verify`.
  const { app, migration } = await ctx.open();
  await app.close();
  if (migration.applied.length) ctx.io.stderr.write(`migrated to this version: ${migration.applied.join(', ')}\n`);
  if (!verify) return 0;
  ctx.io.stderr.write('verifying the restored data (rova verify)\n');
  return verify({ ...ctx, args: [] });
}
