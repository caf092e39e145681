import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import { useCallback, useMemo, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { PAGE_SIZES, readTableState, writeTableState, type TableState } from '../lib/table-state';
import { Empty, ErrorState, Skeleton } from './State';

export interface Column<T> {
  id: string;
  header: string;
  cell(row: T): ReactNode;
  /** The server can order by this column (its id is the API's orderby value). */
  sortable?: boolean;
  /** Right-aligned numbers. */
  numeric?: boolean;
}

/** Table state bound to the URL's search params (see lib/table-state.ts). */
export function useTableState(
  filterKeys: readonly string[],
  defaults: Partial<TableState> = {},
): [TableState, (next: TableState) => void] {
  const [params, setParams] = useSearchParams();
  // Keys and defaults are constants of the screen: serialise them so the memo does not churn on new arrays.
  const key = JSON.stringify([filterKeys, defaults]);
  const state = useMemo(() => readTableState(params, filterKeys, defaults), [params, key]);
  const set = useCallback(
    (next: TableState) => setParams((p) => writeTableState(p, next, filterKeys, defaults), { replace: false }),
    [setParams, key],
  );
  return [state, set];
}

interface Props<T> {
  label: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  total: number | undefined;
  state: TableState;
  onState(next: TableState): void;
  rowKey(row: T): string;
  loading: boolean;
  error: unknown;
  onRetry(): void;
  empty?: ReactNode;
  onRowClick?(row: T): void;
  /** Selection for bulk actions: ids of the selected rows. */
  selected?: ReadonlySet<string>;
  onSelected?(next: Set<string>): void;
}

/**
 * Server-side paged and sorted table (TanStack Table in manual mode) with loading skeleton, empty and error
 * states. Below the md breakpoint every row becomes a card of label/value pairs.
 */
export function DataTable<T>(p: Props<T>) {
  const { state, onState } = p;
  const sorting: SortingState = state.sort ? [{ id: state.sort, desc: state.desc }] : [];
  const rowSelection: RowSelectionState = Object.fromEntries([...(p.selected ?? [])].map((k) => [k, true]));
  const columns = useMemo<ColumnDef<T>[]>(
    () =>
      p.columns.map((c) => ({
        id: c.id,
        header: c.header,
        // TanStack sorts only accessor columns; the value is never used (manualSorting: the server orders).
        accessorFn: () => null,
        enableSorting: c.sortable === true,
        cell: (ctx) => c.cell(ctx.row.original),
        meta: c,
      })),
    [p.columns],
  );
  const table = useReactTable({
    data: p.rows ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: p.rowKey,
    manualPagination: true,
    manualSorting: true,
    enableRowSelection: p.onSelected !== undefined,
    state: { sorting, rowSelection },
    onSortingChange: (u) => {
      const next = typeof u === 'function' ? u(sorting) : u;
      const s = next[0];
      onState({ ...state, sort: s?.id ?? null, desc: s?.desc ?? false, page: 1 });
    },
  });
  const pages = p.total !== undefined ? Math.max(1, Math.ceil(p.total / state.perPage)) : 1;
  const selectable = p.onSelected !== undefined && p.selected !== undefined;
  const toggle = (id: string) => {
    const next = new Set(p.selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    p.onSelected?.(next);
  };
  const allIds = (p.rows ?? []).map(p.rowKey);
  const allSelected = allIds.length > 0 && allIds.every((id) => p.selected?.has(id));

  if (p.error) return <ErrorState error={p.error} onRetry={p.onRetry} />;

  const body = () => {
    if (p.loading && !p.rows) {
      return (
        <div role="status" aria-label="Loading" className="space-y-2 p-4">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} className="h-8 w-full" />
          ))}
        </div>
      );
    }
    if (!p.rows || p.rows.length === 0) return <Empty>{p.empty ?? 'Nothing here yet.'}</Empty>;
    return (
      <>
        <table className="hidden w-full text-left text-sm md:table" aria-label={p.label}>
          <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-800 dark:text-slate-400">
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {selectable && (
                  <th className="w-10 p-2">
                    <input
                      type="checkbox"
                      aria-label="Select all rows on this page"
                      checked={allSelected}
                      onChange={() => p.onSelected?.(allSelected ? new Set() : new Set(allIds))}
                    />
                  </th>
                )}
                {hg.headers.map((h) => {
                  const col = h.column.columnDef.meta as Column<T>;
                  const sorted = h.column.getIsSorted();
                  return (
                    <th
                      key={h.id}
                      scope="col"
                      className={`p-2 font-medium ${col.numeric ? 'text-right' : ''}`}
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    >
                      {h.column.getCanSort() ? (
                        <button
                          type="button"
                          className="inline-flex items-center gap-1 hover:underline"
                          onClick={() =>
                            onState({
                              ...state,
                              sort: col.id,
                              desc: state.sort === col.id ? !state.desc : false,
                              page: 1,
                            })
                          }
                        >
                          {flexRender(h.column.columnDef.header, h.getContext())}
                          <span aria-hidden="true">{sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}</span>
                        </button>
                      ) : (
                        flexRender(h.column.columnDef.header, h.getContext())
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((r) => (
              <tr
                key={r.id}
                className={`border-b border-slate-100 dark:border-slate-800 ${p.onRowClick ? 'cursor-pointer hover:bg-slate-100 dark:hover:bg-slate-800' : ''}`}
                onClick={p.onRowClick ? () => p.onRowClick?.(r.original) : undefined}
              >
                {selectable && (
                  <td className="p-2" onClick={(e) => e.stopPropagation()}>
                    <input
                      type="checkbox"
                      aria-label={`Select row ${r.id}`}
                      checked={p.selected?.has(r.id) ?? false}
                      onChange={() => toggle(r.id)}
                    />
                  </td>
                )}
                {r.getVisibleCells().map((c) => (
                  <td
                    key={c.id}
                    className={`p-2 ${(c.column.columnDef.meta as Column<T>).numeric ? 'text-right tabular-nums' : ''}`}
                  >
                    {flexRender(c.column.columnDef.cell, c.getContext())}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <ul className="divide-y divide-slate-200 md:hidden dark:divide-slate-800" aria-label={p.label}>
          {table.getRowModel().rows.map((r) => (
            <li key={r.id} className="p-3">
              {selectable && (
                <label className="mb-1 flex items-center gap-2 text-sm">
                  <input type="checkbox" checked={p.selected?.has(r.id) ?? false} onChange={() => toggle(r.id)} />{' '}
                  Select
                </label>
              )}
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                {p.columns.map((c) => (
                  <div key={c.id} className="contents">
                    <dt className="text-slate-600 dark:text-slate-400">{c.header}</dt>
                    <dd>{c.cell(r.original)}</dd>
                  </div>
                ))}
              </dl>
              {p.onRowClick && (
                <button type="button" className="btn mt-2" onClick={() => p.onRowClick?.(r.original)}>
                  Open
                </button>
              )}
            </li>
          ))}
        </ul>
      </>
    );
  };

  return (
    <div className="rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      {body()}
      <nav
        aria-label={`${p.label} pages`}
        className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 p-2 text-sm dark:border-slate-800"
      >
        <span>{p.total !== undefined ? `${p.total} total · page ${Math.min(state.page, pages)} of ${pages}` : ''}</span>
        <div className="flex items-center gap-2">
          <label className="flex items-center gap-1">
            Rows
            <select
              className="input py-1"
              value={state.perPage}
              onChange={(e) => onState({ ...state, perPage: Number(e.target.value), page: 1 })}
            >
              {PAGE_SIZES.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="btn"
            disabled={state.page <= 1}
            onClick={() => onState({ ...state, page: state.page - 1 })}
          >
            Previous
          </button>
          <button
            type="button"
            className="btn"
            disabled={state.page >= pages}
            onClick={() => onState({ ...state, page: state.page + 1 })}
          >
            Next
          </button>
        </div>
      </nav>
    </div>
  );
}
