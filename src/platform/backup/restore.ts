import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { sql } from 'drizzle-orm';
import type { DbHandle } from '../db/connect.js';
import { listMigrations, migrate } from '../db/migrate.js';
import { rows, type Db } from '../db/types.js';
import type { ObjectStorage } from '../storage/types.js';
import type pg from 'pg';
import { BackupRefused, PG_DUMP_FORMAT, secretFingerprint, type BackupManifest } from './manifest.js';
import { directUrl, findTool, pgRestore, restorableList, serverMajor } from './pgdump.js';
import { BACKUP_NAME, listTables, quoteIdentifier as quote } from './take.js';

/** Rows per INSERT: one statement's JSON parameter stays a few MB at most. */
const INSERT_ROWS = 500;

/** Refuses a backup this Rova cannot restore faithfully, before anything is written. */
export function checkRestorable(manifest: BackupManifest, secret: string): void {
  const known = new Map(listMigrations().map((m) => [m.name, m.checksum]));
  for (const m of manifest.migrations) {
    const mine = known.get(m.name);
    if (mine === undefined)
      throw new BackupRefused(
        `the backup was taken by a newer Rova (${manifest.version}, migration ${m.name}): restore it with that version or later`,
      );
    if (mine !== m.checksum)
      throw new BackupRefused(
        `migration ${m.name} differs from the one the backup was taken with: use Rova ${manifest.version}`,
      );
  }
  if (secretFingerprint(secret) !== manifest.secret_fingerprint)
    throw new BackupRefused(
      'this backup was sealed with another ROVA_SECRET: set ROVA_SECRET (or put DATA_DIR/secret) to the secret of the ' +
        'server that took it — without it stored IBANs, API keys and sessions cannot be read',
    );
}

/** Whether the target database holds anything (restore only writes into an empty one). */
export async function databaseIsEmpty(db: Db): Promise<boolean> {
  return (await listTables(db)).length === 0;
}

export interface RestoreResult {
  tables: number;
  rows: number;
  objects: number;
}

/**
 * Restores into an empty database. A pg_dump archive (format 2) through pg_restore, PostgreSQL only; NDJSON tables
 * (format 1: the embedded database, and Rova 0.2.0's backups of either) by Rova itself, into either.
 */
export async function restoreBackup(
  handle: DbHandle,
  storage: ObjectStorage,
  dir: string,
  manifest: BackupManifest,
): Promise<RestoreResult> {
  const r =
    manifest.format === PG_DUMP_FORMAT
      ? await restoreArchive(handle, dir, manifest)
      : await restoreTables(handle, dir, manifest);
  for (const o of manifest.storage.objects)
    await storage.put(o.key, await readFile(path.join(dir, o.file.path)), o.content_type);
  return { ...r, objects: manifest.storage.objects.length };
}

/** Why a pg_dump archive cannot go into this target, or null when it can (before anything is written). */
export function archiveTargetProblem(manifest: BackupManifest, postgres: boolean): string | null {
  if (manifest.format !== PG_DUMP_FORMAT || postgres) return null;
  return (
    'this backup is a pg_dump archive of a PostgreSQL database: restore it into an empty PostgreSQL database ' +
    '(set DATABASE_URL); the embedded database cannot load it'
  );
}

/**
 * pg_restore into the empty database, in one transaction (a failure leaves it empty), then counts every table and
 * compares with the manifest. The data, sequences, indexes, constraints and triggers are the archive's: the
 * triggers are created after the data, as pg_dump orders them.
 */
async function restoreArchive(
  handle: DbHandle,
  dir: string,
  manifest: BackupManifest,
): Promise<Omit<RestoreResult, 'objects'>> {
  const problem = archiveTargetProblem(manifest, handle.kind === 'postgres');
  if (problem) throw new BackupRefused(problem);
  const dump = manifest.dump!;
  const url = (handle.raw as pg.Pool).options.connectionString;
  if (!url) throw new Error('the PostgreSQL pool has no connection string to give pg_restore');
  const server = (
    await rows<{ v: string; addr: string | null; port: number | null; own: string }>(
      handle.db,
      sql`SELECT current_setting('server_version_num') AS v, host(inet_server_addr()) AS addr,
          inet_server_port() AS port, current_setting('port') AS own`,
    )
  )[0]!;
  const target = serverMajor(server.v);
  if (target < dump.server_major)
    throw new BackupRefused(
      `the backup is of a PostgreSQL ${dump.server_major} database and the one at DATABASE_URL runs PostgreSQL ` +
        `${target}: restore a pg_dump archive into PostgreSQL ${dump.server_major} or newer`,
    );
  const tool = await findTool('pg_restore', dump.pg_dump_major, `the archive of pg_dump ${dump.pg_dump_major}`, {
    atMost: target,
  });
  const archive = path.join(dir, dump.file.path);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'rova-pg-restore-'));
  try {
    const list = path.join(tmp, 'restore.list');
    await writeFile(list, await restorableList(tool, archive), { mode: 0o600 });
    await pgRestore(tool, await directUrl(url, server.addr, server.port ?? Number(server.own)), archive, list);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  let total = 0;
  const differ: string[] = [];
  for (const t of manifest.tables) {
    const n = (await rows<{ n: number }>(handle.db, sql`SELECT count(*)::int8 AS n FROM ${sql.identifier(t.name)}`))[0]!
      .n;
    total += Number(n);
    if (Number(n) !== t.rows) differ.push(`${t.name}: ${n} rows, the backup counted ${t.rows}`);
  }
  if (differ.length) throw new Error(`the restored database differs from the backup's manifest (${differ.join('; ')})`);
  return { tables: manifest.tables.length, rows: total };
}

