import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/types.js';
import type { InvalidationBus } from './bus.js';

/**
 * Business settings stored in the database (like WordPress options), read through an in-memory cache that
 * every node drops when any node writes (invalidation bus).
 */
export interface Options {
  get<T>(name: string): Promise<T | undefined>;
  /**
   * In a transaction (`db`), the cached value is dropped before the commit: a read in between caches the old value
   * again, so the caller calls `forget` once the transaction committed.
   */
  set(name: string, value: unknown, db?: Db): Promise<void>;
  delete(name: string, db?: Db): Promise<void>;
  /** Drops the cached value on every node (after a transaction that set it committed). */
  forget(name: string): Promise<void>;
}

const TOPIC = 'options';

export function createOptions(db: Db, bus: InvalidationBus): Options {
  const cache = new Map<string, unknown>();
  // Bumped on every invalidation: a read that started before it must not store its (stale) answer.
  let generation = 0;
  const drop = (name: string) => {
    generation += 1;
    if (name === '*') cache.clear();
    else cache.delete(name);
  };
  bus.subscribe(TOPIC, drop);
  return {
    async get<T>(name: string) {
      if (cache.has(name)) return cache.get(name) as T | undefined;
      const gen = generation;
      const r = await rows<{ value: T }>(db, sql`SELECT value FROM rova_options WHERE name = ${name}`);
      const v = r[0]?.value;
      if (gen === generation) cache.set(name, v);
      return v;
    },
    async set(name, value, tx = db) {
      const json = JSON.stringify(value ?? null);
      await tx.execute(sql`INSERT INTO rova_options (name, value, updated_at) VALUES (${name}, ${json}::jsonb, now())
        ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`);
      drop(name);
      await bus.publish(TOPIC, name);
    },
    async delete(name, tx = db) {
      await tx.execute(sql`DELETE FROM rova_options WHERE name = ${name}`);
      drop(name);
      await bus.publish(TOPIC, name);
    },
    async forget(name) {
      drop(name);
      await bus.publish(TOPIC, name);
    },
  };
}
