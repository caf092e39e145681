import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { sql } from 'drizzle-orm';
import type { DbHandle } from '../db/connect.js';
import { listMigrations, migrate } from '../db/migrate.js';
import { rows, type Db } from '../db/types.js';
import type { ObjectStorage } from '../storage/types.js';
import { BackupRefused, secretFingerprint, type BackupManifest } from './manifest.js';
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
 * Restores into an empty database: migrates it to the backup's schema (exactly the migrations the backup had),
 * loads every table in one transaction with triggers off (the rows are already what the triggers made), sets the
 * sequences past the restored ids, then copies the storage's files. The caller migrates to this version afterwards.
 */
export async function restoreBackup(
  handle: DbHandle,
  storage: ObjectStorage,
  dir: string,
  manifest: BackupManifest,
): Promise<RestoreResult> {
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
      if (t) total += await loadTable(tx, t.name, path.join(dir, t.file.path));
    }
    for (const s of manifest.sequences) {
      if (s.value === null) continue;
      await tx.execute(sql`SELECT setval(${quote(s.name)}::regclass, ${s.value}, true)`);
    }
  });
  for (const o of manifest.storage.objects)
    await storage.put(o.key, await readFile(path.join(dir, o.file.path)), o.content_type);
  return { tables: manifest.tables.length, rows: total, objects: manifest.storage.objects.length };
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
