import type { CacheSize } from './cache-sizes.js';

/**
 * Finished answers kept per request key. One is reused only while everything it was built from (`basis`:
 * snapshots, index states, compared by identity) is the same and it is younger than the caller's TTL. Nothing is
 * invalidated by hand: a stale answer simply no longer matches. Bounded by entries and by bytes (`weigh`: an
 * answer's size, estimated by the caller): beyond either, the oldest kept go first; an answer larger than all the
 * bytes allowed is not kept.
 */
export class KeptAnswers<T> {
  private readonly kept = new Map<string, { answer: T; basis: readonly unknown[]; at: number; bytes: number }>();
  private used = 0;
  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly weigh: (key: string, answer: T) => number,
  ) {}

  /** The answer kept for `key` if built from the same `basis` less than `ttlMs` before `now` (epoch ms). */
  get(key: string, basis: readonly unknown[], now: number, ttlMs: number): T | undefined {
    const hit = this.kept.get(key);
    if (
      hit === undefined ||
      now - hit.at >= ttlMs ||
      hit.basis.length !== basis.length ||
      hit.basis.some((b, i) => b !== basis[i])
    )
      return undefined;
    return hit.answer;
  }

  keep(key: string, basis: readonly unknown[], answer: T, at: number): void {
    const bytes = this.weigh(key, answer);
    const old = this.kept.get(key);
    if (old) {
      this.kept.delete(key);
      this.used -= old.bytes;
    }
    if (bytes > this.maxBytes) return;
    for (const [k, e] of this.kept) {
      if (this.kept.size < this.maxEntries && this.used + bytes <= this.maxBytes) break;
      this.kept.delete(k);
      this.used -= e.bytes;
    }
    this.kept.set(key, { answer, basis, at, bytes });
    this.used += bytes;
  }

  clear(): void {
    this.kept.clear();
    this.used = 0;
  }

  size(): CacheSize {
    return { entries: this.kept.size, bytes: this.used, maxEntries: this.maxEntries, maxBytes: this.maxBytes };
  }
}
