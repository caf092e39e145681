import { describe, expect, it } from 'vitest';
import { visibleSlice } from './virtual';

describe('visibleSlice', () => {
  // four items of heights 10, 20, 30, 40 → tops 0, 10, 30, 60, total 100
  const offs = [0, 10, 30, 60, 100];
  it('the items meeting the band', () => {
    expect(visibleSlice(offs, 0, 100)).toEqual([0, 4]);
    expect(visibleSlice(offs, 15, 35)).toEqual([1, 3]);
    expect(visibleSlice(offs, 10, 30)).toEqual([1, 2]); // edges: an item ending at `from` or starting at `to` is out
    expect(visibleSlice(offs, -500, 5)).toEqual([0, 1]);
  });
  it('past the end: still the last item; nothing to show: empty', () => {
    expect(visibleSlice(offs, 500, 900)).toEqual([3, 4]);
    expect(visibleSlice([0], 0, 100)).toEqual([0, 0]);
  });
});
