import { describe, expect, it } from 'vitest';
import { scoreChange } from './score';

describe('reliability score change in words', () => {
  it('a score at the maximum that stays there is said to be at the maximum, not "100 → 100"', () => {
    expect(scoreChange(100, 100)).toEqual({ kind: 'max', text: '100 — already the maximum, and it stays there' });
  });
  it('a drop, a drop from the maximum, and no change below it', () => {
    expect(scoreChange(100, 98)).toEqual({ kind: 'change', text: '100 → 98' });
    expect(scoreChange(72, 70)).toEqual({ kind: 'change', text: '72 → 70' });
    expect(scoreChange(0, 0)).toEqual({ kind: 'same', text: '0 → 0 (no change)' });
    expect(scoreChange(64, 64)).toEqual({ kind: 'same', text: '64 → 64 (no change)' });
  });
});
