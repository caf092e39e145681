import { describe, expect, it } from 'vitest';
import { readTableState, withFilter, writeTableState } from './table-state';

const KEYS = ['status', 'search'] as const;

describe('table state in the URL', () => {
  it('reads page, size, sort and filters; bad values fall back to defaults', () => {
    const s = readTableState(
      new URLSearchParams('page=3&per_page=50&sort=-created_at&status=confirmed&search=&other=x'),
      KEYS,
    );
    expect(s).toEqual({ page: 3, perPage: 50, sort: 'created_at', desc: true, filters: { status: 'confirmed' } });
    expect(readTableState(new URLSearchParams('page=0&per_page=1000&sort='), KEYS, { sort: 'id', desc: true })).toEqual(
      {
        page: 1,
        perPage: 20,
        sort: 'id',
        desc: true,
        filters: {},
      },
    );
    expect(readTableState(new URLSearchParams('page=2.5'), KEYS).page).toBe(1);
  });

  it('writes only what differs from the defaults and keeps unrelated params', () => {
    const base = new URLSearchParams('tab=list&page=4');
    const out = writeTableState(
      base,
      { page: 1, perPage: 20, sort: 'name', desc: false, filters: { search: 'anna', status: '' } },
      KEYS,
    );
    expect(out.toString()).toBe('tab=list&sort=name&search=anna');
    const round = readTableState(out, KEYS);
    expect(round).toEqual({ page: 1, perPage: 20, sort: 'name', desc: false, filters: { search: 'anna' } });
    const withDefaults = writeTableState(
      new URLSearchParams(),
      { page: 2, perPage: 10, sort: 'id', desc: true, filters: {} },
      KEYS,
      { sort: 'id', desc: true, perPage: 10 },
    );
    expect(withDefaults.toString()).toBe('page=2');
  });

  it('a changed filter goes back to page 1; clearing a filter removes it', () => {
    const s = { page: 5, perPage: 20, sort: null, desc: false, filters: { status: 'pending' } };
    expect(withFilter(s, 'search', 'x')).toEqual({ ...s, page: 1, filters: { status: 'pending', search: 'x' } });
    expect(withFilter(s, 'status', '')).toEqual({ ...s, page: 1, filters: {} });
  });
});
