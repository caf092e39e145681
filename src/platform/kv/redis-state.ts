import type { FastifyBaseLogger } from 'fastify';
import type { Redis, RedisOptions } from 'ioredis';

/** What health and readiness checks report about Redis (`configured: false` when REDIS_URL is not set). */
export interface RedisHealth {
  configured: boolean;
  up: boolean;
  /** ISO time the outage began, null while up. */
  downSince: string | null;
  /** True from the moment Redis went away until every cache was dropped after it came back. */
  cachesMayBeStale: boolean;
}

/**
 * Client options that make a Redis outage cheap for callers: no offline queue (a command while disconnected
 * fails at once instead of waiting), no per-command retries, a bounded wait for a reply from a hung server,
 * and reconnection attempts every ≤ 1 s so recovery needs no restart.
 */
export function resilientRedisOptions(commandTimeoutMs: number): RedisOptions {
  return {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2_000,
    retryStrategy: (attempt: number) => Math.min(100 * attempt, 1_000),
  };
}

type Listener = () => void;

/**
 * Up/down state of the Redis connections, from the clients' own events. Logs once when Redis goes away
 * (limits fall back to per-node memory, caches may be stale) and once when it is back; listeners run on
 * recovery (the bus drops every cache then).
 */
export class RedisState {
  private downAt: number | null = null;
  private stale = false;
  private readonly recovered: Listener[] = [];
  private closed = false;

  /** Set once the app's logger exists (the clients connect before it). */
  log: Pick<FastifyBaseLogger, 'warn' | 'info'> = { warn: () => undefined, info: () => undefined };

  constructor(private readonly clients: Redis[]) {
    for (const c of clients) {
      // Without a listener ioredis prints every failed reconnection attempt; the state logs the outage once.
      c.on('error', () => undefined);
      c.on('close', () => this.check());
      c.on('end', () => this.check());
      c.on('reconnecting', () => this.check());
      c.on('ready', () => this.check());
    }
  }

  static none(): RedisState {
    return new RedisState([]);
  }

  get configured(): boolean {
    return this.clients.length > 0;
  }

  get up(): boolean {
    return this.clients.every((c) => c.status === 'ready');
  }

  health(): RedisHealth {
    return {
      configured: this.configured,
      up: this.up,
      downSince: this.downAt === null ? null : new Date(this.downAt).toISOString(),
      cachesMayBeStale: this.stale,
    };
  }

  /** Runs fn each time Redis comes back after an outage. */
  onRecovered(fn: Listener): void {
    this.recovered.push(fn);
  }

  /** Called by the bus once every cache has been dropped after recovery. */
  cachesDropped(): void {
    if (this.up) this.stale = false;
  }

  /** The app is shutting down: disconnecting is not an outage. */
  close(): void {
    this.closed = true;
  }

  private check(): void {
    if (this.closed) return;
    const up = this.up;
    if (!up && this.downAt === null) {
      this.downAt = Date.now();
      this.stale = true;
      this.log.warn(
        'Redis unavailable: rate limits fall back to per-node memory and caches may be stale until it returns',
      );
    } else if (up && this.downAt !== null) {
      const seconds = Math.round((Date.now() - this.downAt) / 100) / 10;
      this.downAt = null;
      this.log.info({ outage_seconds: seconds }, 'Redis is back: dropping caches, shared rate limits resume');
      for (const fn of this.recovered) fn();
    }
  }
}
