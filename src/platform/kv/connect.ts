import { Redis } from 'ioredis';
import type { Config } from '../../config.js';
import type { Db } from '../db/types.js';
import { createMemoryBus, createRedisBus, type InvalidationBus } from './bus.js';
import { dbPresence } from './presence.js';
import { RedisState, resilientRedisOptions } from './redis-state.js';

/** What REDIS_URL gives the platform: two connections (commands, subscriptions), their health, and the bus. */
export interface RedisLink {
  redis: Redis | null;
  redisSub: Redis | null;
  redisState: RedisState;
  bus: InvalidationBus;
}

/**
 * Connects to REDIS_URL (both connections, then the bus on them); without REDIS_URL the bus stays in this process.
 * A Redis that does not answer is an error naming REDIS_URL, with no connection left open.
 */
export async function connectRedis(config: Config, db: Db): Promise<RedisLink> {
  if (!config.redisUrl) return { redis: null, redisSub: null, redisState: RedisState.none(), bus: createMemoryBus() };
  const ro = resilientRedisOptions(config.redisCommandTimeoutMs);
  const redis = new Redis(config.redisUrl, ro);
  const redisSub = new Redis(config.redisUrl, ro);
  const redisState = new RedisState([redis, redisSub]);
  try {
    await redis.connect();
    await redisSub.connect();
  } catch (err) {
    redis.disconnect();
    redisSub.disconnect();
    throw new Error(`cannot connect to Redis at REDIS_URL: ${err instanceof Error ? err.message : String(err)}`);
  }
  const bus = await createRedisBus(redis, redisSub, config.redisPrefix, redisState, dbPresence(db));
  return { redis, redisSub, redisState, bus };
}

/** Closes what connectRedis opened (the bus first, then both connections). */
export async function closeRedis(link: RedisLink): Promise<void> {
  link.redisState.close();
  await link.bus.close();
  link.redis?.disconnect();
  link.redisSub?.disconnect();
}