/**
 * Format 1 (NDJSON) into an empty database: migrates it to the backup's schema (exactly the migrations the backup had),
 * loads every table in one transaction with triggers off (the rows are already what the triggers made), sets the
 * sequences past the restored ids, then copies the storage's files. The caller migrates to this version afterwards.
 */
async function restoreTables(
  handle: DbHandle,
  dir: string,
  manifest: BackupManifest,
): Promise<Omit<RestoreResult, 'objects'>> {
  const had = new Set(manifest.migrations.map((m) => m.name));
  await migrate(
    handle,
    listMigrations().filter((m) => had.has(m.name)),
  );
  let total = 0;
  await handle.db.transaction(async (tx) => {
    // With triggers off (session_replication_role, which needs a superuser or, from PostgreSQL 15, a grant) the
    // tables load in any order. Without it, in foreign-key order with the triggers on: the only insert trigger
    // recomputes a booking's hold from its own row, and the append-only ones never fire on inserts.
    const triggersOff = await tx
      .transaction(async (sp) => {
        await sp.execute(sql`SET LOCAL session_replication_role = replica`);
      })
      .then(
        () => true,
        () => false,
      );
    const present = await listTables(tx);
    const order = triggersOff ? present : await foreignKeyOrder(tx, present);
    // what the migrations wrote (settings, defaults) makes way for the backup's rows
    for (const table of [...order].reverse()) await tx.execute(sql`DELETE FROM ${sql.identifier(table)}`);
    const byName = new Map(manifest.tables.map((t) => [t.name, t]));
    for (const t of manifest.tables)
      if (!present.includes(t.name)) throw new BackupRefused(`the backup has table ${t.name}, which its schema lacks`);
    for (const name of order) {
      const t = byName.get(name);
      if (t) total += await loadTable(tx, t.name, path.join(dir, t.file!.path));
    }
    for (const s of manifest.sequences) {
      if (s.value === null) continue;
      await tx.execute(sql`SELECT setval(${quote(s.name)}::regclass, ${s.value}, true)`);
    }
  });
  return { tables: manifest.tables.length, rows: total };
}

/** Tables ordered so that every table comes after the tables its foreign keys name. */
async function foreignKeyOrder(db: Db, tables: string[]): Promise<string[]> {
  const edges = await rows<{ child: string; parent: string }>(
    db,
    sql`SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
        JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE k.contype = 'f' AND k.conrelid <> k.confrelid AND n.nspname = current_schema()`,
  );
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const e of edges) parents.get(e.child)?.add(e.parent);
  const done: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string, path: string[]) => {
    if (seen.has(t)) return;
    if (path.includes(t)) throw new BackupRefused(`foreign keys form a cycle (${[...path, t].join(' → ')})`);
    for (const p of parents.get(t) ?? []) visit(p, [...path, t]);
    seen.add(t);
    done.push(t);
  };
  for (const t of tables) visit(t, []);
  return done;
}

async function loadTable(tx: Db, table: string, file: string): Promise<number> {
  const cols = (
    await rows<{ name: string }>(
      tx,
      sql`SELECT attname AS name FROM pg_attribute WHERE attrelid = ${quote(table)}::regclass
          AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
    )
  ).map((c) => quote(c.name));
  const list = cols.join(', ');
  let batch: string[] = [];
  let count = 0;
  const flush = async () => {
    if (!batch.length) return;
    await tx.execute(
      sql`INSERT INTO ${sql.raw(quote(table))} (${sql.raw(list)}) OVERRIDING SYSTEM VALUE
          SELECT ${sql.raw(list)} FROM json_populate_recordset(NULL::${sql.raw(quote(table))}, ${'[' + batch.join(',') + ']'}::json)`,
    );
    count += batch.length;
    batch = [];
  };
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (line === '') continue;
    batch.push(line);
    if (batch.length >= INSERT_ROWS) await flush();
  }
  await flush();
  return count;
}

/** Completed backups in a directory, oldest first (names sort by time). */
export async function listBackups(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory() && BACKUP_NAME.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}
