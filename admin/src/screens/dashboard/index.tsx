import { useState } from 'react';
import { Link } from 'react-router';
import { ReviewWaiting } from './ReviewWaiting';
import { useMe, useStore } from '../../api/session';
import { ErrorState, Loading, PageHeader } from '../../components/State';
import { formatDateTime, formatMoney, formatNumber } from '../../lib/format';
import {
  useDashboardStats,
  useRecentBookings,
  useSetupApiKeys,
  useSetupCurrencies,
  useSetupLocations,
  useSetupPayments,
  useSetupVehicles,
  useUpcomingTransfers,
} from './api';
import { isEmptyInstallation, setupSteps, type SetupStep, type StepId } from './setup';
import { SetupGuide } from './SetupGuide';
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

/** The getting-started steps, each from the endpoint that owns its fact; a fact that could not be read says so. */
function useSetup(): { steps: SetupStep[]; vehicles: number | undefined; vehiclesError: boolean } {
  const currencies = useSetupCurrencies();
  const locations = useSetupLocations();
  const vehicles = useSetupVehicles();
  const payments = useSetupPayments();
  const keys = useSetupApiKeys();
  const errors: Partial<Record<StepId, Error | null>> = {
    currency: currencies.error,
    location: locations.error,
    vehicle: vehicles.error,
    payment: payments.error,
    api_key: keys.error,
  };
  const steps = setupSteps({
    currency: currencies.data && { base: currencies.data.base_currency, currencies: currencies.data.currencies },
    locations: locations.data?.total,
    vehicles: vehicles.data?.total,
    payments: payments.data,
    apiKeys: keys.data?.items,
  }).map((s) => {
    const e = errors[s.id];
    return e ? { ...s, detail: `Could not check: ${e.message}` } : s;
  });
  return { steps, vehicles: vehicles.data?.total, vehiclesError: vehicles.error !== null };
}

/** "Hide this guide", remembered per user in this browser. */
function useGuideHidden(userId: number): [boolean, () => void] {
  const key = `rova-admin:setup-guide-hidden:${userId}`;
  const [hidden, setHidden] = useState(() => {
    try {
      return localStorage.getItem(key) === '1';
    } catch {
      return false;
    }
  });
  const hide = () => {
    try {
      localStorage.setItem(key, '1');
    } catch {
      // private mode: hidden for this visit only
    }
    setHidden(true);
  };
  return [hidden, hide];
}

export default function Dashboard() {
  const store = useStore();
  const me = useMe();
  const stats = useDashboardStats();
  const recent = useRecentBookings();
  const transfers = useUpcomingTransfers();
  const setup = useSetup();
  const [guideHidden, hideGuide] = useGuideHidden(me.user.id);
  // Nothing to chart yet (no bookings, no vehicles): the checklist instead of empty charts. Once there is data the
  // charts come back and the checklist stays on top until every step is done or it is hidden.
  const empty = setup.vehiclesError ? false : isEmptyInstallation(stats.data?.total_bookings, setup.vehicles);
  const allDone = setup.steps.every((s) => s.done === true);
  if (empty === true)
    return (
      <div>
        <PageHeader title="Dashboard" />
        <ReviewWaiting />
        <p className="mb-4 text-slate-700 dark:text-slate-300">
          Nothing to chart yet: no vehicles and no bookings. These steps get the business ready to take bookings.
        </p>
        <SetupGuide steps={setup.steps} />
      </div>
    );
  return (
    <div>
      <PageHeader title="Dashboard" />
      <ReviewWaiting />
      {empty === false && !allDone && !guideHidden && <SetupGuide steps={setup.steps} onHide={hideGuide} />}
      {stats.error ? (
        <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
      ) : !stats.data || empty === undefined ? (
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
