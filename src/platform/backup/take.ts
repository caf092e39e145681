import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, chmod, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { sql } from 'drizzle-orm';
import { VERSION } from '../../version.js';
import type { DbHandle } from '../db/connect.js';
import { rows, toDate, type Db } from '../db/types.js';
import type { ObjectStorage } from '../storage/types.js';
import type pg from 'pg';
import {
  MANIFEST_FILE,
  NDJSON_FORMAT,
  PG_DUMP_FILE,
  PG_DUMP_FORMAT,
  secretFingerprint,
  sha256File,
  type BackupFile,
  type BackupManifest,
} from './manifest.js';
import { directUrl, findTool, pgDump, serverMajor } from './pgdump.js';

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
 * A consistent backup of a running database, written to `<name>.partial` and renamed when complete (a directory named
 * like a backup is always a whole one). On PostgreSQL, `pg_dump --format=custom` (format 2) inside a snapshot Rova
 * exports from a repeatable-read transaction that also reads the manifest's migrations and row counts, so the counts
 * are the archive's. On the embedded database (no pg_dump can reach it), every table read inside one repeatable-read,
 * read-only transaction and streamed to NDJSON with a cursor (format 1, memory stays flat). Either way one snapshot:
 * a booking and its payments and ledger rows are all in or all out. Then the storage's files.
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
  await mkdir(work, { recursive: true });
  try {
    const manifest =
      handle.kind === 'postgres'
        ? await dumpPostgres(handle.raw as pg.Pool, work, storage, opts)
        : await dumpTables(handle, work, storage, opts);
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

/** Format 1: every table as NDJSON, read in one repeatable-read, read-only transaction. */
async function dumpTables(
  handle: DbHandle,
  work: string,
  storage: ObjectStorage,
  opts: TakeBackupOptions,
): Promise<BackupManifest> {
  await mkdir(path.join(work, 'tables'), { recursive: true });
  return handle.db.transaction(
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
        format: NDJSON_FORMAT,
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
}

/**
 * Format 2: a repeatable-read, read-only transaction on one connection exports its snapshot, reads the migrations,
 * the rows of every table and the sequences, and stays open while `pg_dump --snapshot` dumps in that same snapshot.
 */
async function dumpPostgres(
  pool: pg.Pool,
  work: string,
  storage: ObjectStorage,
  opts: TakeBackupOptions,
): Promise<BackupManifest> {
  const url = pool.options.connectionString;
  if (!url) throw new Error('the PostgreSQL pool has no connection string to give pg_dump');
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const q = async <T>(text: string) => (await client.query(text)).rows as T[];
    const head = (
      await q<{ snapshot: string; now: string; server: string; addr: string | null; port: number | null; own: string }>(
        `SELECT pg_export_snapshot() AS snapshot, now()::text AS now, current_setting('server_version_num') AS server,
                host(inet_server_addr()) AS addr, inet_server_port() AS port, current_setting('port') AS own`,
      )
    )[0]!;
    const server = serverMajor(head.server);
    // before anything is read: a missing or too old pg_dump fails here, naming the package to install
    // the server's own major when installed: its archive then restores with a pg_restore no newer than the server
    const tool = await findTool('pg_dump', server, `the PostgreSQL ${server} server at DATABASE_URL`, {
      atMost: server,
    });
    const migrations = await q<{ name: string; checksum: string }>(
      'SELECT name, checksum FROM rova_migrations ORDER BY name',
    );
    const names = (
      await q<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
      )
    ).map((x) => x.name);
    const tables: BackupManifest['tables'] = [];
    for (const table of names) {
      const n = (await q<{ n: number }>(`SELECT count(*)::int8 AS n FROM ${quoteIdentifier(table)}`))[0]!.n;
      tables.push({ name: table, rows: Number(n) });
    }
    const sequences = await q<{ name: string; value: number | null }>(
      `SELECT sequencename AS name, last_value::int8 AS value FROM pg_sequences
       WHERE schemaname = current_schema() ORDER BY 1`,
    );
    const archive = path.join(work, PG_DUMP_FILE);
    const direct = await directUrl(url, head.addr, head.port ?? Number(head.own));
    await pgDump(tool, direct, head.snapshot, archive);
    await client.query('COMMIT');
    await chmod(archive, 0o600); // sealed values, as the NDJSON files
    const sum = await sha256File(archive);
    return {
      format: PG_DUMP_FORMAT,
      version: VERSION,
      taken_at: toDate(head.now).toISOString(),
      engine: 'postgresql',
      migrations,
      tables,
      sequences: sequences.map((s) => ({ name: s.name, value: s.value === null ? null : Number(s.value) })),
      dump: {
        file: { path: PG_DUMP_FILE, ...sum },
        pg_dump: tool.version,
        pg_dump_major: tool.major,
        server_major: server,
      },
      storage: { label: storage.label, objects: [] },
      secret_fingerprint: secretFingerprint(opts.secret),
    };
  } catch (err) {
    await client.query('ROLLBACK').catch((e: unknown) => {
      broken = e instanceof Error ? e : new Error(String(e));
    });
    throw err;
  } finally {
    client.release(broken);
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
