import {
  memo,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type RefObject,
} from 'react';
import { useHref, useNavigate } from 'react-router';
import type { PlannerBlock, PlannerBooking, PlannerVehicle } from './api';
import { BlockBars } from './BlockBars';
import { columnOf, dateTimeIn, dayHeading, periodLabel, shortDateTime } from './dates';
import { layoutRow, type Bar, type RowLayout } from './layout';
import { visibleSlice } from './virtual';
import { LOOK_CLASS, lookOf, statusWords } from './status';

export const LABEL_W = 176;
const LANE_H = 30;
const PAD = 6;
const GROUP_H = 24;
/** Row height: its lanes of bars, at least the two lines of the vehicle's label. */
const rowHeight = (lanes: number) => Math.max(46, lanes * LANE_H + PAD * 2);
/** Above this many rows only those near the visible part of the scroll region are drawn. */
export const VIRTUAL_FROM = 60;
const OVERSCAN_PX = 600;
const HEADER_H = 46;

export interface TimelineProps {
  days: string[];
  starts: number[];
  today: string;
  colW: number;
  timezone: string;
  vehicles: PlannerVehicle[];
  bookings: Map<number, PlannerBooking[]>;
  /** Vendors' blocks and the operator's blocked dates, by vehicle: drawn apart from the bookings. */
  blocks?: Map<number, PlannerBlock[]>;
  /** Link to a booking's detail, and to a new booking from an empty day cell. */
  bookingHref: (b: PlannerBooking) => string;
  newHref: (v: PlannerVehicle, day: string) => string;
  /** The scroll region around the grid (rows are drawn for its visible part when there are many). */
  scrollRef: RefObject<HTMLDivElement | null>;
  /** A bar dropped on other days or another vehicle's row (a drag), or its end dragged (a resize). */
  onMove?(m: BarMove): void;
  /** The bar's menu asked for (right click, Shift+F10 or the context-menu key on a focused bar). */
  onMenu?(b: PlannerBooking, at: { x: number; y: number }): void;
  /** Where a booking being moved would go (a dashed ghost bar), while the server accepts it. */
  preview?: BarPreview | null;
}

/** A drag's outcome, in whole days of the store calendar: the pick-up and return days shifted, maybe another row. */
export interface BarMove {
  booking: PlannerBooking;
  vehicleId: number;
  pickupShift: number;
  returnShift: number;
}

export interface BarPreview {
  id: number;
  vehicle_id: number;
  from: number;
  to: number;
}

