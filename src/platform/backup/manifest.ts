import { createHash, createHmac } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The layout of a backup directory; restore reads both and refuses formats it does not know (a newer Rova's).
 * 1: every table as NDJSON under `tables/` (the embedded database; every backup of Rova 0.2.0).
 * 2: PostgreSQL as one `pg_dump --format=custom` archive, `database.dump`; the manifest still counts each table.
 */
export const NDJSON_FORMAT = 1;
export const PG_DUMP_FORMAT = 2;
export type BackupFormat = typeof NDJSON_FORMAT | typeof PG_DUMP_FORMAT;
/** The archive of a format-2 backup. */
export const PG_DUMP_FILE = 'database.dump';

export const MANIFEST_FILE = 'manifest.json';

/** One file of the backup, by its path inside the backup directory. */
export interface BackupFile {
  path: string;
  bytes: number;
  sha256: string;
}

export interface BackupManifest {
  format: BackupFormat;
  /** Rova's version that took the backup. */
  version: string;
  /** When the snapshot was taken (every write committed before it is in the backup). */
  taken_at: string;
  /** `pglite` (embedded) or `postgresql`: either restores into either. */
  engine: 'pglite' | 'postgresql';
  /** Migrations applied to the database at the snapshot, with their checksums. */
  migrations: { name: string; checksum: string }[];
  /** Every table with its rows at the snapshot; in format 1 also its NDJSON file (format 2: in the archive). */
  tables: { name: string; rows: number; file?: BackupFile }[];
  /** Format 2: the pg_dump archive, with the versions that made it (pg_restore must be at least as new). */
  dump?: { file: BackupFile; pg_dump: string; pg_dump_major: number; server_major: number };
  sequences: { name: string; value: number | null }[];
  /** Files of the configured storage (vendor documents, statements); none when the storage is the database. */
  storage: { label: string; objects: { key: string; content_type: string; file: BackupFile }[] };
  /**
   * The data is sealed with ROVA_SECRET (IBANs, API keys, sessions), which is NOT in the backup: keep it apart.
   * This fingerprint (an HMAC of a constant under the secret) lets restore tell whether it has the right one.
   */
  secret_fingerprint: string;
}

export function secretFingerprint(secret: string): string {
  return createHmac('sha256', secret).update('rova-backup-secret-fingerprint').digest('hex').slice(0, 32);
}

export function sha256File(file: string): Promise<{ sha256: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let bytes = 0;
    createReadStream(file)
      .on('data', (c: string | Buffer) => {
        const b = typeof c === 'string' ? Buffer.from(c) : c;
        hash.update(b);
        bytes += b.length;
      })
      .on('error', reject)
      .on('end', () => resolve({ sha256: hash.digest('hex'), bytes }));
  });
}

/** A backup that cannot be restored as it is: the message names what is wrong and what to do. */
export class BackupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefused';
  }
}

/** Reads the manifest and checks every file it lists against its size and checksum. */
export async function readVerifiedManifest(dir: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(dir, MANIFEST_FILE), 'utf8')) as BackupManifest;
  } catch (err) {
    throw new BackupRefused(
      `${dir} is not a readable Rova backup (${MANIFEST_FILE}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  if (manifest.format !== NDJSON_FORMAT && manifest.format !== PG_DUMP_FORMAT)
    throw new BackupRefused(
      `${dir} is a backup in format ${String(manifest.format)}; this Rova reads formats ${NDJSON_FORMAT} and ` +
        `${PG_DUMP_FORMAT}: restore it with the Rova that took it (${String(manifest.version)}) or later`,
    );
  const files: (BackupFile | undefined)[] =
    manifest.format === PG_DUMP_FORMAT ? [manifest.dump?.file] : manifest.tables.map((t) => t.file);
  if (files.some((f) => f === undefined))
    throw new BackupRefused(`${dir}/${MANIFEST_FILE} does not name the file of every table: the backup is damaged`);
  files.push(...manifest.storage.objects.map((o) => o.file));
  for (const f of files as BackupFile[]) {
    const full = path.join(dir, f.path);
    if (path.relative(dir, full).startsWith('..')) throw new BackupRefused(`${f.path}: not a path inside the backup`);
    let got: { sha256: string; bytes: number };
    try {
      got = await sha256File(full);
    } catch {
      throw new BackupRefused(`${f.path} is missing from the backup in ${dir}`);
    }
    if (got.sha256 !== f.sha256 || got.bytes !== f.bytes)
      throw new BackupRefused(
        `${f.path} does not match its checksum in the manifest (the backup is damaged): restore another backup`,
      );
  }
  return manifest;
}
