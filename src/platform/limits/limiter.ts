import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface HitResult {
  allowed: boolean;
  limit: number;
  /** Requests counted in the current window, including this one. */
  count: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/**
 * Fixed-window counters (memory for one node, Redis for many, per-node memory while Redis is unavailable). The limit is checked per call so callers can
 * change it at run time (extension filters) without losing the counts.
 */
export interface Limits {
  hit(bucket: string, key: string, limit: number, windowSeconds: number): Promise<HitResult>;
  /** Undo every counter of a bucket (tests, admin reset). */
  reset(bucket: string, key: string, windowSeconds: number): Promise<void>;
  /** Takes one hit back (an attempt that turned out not to count, such as a successful login). */
  giveBack(bucket: string, key: string, windowSeconds: number): Promise<void>;
}

const UNBOUNDED = Number.MAX_SAFE_INTEGER;

export function createLimits(redis: Redis | null, prefix: string): Limits {
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiterFor = (bucket: string, windowSeconds: number): RateLimiterAbstract => {
    const id = `${bucket}:${windowSeconds}`;
    let l = limiters.get(id);
    if (!l) {
      const opts = { keyPrefix: `${prefix}rl:${id}`, points: UNBOUNDED, duration: windowSeconds };
      // While Redis is away (refused at once: not ready, or no reply in the command timeout) the counts go to a
      // per-node memory limiter: each node then enforces the limit on its own, instead of every request failing.
      l = redis
        ? new RateLimiterRedis({
            ...opts,
            storeClient: redis,
            useRedisPackage: false,
            rejectIfRedisNotReady: true,
            insuranceLimiter: new RateLimiterMemory(opts),
          })
        : new RateLimiterMemory(opts);
      limiters.set(id, l);
    }
    return l;
  };
  return {
    async hit(bucket, key, limit, windowSeconds) {
      let res: RateLimiterRes;
      try {
        res = await limiterFor(bucket, windowSeconds).consume(key, 1);
      } catch (err) {
        if (err instanceof RateLimiterRes) res = err;
        else throw err;
      }
      const count = res.consumedPoints;
      return {
        allowed: count <= limit,
        limit,
        count,
        remaining: Math.max(0, limit - count),
        resetMs: Math.max(0, res.msBeforeNext),
      };
    },
    async reset(bucket, key, windowSeconds) {
      await limiterFor(bucket, windowSeconds).delete(key);
    },
    async giveBack(bucket, key, windowSeconds) {
      await limiterFor(bucket, windowSeconds).reward(key, 1);
    },
  };
}