type Item =
  | { kind: 'group'; key: string; name: string; count: number; height: number }
  | { kind: 'row'; key: string; vehicle: PlannerVehicle; layout: RowLayout<PlannerBooking>; height: number };

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
      if (i >= 0 && i < p.days.length)
        next = row?.querySelector<HTMLElement>(`[data-testid="planner-cell"][data-day="${p.days[i]}"]`);
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
    // the way back is the planner as it is now, scrolled as it is (a scroll stopped less than a moment ago is not in
    // the address yet)
    const to = new URL(a.dataset.to!, 'http://admin.invalid');
    if (to.searchParams.has('back')) to.searchParams.set('back', plannerHere(base, p.scrollRef.current));
    void navigate(to.pathname + to.search);
  };
  const headings = useMemo(() => p.days.map((d) => dayHeading(d)), [p.days]);
  // Location headings and vehicle rows, each with its height (rows: their lanes of bars), in order.
  const { items, offsets } = useMemo(() => {
    const out: Item[] = [];
    let group: Extract<Item, { kind: 'group' }> | null = null;
    for (const v of p.vehicles) {
      const name = v.location_name ?? 'No location';
      if (!group || group.name !== name) {
        group = { kind: 'group', key: `g-${out.length}`, name, count: 0, height: GROUP_H };
        out.push(group);
      }
      group.count += 1;
      const layout = layoutRow(p.bookings.get(v.id) ?? EMPTY, p.starts);
      out.push({ kind: 'row', key: `v-${v.id}`, vehicle: v, layout, height: rowHeight(layout.lanes) });
    }
    const offs = [0];
    for (const it of out) offs.push(offs[offs.length - 1]! + it.height);
    return { items: out, offsets: offs };
  }, [p.vehicles, p.bookings, p.starts]);
  const virtual = items.length > VIRTUAL_FROM;
  const [view, setView] = useState({ top: 0, height: 1000 });
  useEffect(() => {
    const el = p.scrollRef.current;
    if (!virtual || !el) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      setView((v) =>
        v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight },
      );
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(read);
    };
    read();
    el.addEventListener('scroll', onScroll, { passive: true });
    const ro = new ResizeObserver(onScroll);
    ro.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      ro.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [virtual, p.scrollRef]);
  const [first, last] = virtual
    ? visibleSlice(offsets, view.top - HEADER_H - OVERSCAN_PX, view.top - HEADER_H + view.height + OVERSCAN_PX)
    : [0, items.length];
  return (
    // delegation only: the links themselves take Enter (a link's click event); arrows move between cells
    <div
      className="text-sm"
      style={{ width: LABEL_W + width }}
      data-testid="planner-grid"
      onClick={onClick}
      onKeyDown={onKeyDown}
    >
      <div
        className="sticky top-0 z-20 flex border-b border-slate-300 bg-white dark:border-slate-700 dark:bg-slate-900"
        aria-hidden="true"
      >
        <div
          className="sticky left-0 z-30 shrink-0 bg-white p-2 font-medium dark:bg-slate-900"
          style={{ width: LABEL_W }}
          data-testid="planner-vehicle-heading"
        >
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
              data-testid="planner-day"
              data-day={d}
            >
              <div className="text-xs">{h.weekday}</div>
              <div>{h.day}</div>
            </div>
          );
        })}
      </div>
      {first > 0 && <div aria-hidden="true" style={{ height: offsets[first] }} />}
      {items.slice(first, last).map((it) =>
        it.kind === 'group' ? (
          <h2
            key={it.key}
            className="sticky left-0 bg-slate-100 px-2 text-xs font-semibold uppercase leading-6 tracking-wide text-slate-700 dark:bg-slate-800 dark:text-slate-200"
            style={{ width: LABEL_W + width, height: it.height }}
          >
            {it.name} <span className="font-normal">({it.count})</span>
          </h2>
        ) : (
          <VehicleRow
            key={it.key}
            {...p}
            focusDay={focusDay}
            base={base}
            headings={headings}
            vehicle={it.vehicle}
            layout={it.layout}
            height={it.height}
            width={width}
          />
        ),
      )}
      {last < items.length && <div aria-hidden="true" style={{ height: offsets[items.length]! - offsets[last]! }} />}
    </div>
  );
});

/** The planner's address now (router path, without the basename), with the scroll region's position (`sx`, `sy`). */
export function plannerHere(base: string, region: HTMLElement | null): string {
  const q = new URLSearchParams(window.location.search);
  if (region) {
    for (const [k, v] of [
      ['sx', Math.round(region.scrollLeft)],
      ['sy', Math.round(region.scrollTop)],
    ] as const) {
      if (v) q.set(k, String(v));
      else q.delete(k);
    }
  }
  const s = q.toString();
  return window.location.pathname.slice(base.length) + (s ? `?${s}` : '');
}

const EMPTY: PlannerBooking[] = [];
/** Bookings the planner may move (the server keeps the dates of ended ones: 409). */
const MOVABLE = new Set(['draft', 'pending_payment', 'pending', 'confirmed', 'in_progress']);
/** Buffers: hatched in the current text colour, lighter than any bar. */
export const BUFFER_STYLE = {
  backgroundImage: 'repeating-linear-gradient(135deg, currentColor 0 2px, transparent 2px 5px)',
} as const;

type RowProps = TimelineProps & {
  vehicle: PlannerVehicle;
  layout: RowLayout<PlannerBooking>;
  height: number;
  width: number;
  headings: ReturnType<typeof dayHeading>[];
  base: string;
  focusDay: string | undefined;
};

