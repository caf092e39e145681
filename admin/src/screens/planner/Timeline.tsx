import { memo, useMemo, type KeyboardEvent, type MouseEvent } from 'react';
import { useHref, useNavigate } from 'react-router';
import type { PlannerBooking, PlannerVehicle } from './api';
import { dateTimeIn, dayHeading, periodLabel, shortDateTime } from './dates';
import { layoutRow, type Bar } from './layout';
import { LOOK_CLASS, lookOf, statusWords } from './status';

export const LABEL_W = 176;
const LANE_H = 30;
const PAD = 6;

export interface TimelineProps {
  days: string[];
  starts: number[];
  today: string;
  colW: number;
  timezone: string;
  vehicles: PlannerVehicle[];
  bookings: Map<number, PlannerBooking[]>;
  /** Link to a booking's detail, and to a new booking from an empty day cell. */
  bookingHref: (b: PlannerBooking) => string;
  newHref: (v: PlannerVehicle, day: string) => string;
}

/** Vehicles × days: a sticky vehicle column, day headings, one row per vehicle grouped by location. */
export const Timeline = memo(function Timeline(p: TimelineProps) {
  const width = p.days.length * p.colW;
  // Thousands of cells and bars: plain links (a real href: open in a new tab works), one click handler for all of
  // them that routes inside the app — a router <Link> each would cost more than the drawing.
  const base = useHref('/').replace(/\/$/, '');
  const navigate = useNavigate();
  // Day cells: one per row in the tab order (today, else the first day); arrow keys move between days and vehicles.
  const focusDay = p.days.includes(p.today) ? p.today : p.days[0];
  const onKeyDown = (e: KeyboardEvent) => {
    const cell = (e.target as Element).closest<HTMLElement>('[data-testid="planner-cell"]');
    if (!cell) return;
    const day = cell.dataset.day!;
    let next: HTMLElement | null | undefined;
    const row = cell.closest('[data-testid="planner-row"]');
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const i = p.days.indexOf(day) + (e.key === 'ArrowLeft' ? -1 : 1);
      if (i >= 0 && i < p.days.length) next = row?.querySelector<HTMLElement>(`[data-testid="planner-cell"][data-day="${p.days[i]}"]`);
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      const rows = [...(e.currentTarget as HTMLElement).querySelectorAll('[data-testid="planner-row"]')];
      const r = rows[rows.indexOf(row!) + (e.key === 'ArrowUp' ? -1 : 1)];
      next = r?.querySelector<HTMLElement>(`[data-testid="planner-cell"][data-day="${day}"]`);
    } else return;
    e.preventDefault();
    next?.focus();
  };
  const onClick = (e: MouseEvent) => {
    const a = (e.target as Element).closest<HTMLAnchorElement>('a[data-to]');
    if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void navigate(a.dataset.to!);
  };
  const headings = useMemo(() => p.days.map((d) => dayHeading(d)), [p.days]);
  const groups = useMemo(() => {
    const out: { name: string; vehicles: PlannerVehicle[] }[] = [];
    for (const v of p.vehicles) {
      const name = v.location_name ?? 'No location';
      const last = out[out.length - 1];
      if (last && last.name === name) last.vehicles.push(v);
      else out.push({ name, vehicles: [v] });
    }
    return out;
  }, [p.vehicles]);
  return (
    // delegation only: the links themselves take Enter (a link's click event); arrows move between cells
    <div className="text-sm" style={{ width: LABEL_W + width }} data-testid="planner-grid" onClick={onClick} onKeyDown={onKeyDown}>
      <div className="sticky top-0 z-20 flex border-b border-slate-300 bg-white dark:border-slate-700 dark:bg-slate-900" aria-hidden="true">
        <div className="sticky left-0 z-30 shrink-0 bg-white p-2 font-medium dark:bg-slate-900" style={{ width: LABEL_W }}>
          Vehicle
        </div>
        {p.days.map((d, i) => {
          const h = headings[i]!;
          return (
            <div
              key={d}
              className={`shrink-0 border-l border-slate-200 py-1 text-center dark:border-slate-800 ${d === p.today ? 'bg-teal-50 font-semibold text-teal-900 dark:bg-teal-950 dark:text-teal-100' : ''}`}
              style={{ width: p.colW }}
              title={h.long}
            >
              <div className="text-xs">{h.weekday}</div>
              <div>{h.day}</div>
            </div>
          );
        })}
      </div>
      {groups.map((g, gi) => (
        <section key={g.name} aria-labelledby={`planner-group-${gi}`}>
          <h2 id={`planner-group-${gi}`} className="sticky left-0 bg-slate-100 px-2 py-1 text-xs font-semibold uppercase tracking-wide text-slate-700 dark:bg-slate-800 dark:text-slate-200" style={{ width: LABEL_W + width }}>
            {g.name} <span className="font-normal">({g.vehicles.length})</span>
          </h2>
          <ul>
            {g.vehicles.map((v) => (
              <VehicleRow key={v.id} {...p} focusDay={focusDay} base={base} headings={headings} vehicle={v} rowBookings={p.bookings.get(v.id) ?? EMPTY} width={width} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
});

const EMPTY: PlannerBooking[] = [];
/** Buffers: hatched in the current text colour, lighter than any bar. */
export const BUFFER_STYLE = { backgroundImage: 'repeating-linear-gradient(135deg, currentColor 0 2px, transparent 2px 5px)' } as const;

type RowProps = TimelineProps & { vehicle: PlannerVehicle; rowBookings: PlannerBooking[]; width: number; headings: ReturnType<typeof dayHeading>[]; base: string; focusDay: string | undefined };

const VehicleRow = memo(function VehicleRow({ vehicle: v, rowBookings, width, headings, base, focusDay, days, starts, today, colW, timezone, bookingHref, newHref }: RowProps) {
  const { bars, lanes } = useMemo(() => layoutRow(rowBookings, starts), [rowBookings, starts]);
  const height = lanes * LANE_H + PAD * 2;
  const detail = [v.category, v.vendor_name, v.status !== 'active' ? (v.status === 'maintenance' ? 'Maintenance' : 'Inactive') : null].filter(Boolean).join(' · ');
  return (
    <li className="flex border-b border-slate-200 dark:border-slate-800" data-testid="planner-row" data-vehicle-id={v.id}>
      <div className="sticky left-0 z-10 shrink-0 truncate bg-white px-2 py-1 dark:bg-slate-900" style={{ width: LABEL_W }}>
        <div className="truncate font-medium" title={v.name}>
          {v.name}
        </div>
        <div className="truncate text-xs text-slate-600 dark:text-slate-400">{detail}</div>
      </div>
      <div className="relative shrink-0" style={{ width, height }}>
        {days.map((d, i) => (
          <a
            key={d}
            href={base + newHref(v, d)}
            data-to={newHref(v, d)}
            tabIndex={d === focusDay ? 0 : -1}
            className={`absolute top-0 h-full border-l border-slate-200 hover:bg-teal-50 focus-visible:z-10 dark:border-slate-800 dark:hover:bg-teal-950 ${d === today ? 'bg-teal-50/60 dark:bg-teal-950/40' : ''}`}
            style={{ left: i * colW, width: colW }}
            aria-label={`New booking: ${v.name}, ${headings[i]!.long}`}
            data-testid="planner-cell"
            data-day={d}
          />
        ))}
        {bars.map((b) => (
          <BarView key={b.booking.id} bar={b} vehicle={v} colW={colW} timezone={timezone} href={bookingHref(b.booking)} base={base} />
        ))}
      </div>
    </li>
  );
});

function BarView({ bar, vehicle, colW, timezone, href, base }: { bar: Bar<PlannerBooking>; vehicle: PlannerVehicle; colW: number; timezone: string; href: string; base: string }) {
  const b = bar.booking;
  const look = lookOf(b);
  const top = PAD + bar.lane * LANE_H;
  const from = Date.parse(b.pickup_at);
  const to = Date.parse(b.return_at);
  const hold = b.hold_expires_at && look === 'hold' ? `, hold until ${dateTimeIn(Date.parse(b.hold_expires_at), timezone)}` : b.hold_expires_at && look === 'lapsed' ? ', hold lapsed' : '';
  const name = `Booking ${b.reference} ${vehicle.name} ${periodLabel(from, to, timezone)}, ${statusWords(b.status)}${hold}`;
  const left = bar.start * colW;
  const w = Math.max(6, (bar.end - bar.start) * colW);
  return (
    <>
      {b.holds_slot && b.buffer_minutes > 0 && (
        <div
          aria-hidden="true"
          data-testid="planner-buffer"
          data-booking-id={b.id}
          className="absolute rounded-sm text-slate-400 dark:text-slate-500"
          style={{ ...BUFFER_STYLE, left: bar.bufferStart * colW, width: Math.max(w, (bar.bufferEnd - bar.bufferStart) * colW), top: top + 2, height: LANE_H - 4 }}
        />
      )}
      <a
        href={base + href}
        data-to={href}
        aria-label={name}
        title={`${name}\n${b.customer_name}\n${dateTimeIn(from, timezone)} → ${dateTimeIn(to, timezone)}${b.holds_slot && b.buffer_minutes ? `\nBuffer ${b.buffer_minutes} min before and after` : ''}`}
        data-testid="planner-bar"
        data-booking-id={b.id}
        data-status={b.status}
        className={`absolute z-[5] flex items-center overflow-hidden whitespace-nowrap border px-1 text-xs leading-none ${LOOK_CLASS[look]} ${bar.clippedStart ? 'rounded-l-none border-l-0' : 'rounded-l'} ${bar.clippedEnd ? 'rounded-r-none border-r-0' : 'rounded-r'}`}
        style={{ left, width: w, top: top + 3, height: LANE_H - 6 }}
      >
        <span className="truncate">{b.reference}</span>
      </a>
      {look === 'hold' && b.hold_expires_at && (
        // the deadline, visible on the bar (its words are in the link's name too)
        <span
          aria-hidden="true"
          data-testid="planner-hold-until"
          data-booking-id={b.id}
          className="pointer-events-none absolute z-[6] whitespace-nowrap rounded bg-white/90 px-1 text-[10px] leading-4 text-amber-950 dark:bg-slate-900/90 dark:text-amber-100"
          style={{ left: left + w - 2, top: top + 7, transform: 'translateX(-100%)' }}
        >
          until {shortDateTime(Date.parse(b.hold_expires_at), timezone, Date.now())}
        </span>
      )}
    </>
  );
}
