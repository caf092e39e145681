import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { rows, type Db } from '../db/types.js';

/** Values with a time to live, shared by every node (database or Redis). */
export interface Transients {
  get<T>(key: string): Promise<T | undefined>;
  /** ttlSeconds ≤ 0 or undefined keeps the value until deleted. */
  set(key: string, value: unknown, ttlSeconds?: number): Promise<void>;
  delete(key: string): Promise<void>;
}

export function createDbTransients(db: Db): Transients {
  return {
    async get<T>(key: string) {
      const r = await rows<{ value: T }>(
        db,
        sql`SELECT value FROM rova_transients WHERE key = ${key} AND (expires_at IS NULL OR expires_at > now())`,
      );
      return r[0]?.value;
    },
    async set(key, value, ttlSeconds) {
      const json = JSON.stringify(value ?? null);
      const expires = ttlSeconds && ttlSeconds > 0 ? new Date(Date.now() + ttlSeconds * 1000).toISOString() : null;
      await db.execute(sql`INSERT INTO rova_transients (key, value, expires_at) VALUES (${key}, ${json}::jsonb, ${expires})
        ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`);
      // Opportunistic sweep so expired rows do not pile up.
      if (Math.random() < 0.05) await db.execute(sql`DELETE FROM rova_transients WHERE expires_at < now()`);
    },
    async delete(key) {
      await db.execute(sql`DELETE FROM rova_transients WHERE key = ${key}`);
    },
  };
}

export function createRedisTransients(redis: Redis, prefix: string): Transients {
  const k = (key: string) => `${prefix}transient:${key}`;
  return {
    async get<T>(key: string) {
      const raw = await redis.get(k(key));
      return raw === null ? undefined : (JSON.parse(raw) as T);
    },
    async set(key, value, ttlSeconds) {
      const json = JSON.stringify(value ?? null);
      if (ttlSeconds && ttlSeconds > 0) await redis.set(k(key), json, 'EX', Math.ceil(ttlSeconds));
      else await redis.set(k(key), json);
    },
    async delete(key) {
      await redis.del(k(key));
    },
  };
}
