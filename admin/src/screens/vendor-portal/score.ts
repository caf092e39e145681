/** The reliability score is 0–100: the bonus for completed rentals can lift it no higher. */
export const SCORE_MAX = 100;

/**
 * How an action would move the reliability score, in words: "72 → 70", "70 → 70 (no change)", or, at the maximum
 * with the bonus absorbing the action, "100 — already the maximum, and it stays there" (never "100 → 100").
 */
export function scoreChange(before: number, after: number): { kind: 'max' | 'same' | 'change'; text: string } {
  if (before === after && after >= SCORE_MAX)
    return { kind: 'max', text: `${before} — already the maximum, and it stays there` };
  if (before === after) return { kind: 'same', text: `${before} → ${after} (no change)` };
  return { kind: 'change', text: `${before} → ${after}` };
}
