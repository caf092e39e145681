import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useStore } from '../../api/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, useTableState, type Column } from '../../components/DataTable';
import { SearchBox } from '../../components/SearchBox';
import { SlideOver } from '../../components/SlideOver';
import { ErrorState, Loading, PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { withFilter } from '../../lib/table-state';
import { useBulkDelete, useCustomer, useCustomers, type SortBy } from './api';

const FILTERS = ['search'] as const;
const SORTS: readonly SortBy[] = ['name', 'email', 'bookings', 'total_spent', 'last_booking', 'created'];

interface Row {
  id: number;
  name: string;
  email: string;
  phone: string;
  bookings_count: number;
  total_spent: number;
  last_booking: string | null;
  currency: string;
}

export default function Customers() {
  const store = useStore();
  const toast = useToast();
  const [state, setState] = useTableState(FILTERS, { sort: 'created', desc: true });
  const [params, setParams] = useSearchParams();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const open = params.get('customer') ? Number(params.get('customer')) : null;
  const sort = SORTS.includes(state.sort as SortBy) ? (state.sort as SortBy) : 'created';
  const q = useCustomers({
    page: state.page,
    per_page: state.perPage,
    sort_by: sort,
    sort_dir: state.desc ? 'desc' : 'asc',
    ...(state.filters.search ? { search: state.filters.search } : {}),
  });
  const del = useBulkDelete();
  const setOpen = (id: number | null) =>
    setParams((p) => {
      const n = new URLSearchParams(p);
      if (id === null) n.delete('customer');
      else n.set('customer', String(id));
      return n;
    });
  const columns: Column<Row>[] = [
    { id: 'name', header: 'Name', sortable: true, cell: (c) => c.name },
    { id: 'email', header: 'Email', sortable: true, cell: (c) => c.email },
    { id: 'bookings', header: 'Bookings', sortable: true, numeric: true, cell: (c) => c.bookings_count },
    {
      id: 'total_spent',
      header: 'Total spent',
      sortable: true,
      numeric: true,
      cell: (c) => formatMoney(c.total_spent, c.currency),
    },
    {
      id: 'last_booking',
      header: 'Last booking',
      sortable: true,
      cell: (c) => formatDate(c.last_booking, store.timezone),
    },
  ];
  const ids = [...selected].map(Number);
  return (
    <div>
      <PageHeader
        title="Customers"
        actions={
          <ConfirmDialog
            trigger={
              <button type="button" className="btn btn-danger" disabled={ids.length === 0}>
                Delete selected ({ids.length})
              </button>
            }
            title={`Delete ${ids.length} customer(s)?`}
            description="Customers with bookings keep their bookings, anonymised. This cannot be undone."
            confirmLabel="Delete"
            danger
            onConfirm={async () => {
              const r = await del.mutateAsync(ids);
              setSelected(new Set());
              toast(`${r.deleted} customer(s) deleted${r.skipped ? `, ${r.skipped} skipped` : ''}`);
            }}
          />
        }
      />
      <div className="mb-3 max-w-sm" role="search" aria-label="Search customers">
        <SearchBox
          label="Search by name, email or phone"
          value={state.filters.search ?? ''}
          onChange={(v) => setState(withFilter(state, 'search', v))}
        />
      </div>
      <DataTable
        label="Customers"
        columns={columns}
        rows={q.data?.items as Row[] | undefined}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(c) => String(c.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No customers match."
        onRowClick={(c) => setOpen(c.id)}
        selected={selected}
        onSelected={setSelected}
      />
      <SlideOver open={open !== null} onClose={() => setOpen(null)} title="Customer">
        {open !== null && <CustomerDetail id={open} />}
      </SlideOver>
    </div>
  );
}

function CustomerDetail({ id }: { id: number }) {
  const store = useStore();
  const q = useCustomer(id);
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Loading />;
  const c = q.data;
  return (
    <div data-testid="customer-detail">
      <h3 className="text-xl font-semibold">{c.name}</h3>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt>Email</dt>
        <dd>{c.email}</dd>
        <dt>Phone</dt>
        <dd>{c.phone || '—'}</dd>
        <dt>Address</dt>
        <dd>{c.address || '—'}</dd>
        <dt>Bookings</dt>
        <dd data-testid="customer-bookings-count">{c.bookings_count}</dd>
        <dt>Total spent</dt>
        <dd>{formatMoney(c.total_spent, c.currency)}</dd>
        <dt>Customer since</dt>
        <dd>{formatDate(c.created_at, store.timezone)}</dd>
        <dt>Message threads</dt>
        <dd>{c.message_threads}</dd>
      </dl>
      <div className="mt-3">
        <Link to={`/bookings/new?customer_id=${c.id}`} className="btn btn-primary">
          New booking for {c.name}
        </Link>
      </div>
      <h4 className="mt-4 font-semibold">Recent bookings</h4>
      {c.recent_bookings.length === 0 ? (
        <p>No bookings.</p>
      ) : (
        <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
          {c.recent_bookings.map((b) => (
            <li key={b.id} className="py-2">
              <Link to={`/bookings/${b.id}`} className="font-medium underline">
                {b.reference}
              </Link>{' '}
              {b.vehicle_name} · {b.status_label} · {formatMoney(b.total, b.currency)} ·{' '}
              {formatDateTime(b.pickup_at, store.timezone)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
