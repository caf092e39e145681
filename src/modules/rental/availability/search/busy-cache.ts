import type { Platform } from '../../../../platform/context.js';
import { KeptAnswers } from '../../../../platform/kept-answers.js';
import { perPlatform } from '../../../../platform/per-platform.js';
import { busyVehicles } from '../held-repo.js';
import { journeySettings } from '../../bookings/settings.js';

const MAX_ENTRIES = 5000;

/**
 * The search's read model of "which vehicles are held between from and to" (all vehicles, so one entry serves
 * every filter combination), kept BOOKING_SEARCH_CACHE_MS (default 1000; 0 = always ask the database).
 * Search is a listing: it may lag a booking by that long; /booking/check and /booking/create always decide on the
 * database under the vehicle lock. Concurrent misses for one window share a single query.
 */
class BusyCache {
  private readonly entries = new Map<string, { at: number; busy: Promise<Set<number>> }>();
  /** Whole search answers, valid for one catalogue snapshot and the same TTL (a storefront repeats its queries). */
  private readonly answers = new KeptAnswers<unknown>(MAX_ENTRIES);
  constructor(private readonly p: Platform) {}

  /** The holding index took in a change (a booking written on any node, through the bus): forget everything. */
  clear(): void {
    this.entries.clear();
    this.answers.clear();
  }

  /** A search answer computed within the TTL for the same query over the same catalogue snapshot, if any. */
  answer<T>(key: string, snapshot: object): T | undefined {
    return this.answers.get(key, [snapshot], Date.now(), journeySettings(this.p).searchCacheMs) as T | undefined;
  }

  remember(key: string, snapshot: object, answer: unknown): void {
    if (journeySettings(this.p).searchCacheMs === 0) return;
    this.answers.keep(key, [snapshot], answer, Date.now());
  }

  get(from: Date, to: Date): Promise<Set<number>> {
    const ttl = journeySettings(this.p).searchCacheMs;
    if (ttl === 0) return busyVehicles(this.p.db, null, from, to);
    const key = `${from.getTime()}:${to.getTime()}`;
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < ttl) return hit.busy;
    if (this.entries.size >= MAX_ENTRIES) {
      for (const [k, e] of this.entries) if (now - e.at >= ttl) this.entries.delete(k);
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    }
    const busy = busyVehicles(this.p.db, null, from, to);
    this.entries.set(key, { at: now, busy });
    busy.catch(() => this.entries.delete(key));
    return busy;
  }
}

export const busyCacheOf: (p: Platform) => BusyCache = perPlatform((p) => new BusyCache(p));
