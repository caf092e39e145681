import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Link } from 'react-router';
import { useStore } from '../../api/session';
import { Empty, ErrorState, Loading, PageHeader } from '../../components/State';
import { todayIn } from '../../lib/dates';
import { currencyDigits, formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { useProfile, useSummary, useVendorBookings } from './api';
import { earningsByMonth, lastTwelveMonths, monthLabel } from './months';
import { BOOKING_WORDS, Section, Stat } from './parts';

const SCORE_EVENTS: Record<string, string> = {
  cancel: 'Booking cancelled by you',
  withdraw: 'Vehicle withdrawn',
  pause: 'Vehicle paused',
  excused: 'Withdrawal excused',
  recompute: 'Recomputed',
};

/** /vendor/dashboard: balances, earnings by month, upcoming bookings, reliability score and its history — the vendor's own routes only. */
export default function VendorDashboard() {
  const store = useStore();
  const range = lastTwelveMonths(todayIn(store.timezone, new Date()));
  // the balances and the 12-month series in one call; its ledger entries are not shown here (per_page 1)
  const summary = useSummary({ ...range, per_page: 1 });
  const profile = useProfile();
  const upcoming = useVendorBookings({ scope: 'upcoming', per_page: 5 });
  const money = (n: number) => formatMoney(n, store.currency);

  if (summary.error)
    return (
      <div>
        <PageHeader title="Vendor dashboard" />
        <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />
      </div>
    );
  if (!summary.data)
    return (
      <div>
        <PageHeader title="Vendor dashboard" />
        <Loading />
      </div>
    );
  const b = summary.data.balances;
  const months = earningsByMonth(summary.data.daily, currencyDigits(store.currency));
  return (
    <div>
      <PageHeader
        title="Vendor dashboard"
        actions={
          <Link className="btn btn-primary" to="/vendor/payouts">
            Request a payout
          </Link>
        }
      />
      <div className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Balances" role="group">
        <Stat label="Pending" value={money(b.pending)} hint="Earned, inside the hold period" />
        <Stat label="Available" value={money(b.available)} hint="Can be paid out now" />
        <Stat label="On hold" value={money(b.on_hold)} hint="In a payout being processed" />
        <Stat
          label="Owed"
          value={money(b.owed)}
          tone={b.owed > 0 ? 'bad' : undefined}
          hint={b.owed > 0 ? 'Future income settles it first' : 'Nothing owed to the platform'}
        />
      </div>

      <Section title="Earnings by month">
        <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          Your net earnings (after commission) from completed rentals, {formatDate(range.start_date, store.timezone)} –{' '}
          {formatDate(range.end_date, store.timezone)}.
        </p>
        <div className="h-64" aria-hidden="true">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart accessibilityLayer={false} data={months.map((m) => ({ ...m, label: monthLabel(m.month) }))}>
              <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
              <XAxis dataKey="label" tick={{ fontSize: 11 }} />
              <YAxis />
              <Tooltip formatter={(v) => money(Number(v))} />
              <Bar dataKey="net" name="Net earnings" fill="#0f766e" />
            </BarChart>
          </ResponsiveContainer>
        </div>
        <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label="Earnings by month, table">
          <table className="w-full text-sm" data-testid="earnings-table">
            <thead>
              <tr className="text-left">
                <th scope="col" className="py-1 pr-3">
                  Month
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  Gross
                </th>
                <th scope="col" className="py-1 text-right">
                  Net earnings
                </th>
              </tr>
            </thead>
            <tbody>
              {months.map((m) => (
                <tr key={m.month} data-month={m.month} className="border-t border-slate-200 dark:border-slate-800">
                  <th scope="row" className="py-1 pr-3 text-left font-normal">
                    {monthLabel(m.month)}
                  </th>
                  <td className="py-1 pr-3 text-right tabular-nums">{money(m.gross)}</td>
                  <td className="py-1 text-right tabular-nums" data-testid="net">
                    {money(m.net)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <div className="grid gap-4 lg:grid-cols-2">
        <Section
          title="Upcoming bookings"
          actions={
            <Link className="btn" to="/vendor/bookings">
              All bookings
            </Link>
          }
        >
          {upcoming.error ? (
            <ErrorState error={upcoming.error} onRetry={() => void upcoming.refetch()} />
          ) : !upcoming.data ? (
            <Loading />
          ) : upcoming.data.items.length === 0 ? (
            <Empty>No upcoming bookings on your vehicles.</Empty>
          ) : (
            <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="upcoming">
              {upcoming.data.items.map((x) => (
                <li key={x.id} className="py-2" data-booking={x.reference}>
                  <div className="flex flex-wrap justify-between gap-2">
                    <span className="font-medium">{x.vehicle_name}</span>
                    <span className="tabular-nums">{formatMoney(x.total, x.currency)}</span>
                  </div>
                  <div className="text-sm text-slate-600 dark:text-slate-400">
                    {x.reference} · {x.customer_name} · {formatDateTime(x.pickup_at, store.timezone)} →{' '}
                    {formatDateTime(x.return_at, store.timezone)} · {BOOKING_WORDS[x.status] ?? x.status}
                  </div>
                </li>
              ))}
            </ul>
          )}
          {upcoming.data && upcoming.data.total > upcoming.data.items.length && (
            <p className="mt-2 text-sm">{upcoming.data.total} upcoming in all.</p>
          )}
        </Section>

        <Section title="Reliability score">
          {profile.error ? (
            <ErrorState error={profile.error} onRetry={() => void profile.refetch()} />
          ) : !profile.data ? (
            <Loading />
          ) : (
            <>
              <p className="mb-3">
                <span className="text-3xl font-semibold tabular-nums" data-testid="score">
                  {profile.data.reliability_score}
                </span>
                <span className="text-slate-600 dark:text-slate-400"> / 100</span>
              </p>
              <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
                Cancelling a booking costs 5 points, withdrawing a vehicle 10, pausing one 2 (each for 6 months);
                completed rentals add up to 20.
              </p>
              {profile.data.score_history.length === 0 ? (
                <Empty>No changes yet.</Empty>
              ) : (
                <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Score history">
                  <table className="w-full text-sm" data-testid="score-history">
                    <caption className="sr-only">Score history, newest first</caption>
                    <thead>
                      <tr className="text-left">
                        <th scope="col" className="py-1 pr-3">
                          When
                        </th>
                        <th scope="col" className="py-1 pr-3">
                          What
                        </th>
                        <th scope="col" className="py-1 text-right">
                          Score
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {profile.data.score_history.map((h, i) => (
                        <tr key={i} className="border-t border-slate-200 dark:border-slate-800">
                          <td className="py-1 pr-3">{formatDate(h.created_at, store.timezone)}</td>
                          <td className="py-1 pr-3">{SCORE_EVENTS[h.event_type] ?? h.event_type}</td>
                          <td className="py-1 text-right tabular-nums">
                            {h.score_before} → {h.score_after} ({h.delta > 0 ? '+' : ''}
                            {h.delta})
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </>
          )}
        </Section>
      </div>
    </div>
  );
}
