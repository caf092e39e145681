import { useSearchParams } from 'react-router';
import { useStore } from '../../api/session';
import { DataTable, useTableState, type Column } from '../../components/DataTable';
import { SlideOver } from '../../components/SlideOver';
import { withFilter, type TableState } from '../../lib/table-state';
import { formatDate } from '../../lib/format';
import { ReportDetail } from './ReportDetail';
import { useReports, type ReportQuery } from './api';

const STATUSES = ['open', 'in_review', 'resolved', 'rejected', 'all'] as const;
const CONTEXTS = [
  ['booking', 'Booking'],
  ['vehicle', 'Vehicle'],
  ['vehicle_action', 'Vehicle action'],
  ['penalty', 'Penalty appeal'],
  ['general', 'General'],
] as const;

function ReportFilters({ state, onState }: { state: TableState; onState(s: TableState): void }) {
  return (
    <div className="mb-3 flex flex-wrap items-end gap-3" role="search" aria-label="Filters">
      <label className="flex flex-col text-sm">
        Status
        <select
          className="input"
          value={state.filters.status ?? ''}
          onChange={(e) => onState(withFilter(state, 'status', e.target.value))}
        >
          <option value="">Default (open)</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col text-sm">
        Context
        <select
          className="input"
          value={state.filters.context_type ?? ''}
          onChange={(e) => onState(withFilter(state, 'context_type', e.target.value))}
        >
          <option value="">Any</option>
          {CONTEXTS.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/** Vendor reports (appeals and complaints): list filtered in the URL, detail with the audit trail in a slide-over (`?report=id`). */
export function Reports() {
  const store = useStore();
  const [state, setState] = useTableState(['status', 'context_type']);
  const q = useReports({ page: state.page, per_page: state.perPage, ...(state.filters as Partial<ReportQuery>) });
  const [params, setParams] = useSearchParams();
  const openId = Number(params.get('report')) || null;
  const setOpen = (id: number | null) =>
    setParams((p) => {
      const n = new URLSearchParams(p);
      if (id === null) n.delete('report');
      else n.set('report', String(id));
      return n;
    });
  type Row = NonNullable<typeof q.data>['items'][number];
  const columns: Column<Row>[] = [
    { id: 'id', header: 'Report', cell: (r) => `#${r.id}` },
    { id: 'title', header: 'Title', cell: (r) => r.title },
    { id: 'vendor_name', header: 'Vendor', cell: (r) => r.vendor_name },
    {
      id: 'context_label',
      header: 'Context',
      cell: (r) => r.context_label + (r.context_id !== null ? ` #${r.context_id}` : ''),
    },
    { id: 'created_at', header: 'Filed', cell: (r) => formatDate(r.created_at, store.timezone) },
    { id: 'status', header: 'Status', cell: (r) => r.status_label },
    {
      id: 'actions',
      header: 'Actions',
      cell: (r) => (
        <button type="button" className="btn" aria-label={`Open report ${r.id}`} onClick={() => setOpen(r.id)}>
          Open
        </button>
      ),
    },
  ];
  return (
    <>
      <ReportFilters state={state} onState={setState} />
      <DataTable
        label="Vendor reports"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(r) => String(r.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No reports match."
      />
      <SlideOver
        open={openId !== null}
        onClose={() => setOpen(null)}
        title={openId !== null ? `Report #${openId}` : 'Report'}
      >
        {openId !== null && <ReportDetail id={openId} />}
      </SlideOver>
    </>
  );
}
