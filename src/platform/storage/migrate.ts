import { createHash } from 'node:crypto';
import { checkKey, type ObjectStorage } from './types.js';

export interface StorageMigration {
  copied: number;
  /** Already in the target with the same bytes (a re-run after an interruption). */
  unchanged: number;
  deleted: number;
  /** Names in the source that are not Rova's keys (left alone). */
  ignored: string[];
}

const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Copies every object from one storage to another, reading each copy back before it counts (and before the source
 * is deleted, with deleteSource). Safe to re-run: objects already in the target with the same bytes are skipped.
 */
export async function migrateStorage(
  from: ObjectStorage,
  to: ObjectStorage,
  opts: { deleteSource?: boolean; onObject?: (key: string, action: 'copied' | 'unchanged') => void } = {},
): Promise<StorageMigration> {
  const out: StorageMigration = { copied: 0, unchanged: 0, deleted: 0, ignored: [] };
  for await (const key of from.keys('')) {
    try {
      checkKey(key);
    } catch {
      out.ignored.push(key);
      continue;
    }
    const source = await from.get(key);
    if (!source) continue; // deleted meanwhile
    const existing = await to.get(key);
    if (existing && digest(existing.data) === digest(source.data)) {
      out.unchanged += 1;
      opts.onObject?.(key, 'unchanged');
    } else {
      await to.put(key, source.data, source.contentType);
      const back = await to.get(key);
      if (!back || digest(back.data) !== digest(source.data))
        throw new Error(`${key}: the copy in ${to.label} does not read back the same bytes; the source is kept`);
      out.copied += 1;
      opts.onObject?.(key, 'copied');
    }
    if (opts.deleteSource) {
      await from.delete(key);
      out.deleted += 1;
    }
  }
  return out;
}
