import { useMemo, type ReactElement, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useStore } from '../../api/session';
import { ErrorState, Loading, PageHeader } from '../../components/State';
import { downloadText, toCsv } from '../../lib/csv';
import { PRESETS, isPreset, presetRange, type DateRange } from '../../lib/dates';
import { formatMoney, formatNumber } from '../../lib/format';
import { useBookingsReport, useCustomersReport, useOverview, useRevenue, useVehiclesReport } from './api';

const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'revenue', label: 'Revenue' },
  { id: 'bookings', label: 'Bookings' },
  { id: 'vehicles', label: 'Vehicles' },
  { id: 'customers', label: 'Customers' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/** One table as shown: header, rows of display strings, and the raw values the CSV gets. */
interface Shown {
  title: string;
  header: string[];
  rows: { display: ReactNode[]; raw: (string | number | null)[] }[];
}

const YMD = /^\d{4}-\d{2}-\d{2}$/;

export default function Reports() {
  const store = useStore();
  const [params, setParams] = useSearchParams();
  const tab: Tab = (TABS.find((t) => t.id === params.get('tab'))?.id ?? 'overview') as Tab;
  const presetParam = params.get('preset');
  const custom = YMD.test(params.get('start') ?? '') && YMD.test(params.get('end') ?? '');
  const preset = custom ? null : isPreset(presetParam) ? presetParam : '30d';
  const range: DateRange = useMemo(
    () =>
      preset
        ? presetRange(preset, new Date(), store.timezone)
        : { start: params.get('start')!, end: params.get('end')! },
    [preset, params, store.timezone],
  );
  const update = (patch: Record<string, string | null>) =>
    setParams((p) => {
      const n = new URLSearchParams(p);
      for (const [k, v] of Object.entries(patch)) {
        if (v === null) n.delete(k);
        else n.set(k, v);
      }
      return n;
    });

  return (
    <div>
      <PageHeader title="Reports" />
      <div className="mb-4 flex flex-wrap items-end gap-3" role="group" aria-label="Date range">
        <label className="flex flex-col text-sm">
          <span className="mb-1 font-medium">Range</span>
          <select
            aria-label="Range"
            className="input"
            value={preset ?? 'custom'}
            onChange={(e) =>
              update(
                e.target.value === 'custom'
                  ? { preset: null, start: range.start, end: range.end }
                  : { preset: e.target.value, start: null, end: null },
              )
            }
          >
            {PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
            <option value="custom">Custom</option>
          </select>
        </label>
        <label className="flex flex-col text-sm">
          <span className="mb-1 font-medium">From</span>
          <input
            aria-label="From"
            type="date"
            className="input"
            value={range.start}
            onChange={(e) => e.target.value && update({ preset: null, start: e.target.value, end: range.end })}
          />
        </label>
        <label className="flex flex-col text-sm">
          <span className="mb-1 font-medium">To</span>
          <input
            aria-label="To"
            type="date"
            className="input"
            value={range.end}
            onChange={(e) => e.target.value && update({ preset: null, start: range.start, end: e.target.value })}
          />
        </label>
        <span className="pb-2 text-sm text-slate-700 dark:text-slate-300" data-testid="range">
          {range.start} – {range.end} ({store.timezone})
        </span>
      </div>
      <div
        role="tablist"
        aria-label="Reports"
        className="mb-4 flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800"
      >
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`rtab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="report-panel"
            className={`-mb-px border-b-2 px-3 py-2 text-sm ${tab === t.id ? 'border-teal-700 font-semibold' : 'border-transparent'}`}
            onClick={() => update({ tab: t.id })}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="report-panel" aria-labelledby={`rtab-${tab}`}>
        <ReportTab tab={tab} range={range} />
      </div>
    </div>
  );
}

function ReportTab({ tab, range }: { tab: Tab; range: DateRange }) {
  const store = useStore();
  const overview = useOverview(range, tab === 'overview');
  const revenue = useRevenue(range, tab === 'revenue');
  const bookings = useBookingsReport(range, tab === 'bookings');
  const vehicles = useVehiclesReport(range, tab === 'vehicles');
  const customers = useCustomersReport(range, tab === 'customers');
  const q = { overview, revenue, bookings, vehicles, customers }[tab];
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Loading />;
  const money = (n: number) => formatMoney(n, q.data.currency);
  let chart: ReactNode = null;
  let shown: Shown;
  if (tab === 'overview' && overview.data) {
    const o = overview.data;
    const m: [string, ReactNode, number][] = [
      ['Revenue', money(o.revenue.total), o.revenue.total],
      ['Average daily revenue', money(o.revenue.avg_daily), o.revenue.avg_daily],
      ['Revenue bookings', formatNumber(o.revenue.bookings), o.revenue.bookings],
      ['Cancelled value', money(o.revenue.cancelled_total), o.revenue.cancelled_total],
      ['Bookings', formatNumber(o.bookings.total), o.bookings.total],
      ['Cancelled bookings', formatNumber(o.bookings.cancelled), o.bookings.cancelled],
      ['Cancellation rate %', o.bookings.cancellation_rate, o.bookings.cancellation_rate],
      ['Conversion rate %', o.bookings.conversion_rate, o.bookings.conversion_rate],
      ['Average duration (days)', o.bookings.avg_duration_days, o.bookings.avg_duration_days],
      ['Vehicles booked', formatNumber(o.vehicles.vehicles_booked), o.vehicles.vehicles_booked],
      ['Average occupancy %', o.vehicles.avg_occupancy_rate, o.vehicles.avg_occupancy_rate],
      ['Customers', formatNumber(o.customers.total_customers), o.customers.total_customers],
      ['New customers', formatNumber(o.customers.new_customers), o.customers.new_customers],
      ['Loyalty rate %', o.customers.loyalty_rate, o.customers.loyalty_rate],
    ];
    shown = {
      title: 'Overview',
      header: ['Metric', 'Value'],
      rows: m.map(([k, d, raw]) => ({ display: [k, d], raw: [k, raw] })),
    };
    chart = (
      <BarChart
        accessibilityLayer={false}
        data={[
          { name: 'Bookings', total: o.bookings.total, cancelled: o.bookings.cancelled },
          { name: 'Customers', total: o.customers.total_customers, cancelled: 0 },
        ]}
      >
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="name" />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Legend />
        <Bar dataKey="total" name="Total" fill="#0f766e" />
        <Bar dataKey="cancelled" name="Cancelled" fill="#b91c1c" />
      </BarChart>
    );
  } else if (tab === 'revenue' && revenue.data) {
    const r = revenue.data;
    shown = {
      title: 'Revenue by day',
      header: ['Date', 'Revenue', 'Bookings', 'Cancelled value'],
      rows: r.series.map((s) => ({
        display: [s.date, money(s.revenue), s.bookings, money(s.cancelled)],
        raw: [s.date, s.revenue, s.bookings, s.cancelled],
      })),
    };
    chart = (
      <LineChart accessibilityLayer={false} data={r.series}>
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="date" tick={{ fontSize: 11 }} />
        <YAxis />
        <Tooltip />
        <Line type="monotone" dataKey="revenue" name="Revenue" stroke="#0f766e" dot={false} />
      </LineChart>
    );
  } else if (tab === 'bookings' && bookings.data) {
    const b = bookings.data;
    shown = {
      title: 'Bookings by status',
      header: ['Status', 'Bookings', 'Share %'],
      rows: b.status_distribution.map((s) => ({
        display: [s.label, s.count, s.percentage],
        raw: [s.label, s.count, s.percentage],
      })),
    };
    chart = (
      <BarChart accessibilityLayer={false} data={b.status_distribution}>
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="label" tick={{ fontSize: 11 }} />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Bar dataKey="count" name="Bookings" fill="#0f766e" />
      </BarChart>
    );
  } else if (tab === 'vehicles' && vehicles.data) {
    const v = vehicles.data;
    shown = {
      title: 'Top vehicles',
      header: ['Vehicle', 'Category', 'Bookings', 'Revenue', 'Average per booking'],
      rows: v.top_vehicles.map((t) => ({
        display: [t.name, t.category, t.bookings, money(t.revenue), money(t.avg_revenue_per_booking)],
        raw: [t.name, t.category, t.bookings, t.revenue, t.avg_revenue_per_booking],
      })),
    };
    chart = (
      <BarChart accessibilityLayer={false} data={v.top_vehicles}>
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="name" tick={{ fontSize: 11 }} />
        <YAxis />
        <Tooltip />
        <Bar dataKey="revenue" name="Revenue" fill="#0f766e" />
      </BarChart>
    );
  } else if (tab === 'customers' && customers.data) {
    const c = customers.data;
    shown = {
      title: 'Top customers',
      header: ['Customer', 'Email', 'Bookings', 'Total spent'],
      rows: c.top_customers.map((t) => ({
        display: [t.name, t.email, t.bookings, money(t.total_spent)],
        raw: [t.name, t.email, t.bookings, t.total_spent],
      })),
    };
    chart = (
      <BarChart accessibilityLayer={false} data={c.lifecycle}>
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="date" tick={{ fontSize: 11 }} />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Legend />
        <Bar dataKey="new" name="New" stackId="c" fill="#0f766e" />
        <Bar dataKey="returning" name="Returning" stackId="c" fill="#64748b" />
      </BarChart>
    );
  } else {
    return <Loading />;
  }
  const csv = () =>
    downloadText(
      `rova-report-${tab}-${q.data.start_date}-${q.data.end_date}.csv`,
      toCsv(
        shown.header,
        shown.rows.map((r) => r.raw),
      ),
    );
  return (
    <div className="space-y-4">
      <section className="card" aria-label={`${shown.title} chart`}>
        <div className="h-72" aria-hidden="true">
          <ResponsiveContainer width="100%" height="100%">
            {chart as ReactElement}
          </ResponsiveContainer>
        </div>
      </section>
      <section className="card" aria-labelledby="report-table-title">
        <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
          <h2 id="report-table-title" className="font-semibold">
            {shown.title}{' '}
            <span className="text-sm font-normal">
              ({q.data.start_date} – {q.data.end_date}, {store.timezone})
            </span>
          </h2>
          <button type="button" className="btn" onClick={csv}>
            Download CSV
          </button>
        </div>
        {/* focusable: on a phone the table scrolls sideways, and a keyboard must reach it (axe scrollable-region-focusable) */}
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={`${shown.title}, table`}>
          <table className="w-full text-left text-sm" data-testid="report-table">
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-800">
                {shown.header.map((h) => (
                  <th key={h} scope="col" className="p-2 font-medium">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.rows.length === 0 ? (
                <tr>
                  <td colSpan={shown.header.length} className="p-4 text-center">
                    Nothing in this range.
                  </td>
                </tr>
              ) : (
                shown.rows.map((r, i) => (
                  <tr key={i} className="border-b border-slate-100 dark:border-slate-800">
                    {r.display.map((d, j) => (
                      <td key={j} className="p-2 tabular-nums">
                        {d}
                      </td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
