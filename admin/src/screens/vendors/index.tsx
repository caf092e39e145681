import type { ReactNode } from 'react';
import { NavLink, Navigate, Route, Routes, useSearchParams } from 'react-router';
import { useStore } from '../../api/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, useTableState, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { formatDate, formatMoney } from '../../lib/format';
import { withFilter, type TableState } from '../../lib/table-state';
import { TextDialog } from '../../components/TextDialog';
import { SlideOver } from '../../components/SlideOver';
import { StatementButton } from '../../components/StatementButton';
import { VendorDetail } from './VendorDetail';
import { Reports } from './Reports';
import {
  useApplications,
  useApprovePayout,
  useApproveApplication,
  usePayouts,
  useRejectApplication,
  useRejectPayout,
  useSuspendVendor,
  useUnsuspendVendor,
  useVendors,
  type ApplicationQuery,
  type PayoutQuery,
  type VendorQuery,
} from './api';

function Filters({
  state,
  onState,
  children,
}: {
  state: TableState;
  onState(s: TableState): void;
  children?: ReactNode;
}) {
  return (
    <div className="mb-3 flex flex-wrap items-end gap-3" role="search" aria-label="Filters">
      <label className="flex flex-col text-sm">
        Search
        <input
          className="input"
          type="search"
          defaultValue={state.filters.search ?? ''}
          onKeyDown={(e) => {
            if (e.key === 'Enter') onState(withFilter(state, 'search', e.currentTarget.value.trim()));
          }}
        />
      </label>
      {children}
    </div>
  );
}

