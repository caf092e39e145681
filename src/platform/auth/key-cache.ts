import type { InvalidationBus } from '../kv/bus.js';
import type { ApiKeyRow } from './repo.js';
import type { AuthUser } from './types.js';

/** Published whenever a key or its user changes (revoke, restore, role, profile, delete): every node drops its copy. */
export const AUTH_KEYS_TOPIC = 'auth:keys';

export type CachedKey = ApiKeyRow & { user: AuthUser };

/**
 * API keys by hash, so a request made with a key costs no database round trip (issue 25). Writes publish
 * AUTH_KEYS_TOPIC and every node empties its cache; the TTL bounds how long a node can lag when it missed
 * the message (Redis away: the bus drops every cache again when Redis is back). Only keys that exist are
 * kept, so guessing cannot fill it, and it holds at most `max` entries (the oldest go first).
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { key: CachedKey; until: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly max = 10_000,
  ) {}

  /** The generation a lookup starts in: a row read before an invalidation is not kept after it. */
  get current(): number {
    return this.generation;
  }

  get(hash: string, now = Date.now()): CachedKey | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (e.until <= now) {
      this.entries.delete(hash);
      return undefined;
    }
    return e.key;
  }

  keep(hash: string, key: CachedKey, readIn: number, now = Date.now()): void {
    if (readIn !== this.generation || this.ttlMs <= 0) return;
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(hash, { key, until: now + this.ttlMs });
  }

  drop(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** Drops on every message of the topic, from this node or another. */
  listen(bus: InvalidationBus): () => void {
    return bus.subscribe(AUTH_KEYS_TOPIC, () => this.drop());
  }
}