const VehicleRow = memo(function VehicleRow({
  vehicle: v,
  layout: { bars },
  height,
  width,
  headings,
  base,
  focusDay,
  days,
  today,
  colW,
  timezone,
  bookingHref,
  newHref,
  starts,
  blocks,
  onMove,
  onMenu,
  preview,
}: RowProps) {
  const detail = [
    v.category,
    v.vendor_name,
    v.status !== 'active' ? (v.status === 'maintenance' ? 'Maintenance' : 'Inactive') : null,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <div
      className="flex border-b border-slate-200 dark:border-slate-800"
      style={{ height }}
      data-testid="planner-row"
      data-vehicle-id={v.id}
    >
      <div
        className="sticky left-0 z-10 shrink-0 truncate bg-white px-2 py-1 dark:bg-slate-900"
        style={{ width: LABEL_W }}
      >
        <div className="truncate font-medium" title={v.name}>
          {v.name}
        </div>
        <div className="truncate text-xs text-slate-600 dark:text-slate-400">{detail}</div>
      </div>
      <div className="relative h-full shrink-0" style={{ width }}>
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
        <BlockBars blocks={blocks?.get(v.id) ?? []} starts={starts} colW={colW} />
        {bars.map((b) => (
          <BarView
            key={b.booking.id}
            bar={b}
            vehicle={v}
            colW={colW}
            timezone={timezone}
            href={bookingHref(b.booking)}
            base={base}
            onMove={onMove}
            onMenu={onMenu}
            moving={preview?.id === b.booking.id}
          />
        ))}
        {preview && preview.vehicle_id === v.id && (
          <div
            aria-hidden="true"
            data-testid="planner-ghost"
            className="pointer-events-none absolute z-[7] rounded border-2 border-dashed border-teal-700 bg-teal-100/60 dark:border-teal-300 dark:bg-teal-900/60"
            style={{
              left: columnOf(preview.from, starts) * colW,
              width: Math.max(6, (columnOf(preview.to, starts) - columnOf(preview.from, starts)) * colW),
              top: PAD + 1,
              height: LANE_H - 2,
            }}
          />
        )}
      </div>
    </div>
  );
});

/** How far a pointer moves before a press on a bar becomes a drag (a shorter one is a click: open the booking). */
const DRAG_PX = 5;

interface Drag {
  mode: 'move' | 'resize';
  pointer: number;
  x: number;
  y: number;
  dx: number;
  dy: number;
  started: boolean;
  vehicleId: number;
}

/** The vehicle row under a point, ignoring the dragged bar itself. */
function rowUnder(x: number, y: number, self: Element): number | null {
  for (const el of document.elementsFromPoint(x, y)) {
    if (self.contains(el)) continue;
    const row = el.closest<HTMLElement>('[data-testid="planner-row"]');
    if (row) return Number(row.dataset.vehicleId);
  }
  return null;
}

