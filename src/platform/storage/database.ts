import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../db/types.js';
import { checkKey, type ObjectStorage } from './types.js';

/**
 * Files in the database (table rova_objects, migration 0600): the default, because every node already shares
 * the database — nothing else to run. Fine for documents of a few MB; large volumes belong in S3.
 */
export function databaseStorage(db: Db): ObjectStorage {
  return {
    kind: 'database',
    label: 'database',
    async put(key, data, contentType) {
      await db.execute(sql`INSERT INTO rova_objects (key, content_type, size, data) VALUES (${checkKey(key)}, ${contentType}, ${data.length}, ${data})
        ON CONFLICT (key) DO UPDATE SET content_type = EXCLUDED.content_type, size = EXCLUDED.size, data = EXCLUDED.data, created_at = now()`);
    },
    async get(key) {
      const r = await one<{ content_type: string; data: Uint8Array }>(
        db,
        sql`SELECT content_type, data FROM rova_objects WHERE key = ${checkKey(key)}`,
      );
      return r ? { contentType: r.content_type, data: Buffer.from(r.data) } : null;
    },
    async delete(key) {
      await db.execute(sql`DELETE FROM rova_objects WHERE key = ${checkKey(key)}`);
    },
    async *keys(prefix) {
      let after = '';
      for (;;) {
        const page = await rows<{ key: string }>(
          db,
          sql`SELECT key FROM rova_objects WHERE starts_with(key, ${prefix}) AND key > ${after} ORDER BY key LIMIT 500`,
        );
        for (const r of page) yield r.key;
        if (page.length < 500) return;
        after = page[page.length - 1]!.key;
      }
    },
    async close() {},
  };
}