function StatusSelect({
  state,
  onState,
  options,
  defaultLabel = 'Default',
}: {
  state: TableState;
  onState(s: TableState): void;
  options: readonly string[];
  defaultLabel?: string;
}) {
  return (
    <label className="flex flex-col text-sm">
      Status
      <select
        className="input"
        value={state.filters.status ?? ''}
        onChange={(e) => onState(withFilter(state, 'status', e.target.value))}
      >
        <option value="">{defaultLabel}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

function Applications() {
  const store = useStore();
  const toast = useToast();
  const [state, setState] = useTableState(['search', 'status']);
  const q = useApplications({
    page: state.page,
    per_page: state.perPage,
    ...(state.filters as Partial<ApplicationQuery>),
  });
  const approve = useApproveApplication();
  const reject = useRejectApplication();
  type Row = NonNullable<typeof q.data>['items'][number];
  const columns: Column<Row>[] = [
    { id: 'applicant_name', header: 'Applicant', cell: (r) => r.applicant_name },
    { id: 'applicant_email', header: 'E-mail', cell: (r) => r.applicant_email },
    { id: 'city', header: 'City', cell: (r) => r.city },
    { id: 'applied_at', header: 'Applied', cell: (r) => formatDate(r.applied_at, store.timezone) },
    { id: 'status', header: 'Status', cell: (r) => r.status },
    {
      id: 'actions',
      header: 'Actions',
      cell: (r) =>
        r.status !== 'pending' ? null : (
          <div className="flex gap-2">
            <ConfirmDialog
              trigger={
                <button type="button" className="btn btn-primary" aria-label={`Approve ${r.applicant_name}`}>
                  Approve
                </button>
              }
              title="Approve application?"
              description={`${r.applicant_name} becomes a vendor and can list vehicles.`}
              confirmLabel="Approve"
              onConfirm={async () => {
                await approve.mutateAsync(r.id);
                toast('Application approved');
              }}
            />
            <TextDialog
              label="Reason"
              confirmLabel="Reject"
              danger
              required="A reason is required."
              trigger={
                <button type="button" className="btn btn-danger" aria-label={`Reject ${r.applicant_name}`}>
                  Reject
                </button>
              }
              title={`Reject ${r.applicant_name}?`}
              onConfirm={async (reason) => {
                await reject.mutateAsync({ id: r.id, reason });
                toast('Application rejected');
              }}
            />
          </div>
        ),
    },
  ];
  return (
    <>
      <Filters state={state} onState={setState}>
        <StatusSelect state={state} onState={setState} options={['pending', 'approved', 'rejected', 'all']} />
      </Filters>
      <DataTable
        label="Applications"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(r) => String(r.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No applications match."
      />
    </>
  );
}

function VendorList() {
  const store = useStore();
  const toast = useToast();
  const [state, setState] = useTableState(['search', 'status', 'owing']);
  const q = useVendors({
    page: state.page,
    per_page: state.perPage,
    ...(state.sort ? { sort_by: state.sort as VendorQuery['sort_by'], sort_order: state.desc ? 'desc' : 'asc' } : {}),
    ...(state.filters as Omit<Partial<VendorQuery>, 'owing'>),
    owing: state.filters.owing === 'true' ? true : undefined,
    // The API lists active vendors unless told otherwise (spec §4); operators see every vendor until they filter.
    status: (state.filters.status as VendorQuery['status'] | undefined) || 'all',
  });
  const [params, setParams] = useSearchParams();
  const openId = Number(params.get('vendor')) || null;
  const setOpen = (id: number | null) =>
    setParams((p) => {
      const n = new URLSearchParams(p);
      if (id === null) n.delete('vendor');
      else n.set('vendor', String(id));
      return n;
    });
  const suspend = useSuspendVendor();
  const unsuspend = useUnsuspendVendor();
  type Row = NonNullable<typeof q.data>['items'][number];
  const columns: Column<Row>[] = [
    { id: 'name', header: 'Vendor', sortable: true, cell: (r) => r.display_name },
    { id: 'email', header: 'E-mail', sortable: true, cell: (r) => r.email },
    { id: 'city', header: 'City', cell: (r) => r.city },
    { id: 'vehicle_count', header: 'Vehicles', sortable: true, numeric: true, cell: (r) => String(r.vehicle_count) },
    {
      id: 'reliability_score',
      header: 'Score',
      sortable: true,
      numeric: true,
      cell: (r) => String(r.reliability_score),
    },
    { id: 'approved_at', header: 'Approved', sortable: true, cell: (r) => formatDate(r.approved_at, store.timezone) },
    { id: 'status', header: 'Status', cell: (r) => r.status },
    // a vendor owes when refunds or penalties took more than was left available; their payouts wait until income settles it
    {
      id: 'owed',
      header: 'Owes',
      sortable: true,
      numeric: true,
      cell: (r) =>
        r.owed > 0 ? <span className="font-semibold text-red-700">{formatMoney(r.owed, store.currency)}</span> : '—',
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (r) => (
        <div className="flex gap-2">
          <button
            type="button"
            className="btn"
            aria-label={`Details of ${r.display_name}`}
            onClick={() => setOpen(r.id)}
          >
            Details
          </button>
          {r.status === 'active' ? (
            <ConfirmDialog
              danger
              trigger={
                <button type="button" className="btn btn-danger" aria-label={`Suspend ${r.display_name}`}>
                  Suspend
                </button>
              }
              title={`Suspend ${r.display_name}?`}
              description="Their vehicles leave the storefront until the vendor is unsuspended."
              confirmLabel="Suspend"
              onConfirm={async () => {
                await suspend.mutateAsync(r.id);
                toast('Vendor suspended');
              }}
            />
          ) : (
            <ConfirmDialog
              trigger={
                <button type="button" className="btn" aria-label={`Unsuspend ${r.display_name}`}>
                  Unsuspend
                </button>
              }
              title={`Unsuspend ${r.display_name}?`}
              description="Their active vehicles return to the storefront."
              confirmLabel="Unsuspend"
              onConfirm={async () => {
                await unsuspend.mutateAsync(r.id);
                toast('Vendor unsuspended');
              }}
            />
          )}
        </div>
      ),
    },
  ];
  return (
    <>
      <Filters state={state} onState={setState}>
        <StatusSelect state={state} onState={setState} options={['active', 'suspended']} defaultLabel="All" />
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={state.filters.owing === 'true'}
            onChange={(e) => setState(withFilter(state, 'owing', e.target.checked ? 'true' : ''))}
          />
          Owing the platform only
        </label>
      </Filters>
      <DataTable
        label="Vendors"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(r) => String(r.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No vendors match."
      />
      <SlideOver
        open={openId !== null}
        onClose={() => setOpen(null)}
        title={q.data?.items.find((v) => v.id === openId)?.display_name ?? 'Vendor'}
      >
        {openId !== null && <VendorDetail id={openId} />}
      </SlideOver>
    </>
  );
}

/** How a person names a payout: its vendor and the vendor's payout number (not the global id). */
function payoutName(r: { vendor_name: string; statement_no: number }): string {
  return `${r.vendor_name} #${r.statement_no}`;
}

function Payouts() {
  const store = useStore();
  const toast = useToast();
  const [state, setState] = useTableState(['status']);
  const q = usePayouts({ page: state.page, per_page: state.perPage, ...(state.filters as Partial<PayoutQuery>) });
  const approve = useApprovePayout();
  const reject = useRejectPayout();
  type Row = NonNullable<typeof q.data>['items'][number];
  const columns: Column<Row>[] = [
    // a payout is named as its vendor and the statement name it: the vendor's own number, then the statement's
    { id: 'payout', header: 'Payout', cell: (r) => payoutName(r) },
    { id: 'statement_number', header: 'Statement no.', cell: (r) => r.statement_number ?? '—' },
    { id: 'amount', header: 'Amount', numeric: true, cell: (r) => formatMoney(r.amount, r.currency) },
    { id: 'requested_at', header: 'Requested', cell: (r) => formatDate(r.requested_at, store.timezone) },
    { id: 'status', header: 'Status', cell: (r) => r.status + (r.rejection_reason ? ` (${r.rejection_reason})` : '') },
    { id: 'statement', header: 'Statement', cell: (r) => <StatementButton payout={r} /> },
    {
      id: 'actions',
      header: 'Actions',
      cell: (r) =>
        r.status !== 'requested' ? null : (
          <div className="flex gap-2">
            <ConfirmDialog
              trigger={
                <button type="button" className="btn btn-primary" aria-label={`Approve payout ${payoutName(r)}`}>
                  Approve
                </button>
              }
              title={`Approve payout ${payoutName(r)}?`}
              description={`${formatMoney(r.amount, r.currency)} to ${r.vendor_name}.`}
              confirmLabel="Approve"
              onConfirm={async () => {
                await approve.mutateAsync(r.id);
                toast('Payout approved');
              }}
            />
            <TextDialog
              label="Reason"
              confirmLabel="Reject"
              danger
              required="A reason is required."
              trigger={
                <button type="button" className="btn btn-danger" aria-label={`Reject payout ${payoutName(r)}`}>
                  Reject
                </button>
              }
              title={`Reject payout ${payoutName(r)}?`}
              onConfirm={async (reason) => {
                await reject.mutateAsync({ id: r.id, reason });
                toast('Payout rejected');
              }}
            />
          </div>
        ),
    },
  ];
  return (
    <>
      <div className="mb-3 flex flex-wrap gap-3" role="search" aria-label="Filters">
        <StatusSelect
          state={state}
          onState={setState}
          options={['requested', 'approved', 'rejected', 'paid', 'failed', 'all']}
        />
      </div>
      <DataTable
        label="Payouts"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(r) => String(r.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No payouts match."
      />
    </>
  );
}

const TABS = [
  ['applications', 'Applications'],
  ['list', 'Vendors'],
  ['payouts', 'Payouts'],
  ['reports', 'Reports'],
] as const;

export default function Vendors() {
  return (
    <div>
      <PageHeader title="Vendors" />
      <nav aria-label="Vendor sections" className="mb-4 flex gap-2 border-b border-slate-200 dark:border-slate-800">
        {TABS.map(([path, label]) => (
          // Absolute: inside the screen's splat route a relative `to` resolves against the current tab's URL
          // (/vendors/applications + "list" = /vendors/applications/list). NavLink sets aria-current="page".
          <NavLink
            key={path}
            to={`/vendors/${path}`}
            className={({ isActive }) =>
              `-mb-px border-b-2 px-3 py-2 ${isActive ? 'border-teal-700 font-semibold text-teal-800 dark:text-teal-300' : 'border-transparent'}`
            }
          >
            {label}
          </NavLink>
        ))}
      </nav>
      <Routes>
        <Route path="applications" element={<Applications />} />
        <Route path="list" element={<VendorList />} />
        <Route path="payouts" element={<Payouts />} />
        <Route path="reports" element={<Reports />} />
        <Route index element={<Navigate to="/vendors/applications" replace />} />
        <Route path="*" element={<Navigate to="/vendors/applications" replace />} />
      </Routes>
    </div>
  );
}
