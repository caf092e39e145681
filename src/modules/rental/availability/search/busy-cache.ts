import type { Platform } from '../../../../platform/context.js';
import { stringBytes, type CacheSize } from '../../../../platform/cache-sizes.js';
import { KeptAnswers } from '../../../../platform/kept-answers.js';
import { perPlatform } from '../../../../platform/per-platform.js';
import { busyVehicles } from '../held-repo.js';
import { journeySettings } from '../../bookings/settings.js';

const MAX_ENTRIES = 5000;
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** A busy window: its key, the Set's own size and 16 bytes per vehicle id in it. */
const WINDOW_BYTES = 200;
/** Bytes of all busy windows at most: beyond it (or MAX_ENTRIES windows), the expired go, else all. */
const MAX_WINDOW_BYTES = 8 * 1024 * 1024;

/**
 * The search's read model of "which vehicles are held between from and to" (all vehicles, so one entry serves
 * every filter combination), kept BOOKING_SEARCH_CACHE_MS (default 1000; 0 = always ask the database).
 * Search is a listing: it may lag a booking by that long; /booking/check and /booking/create always decide on the
 * database under the vehicle lock. Concurrent misses for one window share a single query.
 */
class BusyCache {
  /** Vehicle ids in the kept windows' sets, all together. */
  private ids = 0;
  private readonly entries = new Map<string, { at: number; busy: Promise<Set<number>>; ids: number }>();
  /** Whole search answers, valid for one catalogue snapshot and the same TTL (a storefront repeats its queries). */
  // an answer's size: its JSON twice over (the frozen objects, and the bytes json-once.ts keeps beside them)
  private readonly answers = new KeptAnswers<unknown>(
    MAX_ENTRIES,
    MAX_ANSWER_BYTES,
    (key, a) => stringBytes(key) + 2 * JSON.stringify(a).length,
  );
  constructor(private readonly p: Platform) {}

  /** The holding index took in a change (a booking written on any node, through the bus): forget everything. */
  clear(): void {
    this.entries.clear();
    this.ids = 0;
    this.answers.clear();
  }

  /** The kept search answers. */
  answersSize(): CacheSize {
    return this.answers.size();
  }

  /** The kept busy windows (vehicle ids held between two instants); bytes estimated per window and id. */
  windowsSize(): CacheSize {
    return { entries: this.entries.size, bytes: this.bytes(), maxEntries: MAX_ENTRIES, maxBytes: MAX_WINDOW_BYTES };
  }

  private bytes(): number {
    return this.entries.size * WINDOW_BYTES + this.ids * 16;
  }

  private forget(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.ids -= e.ids;
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
    if (this.entries.size >= MAX_ENTRIES || this.bytes() >= MAX_WINDOW_BYTES) {
      for (const [k, e] of this.entries) if (now - e.at >= ttl) this.forget(k);
      if (this.entries.size >= MAX_ENTRIES || this.bytes() >= MAX_WINDOW_BYTES) {
        this.entries.clear();
        this.ids = 0;
      }
    }
    this.forget(key); // an expired window's ids
    const busy = busyVehicles(this.p.db, null, from, to);
    const entry = { at: now, busy, ids: 0 };
    this.entries.set(key, entry);
    busy.then(
      (s) => {
        if (this.entries.get(key) !== entry) return; // dropped meanwhile
        entry.ids = s.size;
        this.ids += s.size;
      },
      () => this.forget(key),
    );
    return busy;
  }
}

export const busyCacheOf: (p: Platform) => BusyCache = perPlatform((p) => new BusyCache(p));
