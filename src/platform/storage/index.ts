import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../db/types.js';
import { databaseStorage } from './database.js';
import { fileStorage } from './file.js';
import { parseS3Url, s3Storage } from './s3.js';
import type { ObjectStorage } from './types.js';

export { StorageUnavailableError, type ObjectStorage, type StoredObject } from './types.js';

/** An S3 (or S3-compatible) location on its own, for files that are not the store's (backups). */
export const openS3 = (url: string): ObjectStorage => s3Storage(parseS3Url(url));

/**
 * STORAGE_URL → a storage: unset or `database` (files in the database, shared by every node), `s3://bucket…`
 * (S3 or an S3-compatible server) or `file:///absolute/dir` (one node, or a shared mount).
 */
export function openStorage(url: string | null, db: Db): ObjectStorage {
  const u = (url ?? '').trim();
  if (!u || u === 'database') return databaseStorage(db);
  if (u.startsWith('s3://')) return s3Storage(parseS3Url(u));
  if (u.startsWith('file://')) return fileStorage(fileRoot(u));
  throw new Error(
    `STORAGE_URL must be "database", s3://bucket[/prefix]?endpoint=… or file:///absolute/dir (got ${JSON.stringify(u)})`,
  );
}

/** Checks a STORAGE_URL without opening anything (configuration errors at start, exit 2). */
export function checkStorageUrl(url: string): string | null {
  const u = url.trim();
  if (!u || u === 'database') return null;
  try {
    if (u.startsWith('s3://')) parseS3Url(u);
    else if (u.startsWith('file://')) fileRoot(u);
    else return 'STORAGE_URL must be "database", s3://bucket[/prefix]?endpoint=… or file:///absolute/dir';
  } catch (err) {
    return (err as Error).message;
  }
  return null;
}

function fileRoot(u: string): string {
  const root = fileURLToPath(u);
  if (!path.isAbsolute(root))
    throw new Error('STORAGE_URL: file:// needs an absolute directory (file:///srv/rova-files)');
  return root;
}
