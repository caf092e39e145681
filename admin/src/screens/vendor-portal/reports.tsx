import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { api, unwrapRental } from '../../api/client';
import { useStore } from '../../api/session';
import { Combobox, type PickerOption, type PickerSource } from '../../components/Combobox';
import { DataTable, useTableState, type Column } from '../../components/DataTable';
import { applyServerErrors, FormField } from '../../components/FormField';
import { SlideOver } from '../../components/SlideOver';
import { ErrorState, Loading, PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { withFilter } from '../../lib/table-state';
import { useFileReport, useVendorReport, useVendorReports, type ReportBody, type ReportQuery } from './api';

type Report = NonNullable<ReturnType<typeof useVendorReports>['data']>['items'][number];
type Context = ReportBody['context_type'];

const CONTEXTS: [Context, string][] = [
  ['booking', 'A booking'],
  ['vehicle', 'A vehicle'],
  ['vehicle_action', 'A vehicle withdrawal or pause'],
  ['penalty', 'A penalty (appeal)'],
  ['general', 'Something else'],
];
const AUDIT_WORDS: Record<string, string> = {
  created: 'Filed',
  open: 'Reopened',
  in_review: 'Under review',
  resolved: 'Resolved',
  rejected: 'Rejected',
};

const match = (text: string, o: PickerOption) =>
  !text || `${o.label} ${o.detail ?? ''}`.toLocaleLowerCase().includes(text.toLocaleLowerCase());

/** Pickers over the vendor's own lists: nobody types an id. */
const ownVehicles: PickerSource = {
  key: 'vendor',
  async search(text) {
    const d = await unwrapRental(
      api.GET('/wp-json/rova-rental/v1/vendor/vehicles', { params: { query: { per_page: 100 } } }),
    );
    return d.items
      .map((v) => ({ id: v.id, label: v.name, detail: v.category }))
      .filter((o) => match(text, o))
      .slice(0, 10);
  },
  async get(id) {
    const v = await unwrapRental(api.GET('/wp-json/rova-rental/v1/vendor/vehicles/{id}', { params: { path: { id } } }));
    return { id: v.id, label: v.name, detail: v.category };
  },
};
const ownBookings: PickerSource = {
  key: 'vendor',
  async search(text) {
    const d = await unwrapRental(
      api.GET('/wp-json/rova-rental/v1/vendor/bookings', { params: { query: { scope: 'all', per_page: 100 } } }),
    );
    return d.items
      .map((b) => ({ id: b.id, label: b.reference, detail: `${b.vehicle_name} · ${b.customer_name}` }))
      .filter((o) => match(text, o))
      .slice(0, 10);
  },
  async get(id) {
    return (await this.search('')).find((o) => o.id === id) ?? { id, label: `Booking #${id}` };
  },
};
function penaltySource(currency: string): PickerSource {
  return {
    key: 'vendor',
    async search(text) {
      const d = await unwrapRental(
        api.GET('/wp-json/rova-rental/v2/ledger/summary', { params: { query: { kind: 'penalty', per_page: 100 } } }),
      );
      return d.entries.items
        .filter((e) => e.amount < 0)
        .map((e) => ({
          id: e.transaction_id,
          label: `Penalty ${formatMoney(-e.amount, currency)}`,
          detail: e.created_at.slice(0, 10),
        }))
        .filter((o) => match(text, o));
    },
    async get(id) {
      return (await this.search('')).find((o) => o.id === id) ?? { id, label: `Penalty #${id}` };
    },
  };
}

interface Values {
  context_type: Context;
  context_id: number | null;
  title: string;
  description: string;
}

function NewReport({ onDone }: { onDone(id: number): void }) {
  const store = useStore();
  const toast = useToast();
  const file = useFileReport();
  const form = useForm<Values>({
    defaultValues: { context_type: 'general', context_id: null, title: '', description: '' },
  });
  const [formError, setFormError] = useState<string | null>(null);
  const type = form.watch('context_type');
  const source =
    type === 'booking'
      ? ownBookings
      : type === 'vehicle' || type === 'vehicle_action'
        ? ownVehicles
        : type === 'penalty'
          ? penaltySource(store.currency)
          : null;
  const e = form.formState.errors;
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      const r = await file.mutateAsync({
        context_type: v.context_type,
        context_id: v.context_type === 'general' ? null : v.context_id,
        title: v.title.trim(),
        description: v.description,
      });
      toast('Report filed');
      onDone(r.id);
    } catch (err) {
      setFormError(applyServerErrors(err, form.setError, ['context_type', 'context_id', 'title', 'description']));
    }
  });
  return (
    <form onSubmit={(ev) => void onSubmit(ev)} noValidate aria-label="New report">
      <FormField label="About" error={e.context_type?.message}>
        <select
          className="input w-full"
          {...form.register('context_type', { onChange: () => form.setValue('context_id', null) })}
        >
          {CONTEXTS.map(([k, w]) => (
            <option key={k} value={k}>
              {w}
            </option>
          ))}
        </select>
      </FormField>
      {source && (
        <Controller
          key={type}
          control={form.control}
          name="context_id"
          rules={{ required: 'Choose what the report is about' }}
          render={({ field }) => (
            <div className="mb-3">
              <Combobox
                label={type === 'booking' ? 'Booking' : type === 'penalty' ? 'Penalty' : 'Vehicle'}
                source={source}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={e.context_id?.message}
              />
            </div>
          )}
        />
      )}
      <FormField label="Title" error={e.title?.message}>
        <input
          className="input w-full"
          {...form.register('title', {
            required: 'A title is required',
            maxLength: { value: 255, message: 'At most 255 characters' },
          })}
        />
      </FormField>
      <FormField label="What happened" error={e.description?.message} hint="At least 20 characters">
        <textarea
          className="input w-full"
          rows={5}
          {...form.register('description', { validate: (x) => x.trim().length >= 20 || 'At least 20 characters' })}
        />
      </FormField>
      {formError && (
        <p role="alert" className="mb-3 text-red-700 dark:text-red-400">
          {formError}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? 'Sending…' : 'File report'}
      </button>
    </form>
  );
}

