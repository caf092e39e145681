import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { rows, type Db } from '../db/types.js';

/** Values with a time to live, shared by every node (database or Redis). */
export interface Transients {
  get<T>(key: string): Promise<T | undefined>;
  /** ttlSeconds ≤ 0 or undefined keeps the value until deleted. */
  set(key: string, value: unknown, ttlSeconds?: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Read-modify-write as one step: concurrent updates of the same key (any node) run one after another, so
   * none is lost. `fn` gets the current value (undefined when missing or expired) and returns the new one
   * (undefined deletes the key); `ttlSeconds` may depend on the new value. Returns what was stored.
   */
  update<T>(
    key: string,
    fn: (current: T | undefined) => T | undefined,
    ttlSeconds?: number | ((value: T) => number),
  ): Promise<T | undefined>;
}

const ttlOf = <T>(ttl: number | ((value: T) => number) | undefined, value: T): number | undefined =>
  typeof ttl === 'function' ? ttl(value) : ttl;

export function createDbTransients(db: Db): Transients {
  const t: Transients = {
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
    async update<T>(key: string, fn: (current: T | undefined) => T | undefined, ttl?: number | ((value: T) => number)) {
      return db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        // A missing row cannot be locked with FOR UPDATE: an advisory lock on the key serialises writers.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${'rova_transient:' + key}))`);
        const next = fn(await createDbTransients(tx).get<T>(key));
        if (next === undefined) await tx.execute(sql`DELETE FROM rova_transients WHERE key = ${key}`);
        else await createDbTransients(tx).set(key, next, ttlOf(ttl, next));
        return next;
      });
    },
  };
  return t;
}

/** Deletes the lock only if we still hold it (our token), so an expired lock taken over is never released by us. */
const UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
const LOCK_MS = 10_000;

export function createRedisTransients(redis: Redis, prefix: string): Transients {
  const k = (key: string) => `${prefix}transient:${key}`;
  const t: Transients = {
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
    async update<T>(key: string, fn: (current: T | undefined) => T | undefined, ttl?: number | ((value: T) => number)) {
      // A short lock per key (SET NX PX) across nodes; the update itself is a few milliseconds.
      const lock = `${prefix}transient-lock:${key}`;
      const token = randomBytes(12).toString('hex');
      const deadline = Date.now() + LOCK_MS;
      while ((await redis.set(lock, token, 'PX', LOCK_MS, 'NX')) !== 'OK') {
        if (Date.now() > deadline) throw new Error(`transient ${key}: lock not acquired within ${LOCK_MS} ms`);
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
      }
      try {
        const next = fn(await t.get<T>(key));
        if (next === undefined) await t.delete(key);
        else await t.set(key, next, ttlOf(ttl, next));
        return next;
      } finally {
        await redis.eval(UNLOCK, 1, lock, token);
      }
    },
  };
  return t;
}
