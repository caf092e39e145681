/**
 * Finished answers kept per request key. One is reused only while everything it was built from (`basis`:
 * snapshots, index states, compared by identity) is the same and it is younger than the caller's TTL. Nothing is
 * invalidated by hand: a stale answer simply no longer matches. Beyond `maxEntries` keys the oldest goes first.
 */
export class KeptAnswers<T> {
  private readonly kept = new Map<string, { answer: T; basis: readonly unknown[]; at: number }>();
  constructor(private readonly maxEntries: number) {}

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
    if (!this.kept.has(key) && this.kept.size >= this.maxEntries)
      this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(key, { answer, basis, at });
  }

  clear(): void {
    this.kept.clear();
  }
}
