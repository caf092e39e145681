// Table state (sort, page, filters) held in the URL's search params: a refresh or a shared link shows the same
// view. Pure functions over URLSearchParams; the hook in components/DataTable wires them to react-router.

export interface TableState {
  page: number;
  perPage: number;
  /** Column id, or null for the server's default order. */
  sort: string | null;
  desc: boolean;
  filters: Record<string, string>;
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;

export function readTableState(
  params: URLSearchParams,
  filterKeys: readonly string[],
  defaults: Partial<TableState> = {},
): TableState {
  const int = (v: string | null, d: number, min: number, max: number) => {
    const n = v === null ? NaN : Number(v);
    return Number.isInteger(n) && n >= min && n <= max ? n : d;
  };
  const perPage = int(params.get('per_page'), defaults.perPage ?? 20, 1, 100);
  const sortRaw = params.get('sort');
  const filters: Record<string, string> = { ...(defaults.filters ?? {}) };
  for (const k of filterKeys) {
    const v = params.get(k);
    if (v !== null && v !== '') filters[k] = v;
  }
  return {
    page: int(params.get('page'), 1, 1, 1_000_000),
    perPage,
    sort: sortRaw ? sortRaw.replace(/^-/, '') : (defaults.sort ?? null),
    desc: sortRaw ? sortRaw.startsWith('-') : (defaults.desc ?? false),
    filters,
  };
}

/** The search params for `next`, keeping unrelated params; defaults are left out so URLs stay short. */
export function writeTableState(
  params: URLSearchParams,
  next: TableState,
  filterKeys: readonly string[],
  defaults: Partial<TableState> = {},
): URLSearchParams {
  const out = new URLSearchParams(params);
  const set = (k: string, v: string | null) => (v === null ? out.delete(k) : out.set(k, v));
  set('page', next.page > 1 ? String(next.page) : null);
  set('per_page', next.perPage !== (defaults.perPage ?? 20) ? String(next.perPage) : null);
  const sort = next.sort ? (next.desc ? '-' : '') + next.sort : null;
  const defSort = defaults.sort ? (defaults.desc ? '-' : '') + defaults.sort : null;
  set('sort', sort !== defSort ? sort : null);
  for (const k of filterKeys) {
    const v = next.filters[k];
    set(k, v !== undefined && v !== '' && v !== defaults.filters?.[k] ? v : null);
  }
  return out;
}

/** A changed filter sends the user back to page 1 (page 7 of the old result may not exist). */
export function withFilter(state: TableState, key: string, value: string): TableState {
  const filters = { ...state.filters };
  if (value === '') delete filters[key];
  else filters[key] = value;
  return { ...state, filters, page: 1 };
}
