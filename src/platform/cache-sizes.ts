import type { Platform } from './context.js';
import { perPlatform } from './per-platform.js';

/**
 * What one in-memory cache of a node holds: entries and bytes (an estimate: the serialised size of what it keeps,
 * or a fixed size per entry where the entries are alike), and the bounds it keeps them under. GET /metrics shows
 * them as `rova_cache_entries{cache}`, `rova_cache_bytes{cache}` and `rova_cache_limit{cache,of}`.
 */
export interface CacheSize {
  entries: number;
  bytes: number;
  maxEntries: number;
  /** Infinity: bounded by what it mirrors (the holding index holds every holding booking). */
  maxBytes: number;
}

/** The app's caches by name (snake_case: a Prometheus label value), each read when /metrics is asked. */
export const cachesOf: (p: Platform) => Map<string, () => CacheSize> = perPlatform(() => new Map());

/** Shows the cache `name` in /metrics (a second report of a name replaces the first). */
export function reportCache(p: Platform, name: string, size: () => CacheSize): void {
  cachesOf(p).set(name, size);
}

/** Bytes of a string kept in memory (V8 keeps most as one byte a character; two for the rest: take the larger). */
export const stringBytes = (s: string): number => 2 * s.length;
