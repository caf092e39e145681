import { Link } from 'react-router';
import { useStore } from '../../api/session';
import { ErrorState, Loading, PageHeader } from '../../components/State';
import { formatDateTime, formatMoney, formatNumber } from '../../lib/format';
import { useDashboardStats, useRecentBookings, useUpcomingTransfers } from './api';
import { StatusChart } from './StatusChart';

interface Delta {
  format: 'pct' | 'abs' | 'neutral';
  value: number;
  direction: 'up' | 'down' | 'none';
}

function DeltaBadge({ d }: { d: Delta }) {
  const text = d.format === 'neutral' ? 'no change' : d.format === 'pct' ? `${d.value > 0 ? '+' : ''}${d.value}%` : `${d.value > 0 ? '+' : ''}${formatNumber(d.value)}`;
  const tone = d.direction === 'up' ? 'text-emerald-700 dark:text-emerald-400' : d.direction === 'down' ? 'text-red-700 dark:text-red-400' : 'text-slate-600 dark:text-slate-400';
  return (
    <span className={`text-sm ${tone}`} data-testid="delta">
      {d.direction === 'up' ? '▲ ' : d.direction === 'down' ? '▼ ' : ''}
      {text} <span className="sr-only">vs last month</span>
    </span>
  );
}

function Kpi({ id, label, value, delta }: { id: string; label: string; value: string; delta: Delta }) {
  return (
    <section className="card" aria-labelledby={`kpi-${id}`} data-kpi={id}>
      <h2 id={`kpi-${id}`} className="text-sm text-slate-600 dark:text-slate-400">
        {label}
      </h2>
      <p className="mt-1 text-2xl font-semibold tabular-nums" data-testid="kpi-value">
        {value}
      </p>
      <DeltaBadge d={delta} />
    </section>
  );
}

export default function Dashboard() {
  const store = useStore();
  const stats = useDashboardStats();
  const recent = useRecentBookings();
  const transfers = useUpcomingTransfers();
  return (
    <div>
      <PageHeader title="Dashboard" />
      {stats.error ? (
        <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
      ) : !stats.data ? (
        <Loading />
      ) : (
        <>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
            <Kpi id="total_bookings" label="Total bookings" value={formatNumber(stats.data.total_bookings)} delta={stats.data.deltas.total_bookings} />
            <Kpi id="revenue" label="Revenue" value={formatMoney(stats.data.revenue, stats.data.currency)} delta={stats.data.deltas.revenue} />
            <Kpi id="active_vehicles" label="Active vehicles" value={formatNumber(stats.data.active_vehicles)} delta={stats.data.deltas.active_vehicles} />
            <Kpi id="customers" label="Customers this month" value={formatNumber(stats.data.customers)} delta={stats.data.deltas.customers} />
          </div>
          <section className="card mt-4" aria-labelledby="status-title">
            <h2 id="status-title" className="mb-2 font-semibold">
              Bookings by status
            </h2>
            <StatusChart data={stats.data.status_breakdown} />
          </section>
        </>
      )}
      <div className="mt-4 grid grid-cols-1 gap-4 xl:grid-cols-2">
        <section className="card" aria-labelledby="recent-title">
          <h2 id="recent-title" className="mb-2 font-semibold">
            Recent bookings
          </h2>
          {recent.error ? (
            <ErrorState error={recent.error} onRetry={() => void recent.refetch()} />
          ) : !recent.data ? (
            <Loading />
          ) : recent.data.items.length === 0 ? (
            <p>No bookings yet.</p>
          ) : (
            <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="recent-bookings">
              {recent.data.items.map((b) => (
                <li key={b.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span>
                    <Link to={`/bookings/${b.id}`} className="font-medium text-teal-800 underline dark:text-teal-300">
                      {b.reference}
                    </Link>{' '}
                    {b.customer_name} · {b.vehicle_name}
                  </span>
                  <span className="text-sm">
                    {b.status_label} · <span className="tabular-nums">{formatMoney(b.total, b.currency)}</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="card" aria-labelledby="transfers-title">
          <h2 id="transfers-title" className="mb-2 font-semibold">
            Upcoming transfers
          </h2>
          {transfers.error ? (
            <ErrorState error={transfers.error} onRetry={() => void transfers.refetch()} />
          ) : !transfers.data ? (
            <Loading />
          ) : transfers.data.items.length === 0 ? (
            <p>No upcoming transfers.</p>
          ) : (
            <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="upcoming-transfers">
              {transfers.data.items.map((t) => (
                <li key={t.id} className="py-2">
                  <div className="font-medium">
                    {t.reference} · {t.origin_name} → {t.destination_name}
                  </div>
                  <div className="text-sm text-slate-700 dark:text-slate-300">
                    {formatDateTime(t.pickup_at, store.timezone)} · {t.customer_name} · {t.status_label}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
