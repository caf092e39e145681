import { useStore } from '../../api/session';
import { DataTable, useTableState, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/State';
import { TextDialog } from '../../components/TextDialog';
import { useToast } from '../../components/Toast';
import { formatDateTime, formatMoney } from '../../lib/format';
import { withFilter } from '../../lib/table-state';
import { useCancelBooking, useVendorBookings, type BookingQuery } from './api';
import { BOOKING_WORDS, Consequence } from './parts';

type Booking = NonNullable<ReturnType<typeof useVendorBookings>['data']>['items'][number];

/** /vendor/bookings: bookings of the vendor's own vehicles (upcoming or all, by status), vendor cancellation with its cost shown first. */
export default function VendorBookings() {
  const store = useStore();
  const toast = useToast();
  const [state, setState] = useTableState(['scope', 'status']);
  const scope = (state.filters.scope as BookingQuery['scope']) || 'upcoming';
  const q = useVendorBookings({
    page: state.page,
    per_page: state.perPage,
    scope,
    ...(state.filters.status ? { status: state.filters.status as BookingQuery['status'] } : {}),
  });
  const cancel = useCancelBooking();
  const columns: Column<Booking>[] = [
    { id: 'reference', header: 'Reference', cell: (b) => b.reference },
    { id: 'vehicle', header: 'Vehicle', cell: (b) => b.vehicle_name },
    { id: 'customer', header: 'Renter', cell: (b) => b.customer_name },
    { id: 'pickup', header: 'Pick-up', cell: (b) => formatDateTime(b.pickup_at, store.timezone) },
    { id: 'return', header: 'Return', cell: (b) => formatDateTime(b.return_at, store.timezone) },
    { id: 'total', header: 'Total', numeric: true, cell: (b) => formatMoney(b.total, b.currency) },
    {
      id: 'status',
      header: 'Status',
      cell: (b) => `${BOOKING_WORDS[b.status] ?? b.status}${b.cancelled_by === 'vendor' ? ' (by you)' : ''}`,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (b) =>
        !b.can_cancel ? null : (
          <TextDialog
            danger
            label="Reason (optional)"
            confirmLabel="Cancel booking"
            trigger={
              <button type="button" className="btn btn-danger" aria-label={`Cancel booking ${b.reference}`}>
                Cancel
              </button>
            }
            title={`Cancel ${b.reference}?`}
            description={
              <Consequence
                query={{ action: 'cancel' }}
                intro={`${b.customer_name}'s rental of ${b.vehicle_name} is cancelled. A cancellation by you lowers your reliability score for 6 months.`}
              />
            }
            onConfirm={async (reason) => {
              await cancel.mutateAsync({ id: b.id, reason: reason.trim() });
              toast('Booking cancelled');
            }}
          />
        ),
    },
  ];
  return (
    <div>
      <PageHeader title="Bookings on my vehicles" />
      <div className="mb-3 flex flex-wrap items-end gap-3" role="search" aria-label="Filters">
        <label className="flex flex-col text-sm">
          Period
          <select
            className="input"
            value={scope}
            onChange={(e) => setState(withFilter(state, 'scope', e.target.value === 'upcoming' ? '' : e.target.value))}
          >
            <option value="upcoming">Upcoming</option>
            <option value="all">All, newest first</option>
          </select>
        </label>
        <label className="flex flex-col text-sm">
          Status
          <select
            className="input"
            value={state.filters.status ?? ''}
            onChange={(e) => setState(withFilter(state, 'status', e.target.value))}
          >
            <option value="">Any</option>
            {Object.entries(BOOKING_WORDS).map(([k, w]) => (
              <option key={k} value={k}>
                {w}
              </option>
            ))}
          </select>
        </label>
      </div>
      <DataTable
        label="Bookings on my vehicles"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(b) => String(b.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty={scope === 'upcoming' ? 'No upcoming bookings.' : 'No bookings match.'}
      />
    </div>
  );
}
