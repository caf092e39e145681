import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { rows, type Db } from '../db/types.js';

/**
 * "Seen before?" for one-time values (OAuth nonces), shared by every node: Redis (`SET NX EX`) when REDIS_URL
 * is set, otherwise the transients table (one atomic upsert that only takes over an expired row).
 */
export interface ReplayCache {
  /** True the first time `key` is claimed within ttlSeconds; false for a replay. */
  claim(key: string, ttlSeconds: number): Promise<boolean>;
}

export function createDbReplayCache(db: Db): ReplayCache {
  return {
    async claim(key, ttlSeconds) {
      const expires = new Date(Date.now() + ttlSeconds * 1000).toISOString();
      const r = await rows<{ key: string }>(
        db,
        sql`INSERT INTO rova_transients (key, value, expires_at) VALUES (${`replay:${key}`}, 'true'::jsonb, ${expires})
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
            WHERE rova_transients.expires_at IS NOT NULL AND rova_transients.expires_at <= now()
            RETURNING key`,
      );
      // Opportunistic sweep, as the transients do: spent nonces must not pile up.
      if (Math.random() < 0.02)
        await db.execute(sql`DELETE FROM rova_transients WHERE key LIKE 'replay:%' AND expires_at < now()`);
      return r.length === 1;
    },
  };
}

export function createRedisReplayCache(redis: Redis, prefix: string): ReplayCache {
  return {
    async claim(key, ttlSeconds) {
      return (await redis.set(`${prefix}replay:${key}`, '1', 'EX', Math.max(1, Math.ceil(ttlSeconds)), 'NX')) === 'OK';
    },
  };
}
