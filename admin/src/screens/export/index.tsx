import { useSearchParams } from 'react-router';
import { useStore } from '../../api/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, useTableState, type Column } from '../../components/DataTable';
import { ErrorState, Loading, PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useDeleteExport, useDownloadExport, useExportHistory, useExportPreview, type ExportRequest } from './api';

const TYPES = [
  'bookings',
  'transfers',
  'vehicles',
  'customers',
  'messages',
  'payouts',
  'ledger_entries',
  'audit_log',
] as const;
const FORMATS = ['csv', 'json', 'ndjson'] as const;
type ExportType = (typeof TYPES)[number];

/** The export's type and filters live in the URL (`type`, `format`, `date_from`, `date_to`, `status`). */
function useExportParams() {
  const [params, setParams] = useSearchParams();
  const t = params.get('type');
  const type: ExportType = (TYPES as readonly string[]).includes(t ?? '') ? (t as ExportType) : 'bookings';
  const f = params.get('format');
  const format = (FORMATS as readonly string[]).includes(f ?? '') ? (f as ExportRequest['format']) : 'csv';
  const filters: Omit<ExportRequest, 'type' | 'format'> = {};
  for (const k of ['date_from', 'date_to', 'status'] as const) {
    const v = params.get(k);
    if (v) filters[k] = v;
  }
  const set = (k: string, v: string) =>
    setParams((p) => {
      const n = new URLSearchParams(p);
      if (v) n.set(k, v);
      else n.delete(k);
      return n;
    });
  return { type, format, filters, set };
}

function Preview({ body }: { body: Omit<ExportRequest, 'format'> }) {
  const q = useExportPreview(body);
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Loading label="Counting…" />;
  const { columns, sample, count } = q.data;
  const shown = columns.slice(0, 8);
  return (
    <section className="card mt-4" aria-labelledby="export-preview-title" aria-busy={q.isFetching}>
      <h2 id="export-preview-title" className="font-semibold">
        Preview
      </h2>
      <p className="mb-2" data-testid="export-count" aria-live="polite">
        {formatNumber(count)} records match
      </p>
      {sample.length > 0 && (
        // focusable: on a phone the preview scrolls sideways, and a keyboard must reach it (axe scrollable-region-focusable)
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Export preview, scrolls sideways">
          <table className="w-full text-left text-sm" aria-label="Export preview">
            <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-800 dark:text-slate-400">
              <tr>
                {shown.map((c) => (
                  <th key={c} scope="col" className="p-2">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {sample.map((row, i) => (
                <tr key={i} className="border-b border-slate-100 dark:border-slate-800">
                  {shown.map((c) => (
                    <td key={c} className="p-2">
                      {row[c] === null || row[c] === undefined
                        ? '—'
                        : typeof row[c] === 'object'
                          ? JSON.stringify(row[c])
                          : String(row[c] as string | number | boolean)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {columns.length > shown.length && (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              +{columns.length - shown.length} more columns in the file
            </p>
          )}
        </div>
      )}
    </section>
  );
}

function History() {
  const store = useStore();
  const toast = useToast();
  const [state, setState] = useTableState([]);
  const q = useExportHistory({ page: state.page, per_page: state.perPage });
  const del = useDeleteExport();
  type Row = NonNullable<typeof q.data>['items'][number];
  const columns: Column<Row>[] = [
    { id: 'filename', header: 'File', cell: (r) => r.filename },
    { id: 'type', header: 'Type', cell: (r) => r.type },
    { id: 'records', header: 'Records', numeric: true, cell: (r) => formatNumber(r.records) },
    { id: 'date', header: 'Date', cell: (r) => formatDateTime(r.date, store.timezone) },
    { id: 'status', header: 'Status', cell: (r) => (r.error ? `${r.status}: ${r.error}` : r.status) },
    {
      id: 'actions',
      header: 'Actions',
      cell: (r) => (
        <ConfirmDialog
          danger
          trigger={
            <button type="button" className="btn btn-danger" aria-label={`Delete ${r.filename}`}>
              Delete
            </button>
          }
          title="Delete this export record?"
          description={r.filename}
          confirmLabel="Delete"
          onConfirm={async () => {
            await del.mutateAsync(r.id);
            toast('Export deleted');
          }}
        />
      ),
    },
  ];
  return (
    <section className="mt-6" aria-labelledby="export-history-title">
      <h2 id="export-history-title" className="mb-2 text-lg font-semibold">
        History
      </h2>
      <DataTable
        label="Export history"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(r) => r.id}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No exports yet."
      />
    </section>
  );
}

export default function Export() {
  const { type, format, filters, set } = useExportParams();
  const download = useDownloadExport();
  const toast = useToast();
  return (
    <div>
      <PageHeader title="Export" />
      <form
        className="card flex flex-wrap items-end gap-3"
        aria-label="Export options"
        onSubmit={(e) => {
          e.preventDefault();
          download.mutate({ type, format, ...filters }, { onSuccess: (name) => toast(`Downloaded ${name}`) });
        }}
      >
        <label className="flex flex-col text-sm">
          Type
          <select className="input" value={type} onChange={(e) => set('type', e.target.value)}>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm">
          Format
          <select className="input" value={format} onChange={(e) => set('format', e.target.value)}>
            {FORMATS.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm">
          From
          <input
            className="input"
            type="date"
            value={filters.date_from ?? ''}
            onChange={(e) => set('date_from', e.target.value)}
          />
        </label>
        <label className="flex flex-col text-sm">
          To
          <input
            className="input"
            type="date"
            value={filters.date_to ?? ''}
            onChange={(e) => set('date_to', e.target.value)}
          />
        </label>
        <label className="flex flex-col text-sm">
          Status
          <input
            className="input"
            value={filters.status ?? ''}
            onChange={(e) => set('status', e.target.value.trim())}
          />
        </label>
        <button type="submit" className="btn btn-primary" disabled={download.isPending}>
          {download.isPending ? 'Exporting…' : 'Download'}
        </button>
        {download.error && (
          <p role="alert" className="w-full text-red-700 dark:text-red-400">
            {download.error.message}
          </p>
        )}
      </form>
      <Preview body={{ type, ...filters }} />
      <History />
    </div>
  );
}
