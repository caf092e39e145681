// Row windowing, pure: which items of a list of known heights meet a band of the scroll region.

/**
 * `offsets`: n + 1 running tops (offsets[i] = top of item i, offsets[n] = total height). Returns [first, last) of the
 * items overlapping [from, to) — at least one item when there are any.
 */
export function visibleSlice(offsets: readonly number[], from: number, to: number): [number, number] {
  const n = offsets.length - 1;
  if (n <= 0) return [0, 0];
  // first item whose bottom is below `from`
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid + 1]! <= from) lo = mid + 1;
    else hi = mid;
  }
  const first = lo;
  // first item whose top is at or below `to`
  lo = first;
  hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid]! < to) lo = mid + 1;
    else hi = mid;
  }
  return [first, Math.max(first + 1, lo)];
}
