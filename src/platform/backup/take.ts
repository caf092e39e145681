import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { sql } from 'drizzle-orm';
import { VERSION } from '../../version.js';
import type { DbHandle } from '../db/connect.js';
import { rows, toDate, type Db } from '../db/types.js';
import type { ObjectStorage } from '../storage/types.js';
import { BACKUP_FORMAT, MANIFEST_FILE, secretFingerprint, type BackupFile, type BackupManifest } from './manifest.js';

const FETCH_ROWS = 1000;

export interface TakeBackupOptions {
  /** The directory that receives the backup's own directory (`rova-backup-<time>`). */
  into: string;
  secret: string;
  now?: Date;
}

export interface TakenBackup {
  dir: string;
  manifest: BackupManifest;
}

/** A table or sequence name as SQL text (`regclass` input, statements built from catalogue names). */
export const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** `rova-backup-20261126T201500Z`: sorts by time, which retention relies on. */
export const backupName = (at: Date) =>
  `rova-backup-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;
export const BACKUP_NAME = /^rova-backup-\d{8}T\d{6}Z(-\d+)?$/;

/**
 * A consistent backup of a running database: every table read inside one repeatable-read, read-only transaction
 * (one snapshot, so a booking and its payments and ledger rows are all in or all out), streamed to NDJSON with a
 * cursor (memory stays flat), then the storage's files. Written to `<name>.partial` and renamed when complete, so a
 * directory named like a backup is always a whole one.
 */
export async function takeBackup(
  handle: DbHandle,
  storage: ObjectStorage,
  opts: TakeBackupOptions,
): Promise<TakenBackup> {
  const takenAt = opts.now ?? new Date();
  await mkdir(opts.into, { recursive: true });
  const name = await freeName(opts.into, backupName(takenAt));
  const final = path.join(opts.into, name);
  const work = `${final}.partial`;
  await rm(work, { recursive: true, force: true });
  await mkdir(path.join(work, 'tables'), { recursive: true });
  try {
    const manifest: BackupManifest = await handle.db.transaction(
      async (tx): Promise<BackupManifest> => {
        const snapshotAt = (await rows<{ now: string }>(tx, sql`SELECT now()::text AS now`))[0]!.now;
        const migrations = await rows<{ name: string; checksum: string }>(
          tx,
          sql`SELECT name, checksum FROM rova_migrations ORDER BY name`,
        );
        const tables: BackupManifest['tables'] = [];
        for (const table of await listTables(tx)) tables.push(await dumpTable(tx, table, work));
        const sequences = await rows<{ name: string; value: number | null }>(
          tx,
          sql`SELECT sequencename AS name, last_value::int8 AS value FROM pg_sequences
              WHERE schemaname = current_schema() ORDER BY 1`,
        );
        return {
          format: BACKUP_FORMAT,
          version: VERSION,
          taken_at: toDate(snapshotAt).toISOString(),
          engine: handle.kind === 'pglite' ? 'pglite' : 'postgresql',
          migrations,
          tables,
          sequences,
          storage: { label: storage.label, objects: [] },
          secret_fingerprint: secretFingerprint(opts.secret),
        };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    // The database's own storage is inside the tables already; files elsewhere are copied after the snapshot (a
    // file is written before the row that names it, so every file a backed-up row names exists by now).
    if (storage.kind !== 'database') manifest.storage.objects = await copyStorage(storage, work);
    await writeDurably(path.join(work, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    await rename(work, final);
    return { dir: final, manifest };
  } catch (err) {
    await rm(work, { recursive: true, force: true });
    throw err;
  }
}

async function freeName(dir: string, base: string): Promise<string> {
  for (let i = 0; ; i++) {
    const name = i === 0 ? base : `${base}-${i}`;
    try {
      await access(path.join(dir, name));
    } catch {
      return name;
    }
  }
}

/** Every table of Rova's schema (a partitioned table through its parent). */
export async function listTables(db: Db): Promise<string[]> {
  const r = await rows<{ name: string }>(
    db,
    sql`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
  );
  return r.map((x) => x.name);
}

async function dumpTable(tx: Db, table: string, work: string): Promise<BackupManifest['tables'][number]> {
  const rel = `tables/${table}.ndjson`;
  const out = createWriteStream(path.join(work, rel), { mode: 0o600 });
  const hash = createHash('sha256');
  let bytes = 0;
  let count = 0;
  const write = async (text: string) => {
    const b = Buffer.from(text);
    hash.update(b);
    bytes += b.length;
    if (!out.write(b)) await once(out, 'drain');
  };
  // In primary-key order: a row that names an earlier row of its table (a reply, a variation's parent, a reversal)
  // comes after it, which a restore without trigger control needs; and the same data gives the same file.
  const key = await primaryKey(tx, table);
  const order = key.length
    ? sql` ORDER BY ${sql.join(
        key.map((c) => sql.identifier(c)),
        sql`, `,
      )}`
    : sql``;
  await tx.execute(
    sql`DECLARE rova_backup_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS r FROM ${sql.identifier(table)} t${order}`,
  );
  for (;;) {
    const page = await rows<{ r: string }>(tx, sql.raw(`FETCH ${FETCH_ROWS} FROM rova_backup_rows`));
    if (page.length === 0) break;
    await write(page.map((x) => x.r).join('\n') + '\n');
    count += page.length;
  }
  await tx.execute(sql`CLOSE rova_backup_rows`);
  out.end();
  await once(out, 'close');
  return { name: table, rows: count, file: { path: rel, bytes, sha256: hash.digest('hex') } };
}

async function primaryKey(db: Db, table: string): Promise<string[]> {
  const r = await rows<{ name: string }>(
    db,
    sql`SELECT a.attname AS name FROM pg_index i
        JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n) ON true
        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
        WHERE i.indrelid = ${quoteIdentifier(table)}::regclass AND i.indisprimary ORDER BY k.n`,
  );
  return r.map((x) => x.name);
}

async function copyStorage(storage: ObjectStorage, work: string): Promise<BackupManifest['storage']['objects']> {
  const objects: BackupManifest['storage']['objects'] = [];
  for await (const key of storage.keys('')) {
    const obj = await storage.get(key);
    if (!obj) continue; // deleted since it was listed
    const rel = `storage/${key}`;
    await mkdir(path.dirname(path.join(work, rel)), { recursive: true });
    await writeFile(path.join(work, rel), obj.data, { mode: 0o600 });
    const file: BackupFile = {
      path: rel,
      bytes: obj.data.length,
      sha256: createHash('sha256').update(obj.data).digest('hex'),
    };
    objects.push({ key, content_type: obj.contentType, file });
  }
  return objects;
}

async function writeDurably(file: string, text: string): Promise<void> {
  const fh = await open(file, 'w', 0o600);
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
}
