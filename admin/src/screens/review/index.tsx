import { NavLink, Navigate, Route, Routes, useSearchParams } from 'react-router';
import { useStore } from '../../api/session';
import { DataTable, useTableState, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/State';
import { SlideOver } from '../../components/SlideOver';
import { formatDate, formatMoney } from '../../lib/format';
import { ApplicationReview } from './ApplicationReview';
import { useReviewCount, useWaitingApplications, useWaitingVehicles } from './api';
import { VehicleReview } from './VehicleReview';

/** The item whose detail is open, in the URL (`?open=12`), so a reload or a shared link shows it again. */
function useOpen() {
  const [params, setParams] = useSearchParams();
  const open = Number(params.get('open')) || null;
  const setOpen = (id: number | null) =>
    setParams((p) => {
      const n = new URLSearchParams(p);
      if (id === null) n.delete('open');
      else n.set('open', String(id));
      return n;
    });
  return [open, setOpen] as const;
}

function Vehicles() {
  const store = useStore();
  const [state, setState] = useTableState([]);
  const q = useWaitingVehicles({ page: state.page, per_page: state.perPage });
  const [open, setOpen] = useOpen();
  type Item = NonNullable<typeof q.data>['items'][number];
  const columns: Column<Item>[] = [
    {
      id: 'name',
      header: 'Vehicle',
      cell: (v) => (
        <button
          type="button"
          className="text-left font-medium text-teal-800 underline dark:text-teal-300"
          onClick={() => setOpen(v.id)}
        >
          {v.name}
        </button>
      ),
    },
    { id: 'vendor', header: 'Vendor', cell: (v) => v.vendor_name },
    { id: 'price_per_day', header: 'Per day', numeric: true, cell: (v) => formatMoney(v.price_per_day, v.currency) },
    { id: 'location', header: 'Location', cell: (v) => v.location_name ?? '—' },
    { id: 'submitted_at', header: 'Submitted', cell: (v) => formatDate(v.submitted_at, store.timezone) },
  ];
  const item = q.data?.items.find((v) => v.id === open);
  return (
    <>
      <DataTable
        label="Vehicles waiting for review"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(v) => String(v.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No vehicle is waiting for review."
      />
      <SlideOver open={open !== null} onClose={() => setOpen(null)} title={item ? item.name : `Vehicle #${open}`}>
        {open !== null && <VehicleReview id={open} onDone={() => setOpen(null)} />}
      </SlideOver>
    </>
  );
}

function Applications() {
  const store = useStore();
  const [state, setState] = useTableState([]);
  const q = useWaitingApplications({ page: state.page, per_page: state.perPage });
  const [open, setOpen] = useOpen();
  type Item = NonNullable<typeof q.data>['items'][number];
  const columns: Column<Item>[] = [
    {
      id: 'applicant_name',
      header: 'Applicant',
      cell: (a) => (
        <button
          type="button"
          className="text-left font-medium text-teal-800 underline dark:text-teal-300"
          onClick={() => setOpen(a.id)}
        >
          {a.applicant_name}
        </button>
      ),
    },
    { id: 'applicant_email', header: 'E-mail', cell: (a) => a.applicant_email },
    { id: 'city', header: 'City', cell: (a) => a.city },
    { id: 'applied_at', header: 'Applied', cell: (a) => formatDate(a.applied_at, store.timezone) },
  ];
  const item = q.data?.items.find((a) => a.id === open);
  return (
    <>
      <DataTable
        label="Applications waiting for review"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(a) => String(a.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No application is waiting for review."
      />
      <SlideOver
        open={open !== null}
        onClose={() => setOpen(null)}
        title={item ? `Application of ${item.applicant_name}` : `Application #${open}`}
      >
        {open !== null && <ApplicationReview id={open} onDone={() => setOpen(null)} />}
      </SlideOver>
    </>
  );
}

/** /review: what waits for an operator's decision — vendors' new vehicles and vendor applications. */
export default function Review() {
  const count = useReviewCount();
  const tabs = [
    ['vehicles', 'Vehicles', count.data?.vehicles],
    ['applications', 'Applications', count.data?.applications],
  ] as const;
  return (
    <div>
      <PageHeader title="Review" />
      <nav aria-label="Review sections" className="mb-4 flex gap-2 border-b border-slate-200 dark:border-slate-800">
        {tabs.map(([path, label, n]) => (
          <NavLink
            key={path}
            to={`/review/${path}`}
            className={({ isActive }) =>
              `-mb-px border-b-2 px-3 py-2 ${isActive ? 'border-teal-700 font-semibold text-teal-800 dark:text-teal-300' : 'border-transparent'}`
            }
          >
            {n === undefined ? label : `${label} (${n})`}
          </NavLink>
        ))}
      </nav>
      <Routes>
        <Route path="vehicles" element={<Vehicles />} />
        <Route path="applications" element={<Applications />} />
        <Route path="*" element={<Navigate to="/review/vehicles" replace />} />
      </Routes>
    </div>
  );
}
