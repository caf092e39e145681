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
  const text =
    d.format === 'neutral'
      ? 'no change'
      : d.format === 'pct'
        ? `${d.value > 0 ? '+' : ''}${d.value}%`
        : `${d.value > 0 ? '+' : ''}${formatNumber(d.value)}`;
  const tone =
    d.direction === 'up'
      ? 'text-emerald-700 dark:text-emerald-400'
      : d.direction === 'down'
        ? 'text-red-700 dark:text-red-400'
        : 'text-slate-600 dark:text-slate-400';
  return (
    <span className={`text-sm ${tone}`} data-testid="delta">
      {d.direction === 'up' ? '▲ ' : d.direction === 'down' ? '▼ ' : ''}
      {text} vs last month
    </span>
  );
}

/**
 * One KPI card. The label says what the number counts (this month, all time, right now); a month-over-month delta
 * is shown only under a this-month figure, so it compares like with like. `note` is a second, plainly labelled
 * figure (e.g. the all-time count) without a delta.
 */
function Kpi({
  id,
  label,
  value,
  delta,
  note,
}: {
  id: string;
  label: string;
  value: string;
  delta?: Delta;
  note?: string;
}) {
  return (
    <section className="card" aria-labelledby={`kpi-${id}`} data-kpi={id}>
      <h2 id={`kpi-${id}`} className="text-sm text-slate-600 dark:text-slate-400">
        {label}
      </h2>
      <p className="mt-1 text-2xl font-semibold tabular-nums" data-testid="kpi-value">
        {value}
      </p>
      {delta && <DeltaBadge d={delta} />}
      {note && (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="kpi-note">
          {note}
        </p>
      )}
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
            {/* The API's deltas compare this month with last month: they sit under the this-month figures only. */}
            <Kpi
              id="bookings_this_month"
              label="Bookings this month"
              value={formatNumber(stats.data.bookings_this_month)}
              delta={stats.data.deltas.total_bookings}
              note={`All time: ${formatNumber(stats.data.total_bookings)}`}
            />
            <Kpi
              id="revenue_this_month"
              label="Revenue this month"
              value={formatMoney(stats.data.revenue_this_month, stats.data.currency)}
              delta={stats.data.deltas.revenue}
              note={`All time: ${formatMoney(stats.data.revenue, stats.data.currency)}`}
            />
            {/* Active now vs active vehicles created before this month is not last month's figure: no delta, the
                difference said in words. */}
            <Kpi
              id="active_vehicles"
              label="Active vehicles now"
              value={formatNumber(stats.data.active_vehicles)}
              note={`${formatNumber(Math.max(0, stats.data.active_vehicles - stats.data.active_vehicles_last_month))} added this month`}
            />
            <Kpi
              id="customers"
              label="Customers this month"
              value={formatNumber(stats.data.customers)}
              delta={stats.data.deltas.customers}
            />
          </div>
          <section className="card mt-4" aria-labelledby="status-title">
            <h2 id="status-title" className="mb-2 font-semibold">
              Bookings by status, all time
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
