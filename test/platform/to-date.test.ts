import { describe, expect, it } from 'vitest';
import { toDate } from '../../src/platform/db/types.js';

// The general parse toDate had before its fast path for PostgreSQL's output: the two must agree on every input.
function general(v: string): Date {
  let s = v.trim().replace(' ', 'T');
  s = s.replace(/([+-]\d{2})$/, '$1:00').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const d = new Date(s);
  if (Number.isNaN(d.getTime())) throw new TypeError(`not a timestamp: ${v}`);
  return d;
}

describe('toDate', () => {
  it('reads PostgreSQL timestamptz text as the general parse does, over many instants, fractions and offsets', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const pad = (x: number, w = 2) => String(x).padStart(w, '0');
    for (let i = 0; i < 5_000; i++) {
      const y = 1970 + rnd(100);
      const mo = 1 + rnd(12);
      const d = 1 + rnd(31);
      const frac = ['', `.${pad(rnd(1000), 3)}`, `.${pad(rnd(1_000_000), 6)}`, `.${rnd(10)}`][rnd(4)];
      const off = ['+00', '-03', '+05:30', '+0530', '-09:30', 'Z', '+14'][rnd(7)];
      const v = `${y}-${pad(mo)}-${pad(d)}${rnd(2) ? ' ' : 'T'}${pad(rnd(24))}:${pad(rnd(60))}:${pad(rnd(60))}${frac}${off}`;
      let want: number | string;
      try {
        want = general(v).getTime();
      } catch {
        want = 'refused';
      }
      let got: number | string;
      try {
        got = toDate(v).getTime();
      } catch {
        got = 'refused';
      }
      expect(got, v).toBe(want);
    }
  });

  it('refuses what is not a timestamp, and passes a Date through', () => {
    for (const bad of ['', 'yesterday', '2026-13-01 00:00:00+00', '2026-06-31 00:00:00+00x'])
      expect(() => toDate(bad), bad).toThrow(TypeError);
    const d = new Date();
    expect(toDate(d)).toBe(d);
    expect(toDate('2026-01-02 03:04:05.678+00').toISOString()).toBe('2026-01-02T03:04:05.678Z');
    expect(toDate('2026-01-02 03:04:05+05:30').toISOString()).toBe('2026-01-01T21:34:05.000Z');
  });
});
