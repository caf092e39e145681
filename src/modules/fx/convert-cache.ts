/**
 * Finished answers of POST /convert (the JSON as bytes, ready for the socket), per (currency, detected, ids in
 * request order). Storefront pages ask for the same few batches over and over; building one means 50 lookups,
 * 50 string joins and a UTF-8 encoding of ~10 KB, so a repeated batch is served from here.
 *
 * An answer is reused only while everything it was built from is unchanged:
 * - the currency view (rates, fees, rounding, formats, fixed prices' currencies, settings): the `FxSnapshot` it
 *   was built with. Every change, on any node, builds a new snapshot (bus topic `rova_fx`, see state.ts);
 * - the catalogue (prices, sale prices and windows, fixed prices, status, password, variations): the catalogue
 *   view's `loaded()` object. Every catalogue write, on any node, drops it (bus topic `store.catalogue`);
 * - time: an answer expires at the first instant a sale window of one of its products opens or closes.
 * Nothing is ever invalidated by hand, so an invalidation cannot be forgotten: a stale answer simply no longer
 * matches (it is replaced by the next request for its key, or evicted).
 *
 * Bounded: beyond `maxEntries` answers or `maxBytes` of answer bytes, the least recently used go first.
 */
export interface CachedAnswer {
  body: Buffer;
  /** The FxSnapshot the answer was built with. */
  fx: object;
  /** The catalogue view's loaded() object the answer was built with. */
  catalogue: object;
  /** Epoch ms at which a sale window among its products opens or closes (Infinity: none ahead). */
  until: number;
}

export const ANSWER_CACHE_ENTRIES = 2_000;
export const ANSWER_CACHE_BYTES = 16 * 1024 * 1024;

export class ConvertAnswers {
  private readonly entries = new Map<string, CachedAnswer>();
  private used = 0;

  constructor(
    readonly maxEntries = ANSWER_CACHE_ENTRIES,
    readonly maxBytes = ANSWER_CACHE_BYTES,
  ) {}

  static key(currency: string, detected: boolean, ids: readonly number[]): string {
    return `${currency}|${detected ? 1 : 0}|${ids.join(',')}`;
  }

  /** The answer for `key` if it was built from `fx` and `catalogue` and no sale window has moved since (`now` in epoch ms). */
  get(key: string, fx: object, catalogue: object, now: number): Buffer | null {
    const e = this.entries.get(key);
    if (e === undefined) return null;
    if (e.fx !== fx || e.catalogue !== catalogue || now >= e.until) {
      this.drop(key, e);
      return null;
    }
    // most recently used last (Map keeps insertion order)
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.body;
  }

  set(key: string, answer: CachedAnswer): void {
    const size = answer.body.byteLength + key.length;
    if (size > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.entries.set(key, answer);
    this.used += size;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.used <= this.maxBytes) break;
      this.drop(k, e);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.used;
  }

  private drop(key: string, e: CachedAnswer): void {
    this.entries.delete(key);
    this.used -= e.body.byteLength + key.length;
  }
}