function ReportView({ id }: { id: number }) {
  const store = useStore();
  const q = useVendorReport(id);
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Loading />;
  const r = q.data;
  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600 dark:text-slate-400">About</dt>
        <dd>
          {r.context_label}
          {r.context_id !== null ? ` #${r.context_id}` : ''}
        </dd>
        <dt className="text-slate-600 dark:text-slate-400">Status</dt>
        <dd data-testid="report-status">{r.status_label}</dd>
        <dt className="text-slate-600 dark:text-slate-400">Filed</dt>
        <dd>{formatDateTime(r.created_at, store.timezone)}</dd>
        {r.resolved_at && (
          <>
            <dt className="text-slate-600 dark:text-slate-400">Decided</dt>
            <dd>{formatDateTime(r.resolved_at, store.timezone)}</dd>
          </>
        )}
      </dl>
      <div>
        <h3 className="font-semibold">Your report</h3>
        <p className="whitespace-pre-wrap">{r.description}</p>
      </div>
      {r.admin_note && (
        <div>
          <h3 className="font-semibold">The platform's answer</h3>
          <p className="whitespace-pre-wrap">{r.admin_note}</p>
        </div>
      )}
      <div>
        <h3 className="font-semibold">History</h3>
        <ol className="list-decimal pl-5 text-sm">
          {r.audit.map((a, i) => (
            <li key={i}>
              {formatDateTime(a.at, store.timezone)}: {AUDIT_WORDS[a.action] ?? a.action}
              {a.note ? ` — ${a.note}` : ''}
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}

/** /vendor/reports: the vendor's reports (appeals, problems) with the platform's answers and history; file a new one. */
export default function VendorReports() {
  const store = useStore();
  const [state, setState] = useTableState(['status']);
  const q = useVendorReports({
    page: state.page,
    per_page: state.perPage,
    status: (state.filters.status as ReportQuery['status']) || 'all',
  });
  const [params, setParams] = useSearchParams();
  const open = params.get('report');
  const setOpen = (v: string | null) =>
    setParams((p) => {
      const n = new URLSearchParams(p);
      if (v === null) n.delete('report');
      else n.set('report', v);
      return n;
    });
  const columns: Column<Report>[] = [
    { id: 'title', header: 'Title', cell: (r) => r.title },
    { id: 'context', header: 'About', cell: (r) => r.context_label },
    { id: 'created_at', header: 'Filed', cell: (r) => formatDate(r.created_at, store.timezone) },
    { id: 'status', header: 'Status', cell: (r) => r.status_label },
    {
      id: 'actions',
      header: 'Actions',
      cell: (r) => (
        <button
          type="button"
          className="btn"
          aria-label={`Open report ${r.title}`}
          onClick={() => setOpen(String(r.id))}
        >
          Open
        </button>
      ),
    },
  ];
  const shown = open && open !== 'new' ? q.data?.items.find((r) => r.id === Number(open)) : undefined;
  return (
    <div>
      <PageHeader
        title="My reports"
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setOpen('new')}>
            New report
          </button>
        }
      />
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        Appeal a penalty, or tell the platform about a problem with a booking or a vehicle. One open report per subject.
      </p>
      <div className="mb-3 flex flex-wrap gap-3" role="search" aria-label="Filters">
        <label className="flex flex-col text-sm">
          Status
          <select
            className="input"
            value={state.filters.status ?? ''}
            onChange={(e) => setState(withFilter(state, 'status', e.target.value))}
          >
            <option value="">Any</option>
            <option value="open">Open</option>
            <option value="in_review">In review</option>
            <option value="resolved">Resolved</option>
            <option value="rejected">Rejected</option>
          </select>
        </label>
      </div>
      <DataTable
        label="My reports"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(r) => String(r.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No reports."
      />
      <SlideOver
        open={open !== null}
        onClose={() => setOpen(null)}
        title={open === 'new' ? 'New report' : (shown?.title ?? 'Report')}
      >
        {open === 'new' ? (
          <NewReport onDone={(id) => setOpen(String(id))} />
        ) : open ? (
          <ReportView id={Number(open)} />
        ) : null}
      </SlideOver>
    </div>
  );
}
