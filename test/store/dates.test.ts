import { describe, expect, it } from 'vitest';
import { gmtIso, localIso, parseDateInput } from '../../src/modules/store/dates.js';
import { dedupeSlug, slugify } from '../../src/modules/store/slug.js';

describe('store dates', () => {
  it('wall time without offset is in the store time zone (DST aware)', () => {
    expect(parseDateInput('2026-07-01T12:00:00', 'Europe/Istanbul')?.toISOString()).toBe('2026-07-01T09:00:00.000Z');
    expect(parseDateInput('2026-07-01T12:00', 'America/New_York')?.toISOString()).toBe('2026-07-01T16:00:00.000Z');
    expect(parseDateInput('2026-01-01 12:00:00', 'America/New_York')?.toISOString()).toBe('2026-01-01T17:00:00.000Z');
    expect(parseDateInput('2026-07-01', 'UTC', { endOfDay: true })?.toISOString()).toBe('2026-07-01T23:59:59.000Z');
  });
  it('explicit offsets and _gmt inputs', () => {
    expect(parseDateInput('2026-07-01T12:00:00+02:00', 'America/New_York')?.toISOString()).toBe(
      '2026-07-01T10:00:00.000Z',
    );
    expect(parseDateInput('2026-07-01T12:00:00Z', 'Europe/Istanbul')?.toISOString()).toBe('2026-07-01T12:00:00.000Z');
    expect(parseDateInput('2026-07-01T12:00:00', 'Europe/Istanbul', { asGmt: true })?.toISOString()).toBe(
      '2026-07-01T12:00:00.000Z',
    );
  });
  it('rejects invalid dates', () => {
    for (const s of ['2026-02-30', '2026-13-01', 'tomorrow', '2026-01-01T25:00:00', ''])
      expect(parseDateInput(s, 'UTC'), s).toBeUndefined();
  });
  it('prints local and gmt like WooCommerce', () => {
    const d = new Date('2026-07-01T09:00:00.123Z');
    expect(localIso(d, 'Europe/Istanbul')).toBe('2026-07-01T12:00:00');
    expect(gmtIso(d)).toBe('2026-07-01T09:00:00');
  });
});

describe('slugs', () => {
  it('slugify and dedupe', () => {
    expect(slugify('  Çocuk Koltuğu & Seat!! ')).toBe('cocuk-koltugu-seat');
    expect(dedupeSlug('a', new Set(['a', 'a-2']))).toBe('a-3');
    expect(dedupeSlug('b', new Set(['a']))).toBe('b');
  });
});
