import { mkdir, readdir, readFile, rm, writeFile, rename } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { checkKey, StorageUnavailableError, type ObjectStorage } from './types.js';

const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  csv: 'text/csv',
  json: 'application/json',
};

/**
 * Files in a local directory (`file:///srv/rova-files`): one node only, unless the directory is a shared mount.
 * Also how the files of Rova versions before shared storage are read (DATA_DIR/uploads, `rova storage migrate`).
 */
export function fileStorage(root: string): ObjectStorage {
  const where = (key: string) => path.join(root, ...checkKey(key).split('/'));
  const unavailable = (err: unknown) =>
    new StorageUnavailableError(`file storage at ${root} failed: ${(err as Error).message}`, { cause: err });
  return {
    kind: 'file',
    label: `file://${root}`,
    async put(key, data) {
      const file = where(key);
      try {
        await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
        // write then rename: a reader never sees half a file
        const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
        await writeFile(tmp, data, { mode: 0o600 });
        await rename(tmp, file);
      } catch (err) {
        throw unavailable(err);
      }
    },
    async get(key) {
      try {
        const data = await readFile(where(key));
        return { data, contentType: TYPES[key.split('.').pop() ?? ''] ?? 'application/octet-stream' };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw unavailable(err);
      }
    },
    async delete(key) {
      await rm(where(key), { force: true }).catch((err: unknown) => {
        throw unavailable(err);
      });
    },
    async *keys(prefix) {
      const out: string[] = [];
      const walk = async (dir: string, rel: string): Promise<void> => {
        let entries;
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
          throw unavailable(err);
        }
        for (const e of entries) {
          const k = rel ? `${rel}/${e.name}` : e.name;
          if (e.isDirectory()) await walk(path.join(dir, e.name), k);
          else if (e.isFile() && !e.name.endsWith('.tmp') && k.startsWith(prefix)) out.push(k);
        }
      };
      await walk(root, '');
      yield* out.sort();
    },
    async close() {},
  };
}
