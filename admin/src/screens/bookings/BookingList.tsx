import { Link, useNavigate } from 'react-router';
import { useStore } from '../../api/session';
import { DataTable, useTableState, type Column } from '../../components/DataTable';
import { SearchBox } from '../../components/SearchBox';
import { PageHeader } from '../../components/State';
import { BOOKING_STATUSES, STATUS_LABELS, statusLabel, type Booking, type BookingStatus } from '../../lib/bookings';
import { formatDateTime, formatMoney } from '../../lib/format';
import { withFilter } from '../../lib/table-state';
import { useBookings } from './api';

const FILTERS = ['status', 'kind', 'search', 'pickup_from', 'pickup_to', 'payment'] as const;

export function BookingList() {
  const store = useStore();
  const navigate = useNavigate();
  const [state, setState] = useTableState(FILTERS);
  const f = state.filters;
  const q = useBookings({
    page: state.page,
    per_page: state.perPage,
    ...(f.status ? { status: f.status as BookingStatus } : {}),
    ...(f.kind === 'rental' || f.kind === 'transfer' ? { kind: f.kind } : {}),
    ...(f.search ? { search: f.search } : {}),
    ...(f.pickup_from ? { pickup_from: f.pickup_from } : {}),
    ...(f.pickup_to ? { pickup_to: f.pickup_to } : {}),
    ...(f.payment === 'due' ? { payment_due: true } : {}),
  });
  const columns: Column<Booking>[] = [
    {
      id: 'reference',
      header: 'Reference',
      cell: (b) => (
        <Link
          to={`/bookings/${b.id}`}
          className="font-medium text-teal-800 underline dark:text-teal-300"
          onClick={(e) => e.stopPropagation()}
        >
          {b.reference}
        </Link>
      ),
    },
    { id: 'customer', header: 'Customer', cell: (b) => b.customer_name },
    { id: 'kind', header: 'Kind', cell: (b) => (b.kind === 'transfer' ? 'Transfer' : 'Rental') },
    { id: 'status', header: 'Status', cell: (b) => <span data-testid="booking-status">{statusLabel(b.status)}</span> },
    { id: 'pickup', header: 'Pick-up', cell: (b) => formatDateTime(b.pickup_at, store.timezone) },
    {
      id: 'pay_by',
      header: 'Pay by',
      cell: (b) => (
        <span data-testid="booking-deadline">
          {b.payment_deadline ? formatDateTime(b.payment_deadline, store.timezone) : ''}
        </span>
      ),
    },
    { id: 'payment', header: 'Payment', cell: (b) => b.payment_status.replace('_', ' ') },
    { id: 'total', header: 'Total', numeric: true, cell: (b) => formatMoney(b.total, b.currency) },
  ];
  const set = (k: string) => (v: string) => setState(withFilter(state, k, v));
  return (
    <div>
      <PageHeader
        title="Bookings"
        actions={
          <Link to="/bookings/new" className="btn btn-primary">
            New booking
          </Link>
        }
      />
      <div
        className="mb-3 grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-6"
        role="search"
        aria-label="Filter bookings"
      >
        <SearchBox label="Search" value={f.search ?? ''} onChange={set('search')} />
        <label className="flex flex-col text-sm">
          <span className="mb-1 font-medium">Status</span>
          <select className="input" value={f.status ?? ''} onChange={(e) => set('status')(e.target.value)}>
            <option value="">Any status</option>
            {BOOKING_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm">
          <span className="mb-1 font-medium">Payment</span>
          <select className="input" value={f.payment ?? ''} onChange={(e) => set('payment')(e.target.value)}>
            <option value="">Any payment</option>
            <option value="due">Payment due</option>
          </select>
        </label>
        <label className="flex flex-col text-sm">
          <span className="mb-1 font-medium">Kind</span>
          <select className="input" value={f.kind ?? ''} onChange={(e) => set('kind')(e.target.value)}>
            <option value="">Any kind</option>
            <option value="rental">Rental</option>
            <option value="transfer">Transfer</option>
          </select>
        </label>
        <label className="flex flex-col text-sm">
          <span className="mb-1 font-medium">Pick-up from</span>
          <input
            type="date"
            className="input"
            value={f.pickup_from ?? ''}
            onChange={(e) => set('pickup_from')(e.target.value)}
          />
        </label>
        <label className="flex flex-col text-sm">
          <span className="mb-1 font-medium">Pick-up to</span>
          <input
            type="date"
            className="input"
            value={f.pickup_to ?? ''}
            onChange={(e) => set('pickup_to')(e.target.value)}
          />
        </label>
      </div>
      <DataTable
        label="Bookings"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(b) => String(b.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No bookings match these filters."
        onRowClick={(b) => navigate(`/bookings/${b.id}`)}
      />
    </div>
  );
}
