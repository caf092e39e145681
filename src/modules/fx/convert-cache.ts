/**
 * Finished answers of POST /convert (the JSON as bytes, ready for the socket), per (ids in request order,
 * currency, detected). Storefront pages ask for the same few batches over and over; building one means 50 lookups,
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
  /**
   * ids (joined) → `${currency}|${detected}` → answer. Two levels so that the long part of the key is the string
   * parseConvertBody made once per distinct body (its hash is computed once), not a new string per request.
   */
  private readonly byIds = new Map<string, Map<string, CachedAnswer>>();
  private count = 0;
  private used = 0;

  constructor(
    readonly maxEntries = ANSWER_CACHE_ENTRIES,
    readonly maxBytes = ANSWER_CACHE_BYTES,
  ) {}

  static variant(currency: string, detected: boolean): string {
    return detected ? `${currency}|1` : currency;
  }

  /**
   * The answer for the ids (the request's ids in their order, joined with commas) and variant if it was built from
   * `fx` and `catalogue` and no sale window has moved since (`now` in epoch ms).
   */
  get(ids: string, variant: string, fx: object, catalogue: object, now: number): Buffer | null {
    const group = this.byIds.get(ids);
    const e = group?.get(variant);
    if (group === undefined || e === undefined) return null;
    if (e.fx !== fx || e.catalogue !== catalogue || now >= e.until) {
      this.drop(ids, group, variant, e);
      return null;
    }
    // most recently used last (Map keeps insertion order)
    this.byIds.delete(ids);
    this.byIds.set(ids, group);
    return e.body;
  }

  set(ids: string, variant: string, answer: CachedAnswer): void {
    if (this.sizeOf(ids, answer) > this.maxBytes) return;
    const group = this.byIds.get(ids) ?? new Map<string, CachedAnswer>();
    const old = group.get(variant);
    if (old) this.drop(ids, group, variant, old);
    group.set(variant, answer);
    this.count += 1;
    this.used += this.sizeOf(ids, answer);
    this.byIds.delete(ids);
    this.byIds.set(ids, group);
    // least recently used ids first (all their variants)
    for (const [k, g] of this.byIds) {
      if (this.count <= this.maxEntries && this.used <= this.maxBytes) break;
      for (const [v, e] of g) this.drop(k, g, v, e);
    }
  }

  get size(): number {
    return this.count;
  }

  get bytes(): number {
    return this.used;
  }

  private sizeOf(ids: string, e: CachedAnswer): number {
    return e.body.byteLength + ids.length + 64;
  }

  private drop(ids: string, group: Map<string, CachedAnswer>, variant: string, e: CachedAnswer): void {
    group.delete(variant);
    if (group.size === 0) this.byIds.delete(ids);
    this.count -= 1;
    this.used -= this.sizeOf(ids, e);
  }
}