function BarView({
  bar,
  vehicle,
  colW,
  timezone,
  href,
  base,
  onMove,
  onMenu,
  moving,
}: {
  bar: Bar<PlannerBooking>;
  vehicle: PlannerVehicle;
  colW: number;
  timezone: string;
  href: string;
  base: string;
  onMove: TimelineProps['onMove'];
  onMenu: TimelineProps['onMenu'];
  moving: boolean;
}) {
  const b = bar.booking;
  // a drag is drawn by this bar alone (its own state): the grid does not re-render while the pointer moves
  const [drag, setDrag] = useState<Drag | null>(null);
  const dragged = useRef(false);
  const movable = !!onMove && MOVABLE.has(b.status) && b.kind !== 'transfer';
  const onPointerDown = (e: PointerEvent<HTMLAnchorElement>) => {
    if (!movable || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const mode = (e.target as HTMLElement).dataset.handle === 'end' ? 'resize' : 'move';
    dragged.current = false;
    // captured at once: a quick first move that leaves the bar still belongs to this drag
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({
      mode,
      pointer: e.pointerId,
      x: e.clientX,
      y: e.clientY,
      dx: 0,
      dy: 0,
      started: false,
      vehicleId: vehicle.id,
    });
  };
  const onPointerMove = (e: PointerEvent<HTMLAnchorElement>) => {
    if (!drag || e.pointerId !== drag.pointer) return;
    const dx = e.clientX - drag.x;
    const dy = drag.mode === 'move' ? e.clientY - drag.y : 0;
    if (!drag.started && Math.hypot(dx, dy) < DRAG_PX) return;
    const over = drag.mode === 'move' ? rowUnder(e.clientX, e.clientY, e.currentTarget) : null;
    setDrag({ ...drag, dx, dy, started: true, vehicleId: over ?? drag.vehicleId });
  };
  const onPointerUp = (e: PointerEvent<HTMLAnchorElement>) => {
    if (!drag || e.pointerId !== drag.pointer) return;
    setDrag(null);
    if (!drag.started) return;
    dragged.current = true; // the click that follows is the end of the drag, not "open the booking"
    const days = Math.round(drag.dx / colW);
    const m: BarMove = {
      booking: b,
      vehicleId: drag.vehicleId,
      pickupShift: drag.mode === 'move' ? days : 0,
      returnShift: days,
    };
    if (m.pickupShift || m.returnShift || m.vehicleId !== vehicle.id) onMove?.(m);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLAnchorElement>) => {
    if (!onMenu || !((e.shiftKey && e.key === 'F10') || e.key === 'ContextMenu')) return;
    e.preventDefault();
    e.stopPropagation();
    const r = e.currentTarget.getBoundingClientRect();
    onMenu(b, { x: r.left, y: r.bottom });
  };
  const look = lookOf(b);
  const top = PAD + bar.lane * LANE_H;
  const from = Date.parse(b.pickup_at);
  const to = Date.parse(b.return_at);
  const hold =
    b.hold_expires_at && look === 'hold'
      ? `, hold until ${dateTimeIn(Date.parse(b.hold_expires_at), timezone)}`
      : b.hold_expires_at && look === 'lapsed'
        ? ', hold lapsed'
        : '';
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
          style={{
            ...BUFFER_STYLE,
            left: bar.bufferStart * colW,
            width: Math.max(w, (bar.bufferEnd - bar.bufferStart) * colW),
            top: top + 2,
            height: LANE_H - 4,
          }}
        />
      )}
      <a
        href={base + href}
        data-to={href}
        draggable={false}
        onDragStart={(e) => e.preventDefault()}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => setDrag(null)}
        onClickCapture={(e) => {
          if (!dragged.current) return;
          dragged.current = false;
          e.preventDefault();
          e.stopPropagation();
        }}
        onContextMenu={(e) => {
          if (!onMenu) return;
          e.preventDefault();
          onMenu(b, { x: e.clientX, y: e.clientY });
        }}
        onKeyDown={onKeyDown}
        aria-keyshortcuts={onMenu ? 'Shift+F10' : undefined}
        aria-label={name}
        data-testid="planner-bar"
        data-booking-id={b.id}
        data-status={b.status}
        data-payment-due={b.payment_due ? 'true' : undefined}
        className={`absolute flex items-center overflow-hidden whitespace-nowrap border px-1 text-xs leading-none ${LOOK_CLASS[look]} ${bar.clippedStart ? 'rounded-l-none border-l-0' : 'rounded-l'} ${bar.clippedEnd ? 'rounded-r-none border-r-0' : 'rounded-r'} ${movable ? 'cursor-grab' : ''} ${drag?.started ? 'z-[8] cursor-grabbing opacity-80 shadow-lg' : 'z-[5]'} ${moving ? 'opacity-50' : ''}`}
        style={{
          left,
          width: drag?.started && drag.mode === 'resize' ? Math.max(6, w + drag.dx) : w,
          top: top + 3,
          height: LANE_H - 6,
          transform: drag?.started && drag.mode === 'move' ? `translate(${drag.dx}px, ${drag.dy}px)` : undefined,
        }}
        title={`${name}\n${b.customer_name}\n${dateTimeIn(from, timezone)} → ${dateTimeIn(to, timezone)}${b.payment_due ? `\nPayment due (${b.payment_status.replace('_', ' ')})` : ''}${b.holds_slot && b.buffer_minutes ? `\nBuffer ${b.buffer_minutes} min before and after` : ''}${movable ? '\nDrag to move, drag its end to change the return; Shift+F10: Move…' : ''}`}
      >
        <span className="truncate">{b.reference}</span>
        {movable && !bar.clippedEnd && (
          // the end of the bar: dragging it changes the return day
          <span
            aria-hidden="true"
            data-handle="end"
            data-testid="planner-bar-end"
            className="absolute right-0 top-0 h-full w-2 cursor-ew-resize"
          />
        )}
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
