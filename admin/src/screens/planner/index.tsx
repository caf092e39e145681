import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { Link, useHref, useNavigate, useSearchParams } from 'react-router';
import { useStore } from '../../api/session';
import { Empty, ErrorState, Loading, PageHeader } from '../../components/State';
import { usePlanner, type PlannerBooking, type PlannerVehicle } from './api';
import {
  addDays,
  dateIn,
  dayCount,
  dayStarts,
  daysBetween,
  shiftAnchor,
  todayIn,
  windowOf,
  windowTitle,
  type View,
} from './dates';
import { byVehicle } from './layout';
import { BarMenu } from './BarMenu';
import { MoveDialog, type MoveTarget } from './MoveDialog';
import { BUFFER_STYLE, LABEL_W, plannerHere, Timeline, type BarMove, type BarPreview } from './Timeline';
import { LEGEND, LOOK_CLASS } from './status';

const FILTERS = ['location', 'category', 'vendor'] as const;
const YMD = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `/planner?view=week|month&date=YYYY-MM-DD&location=&category=&vendor=&closed=1&sx=&sy=`: vehicles × days of the
 * store calendar. One request per window (GET /admin/planner); a bar links to the booking, an empty day cell to a new
 * booking for that vehicle and day, both with the way back to this view (window, filters and scroll: `sx`/`sy`, kept
 * in the address when a scroll stops). A bar is dragged to other days or another vehicle, its end dragged to change
 * the return, or moved from its menu ("Move…"): the server prices the change before it is saved (MoveDialog).
 */
const MOVABLE = ['draft', 'pending_payment', 'pending', 'confirmed', 'in_progress'];
const DAY_MS = 86_400_000;

export default function Planner() {
  const store = useStore();
  const [params, setParams] = useSearchParams();
  const today = todayIn(store.timezone, new Date());
  const view: View = params.get('view') === 'month' ? 'month' : 'week';
  const date = params.get('date');
  const anchor = date && YMD.test(date) ? date : today;
  const { from, to } = windowOf(view, anchor);
  // the box answers at once (its own state); the URL follows so a reload or a shared link shows the same view
  const [showClosed, setShowClosed] = useState(params.get('closed') === '1');
  const [dueOnly, setDueOnly] = useState(params.get('due') === '1');
  const f = Object.fromEntries(FILTERS.map((k) => [k, params.get(k) ?? ''])) as Record<
    (typeof FILTERS)[number],
    string
  >;
  const q = usePlanner({
    from,
    to,
    ...(f.location ? { location: Number(f.location) } : {}),
    ...(f.category ? { category: f.category } : {}),
    ...(f.vendor ? { vendor: Number(f.vendor) } : {}),
    ...(showClosed ? { closed: true } : {}),
    ...(dueOnly ? { payment_due: true } : {}),
    // the most the API gives at once: rows beyond the visible part are not drawn, so 500 vehicles stay smooth
    limit: 500,
  });
  // From the address bar, not the rendered params: two quick changes (clear one filter, set another) must both stay.
  const set = (changes: Record<string, string | null>) => {
    const n = new URLSearchParams(window.location.search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') n.delete(k);
      else n.set(k, v);
    }
    setParams(n);
  };
  const data = q.data;
  const scrollRef = useRef<HTMLDivElement>(null);
  // The grid draws the answer's own window: while the next window loads, the previous one stays as it was (no
  // re-layout of thousands of bars against days they were not fetched for).
  const days = useMemo(() => (data ? daysBetween(data.from, data.to) : []), [data?.from, data?.to]);
  const starts = useMemo(() => dayStarts(days, store.timezone), [days, store.timezone]);
  const bookings = useMemo(() => byVehicle(data?.bookings ?? []), [data]);
  const blocks = useMemo(() => byVehicle(data?.blocks ?? []), [data]);
  // "back" from a booking: the view this answer was asked for (the address at the time it arrived; a click on the
  // grid puts the address of that moment, scroll included)
  const here = useMemo(() => `/planner${window.location.search}`, [data]);
  const newHref = useCallback(
    (v: PlannerVehicle, day: string) =>
      `/bookings/new?${new URLSearchParams({ vehicle_id: String(v.id), pickup_date: day, return_date: addDays(day, 1), back: here }).toString()}`,
    [here],
  );
  const bookingHref = useCallback(
    (b: PlannerBooking) => `/bookings/${b.id}?${new URLSearchParams({ back: here }).toString()}`,
    [here],
  );
  useScrollInAddress(scrollRef, !!data && data.vehicles.length > 0, params, setParams);
  const navigate = useNavigate();
  const base = useHref('/').replace(/\/$/, '');
  const tz = data?.timezone ?? store.timezone;
  // a move being decided: the dialog, and the ghost bar where the server accepts it to go
  const [moving, setMoving] = useState<{ booking: PlannerBooking; initial: MoveTarget } | null>(null);
  const [target, setTarget] = useState<MoveTarget | null>(null);
  const startMove = useCallback(
    (m: BarMove) => {
      const b = m.booking;
      setMoving({
        booking: b,
        initial: {
          vehicle_id: m.vehicleId,
          pickup_date: addDays(dateIn(Date.parse(b.pickup_at), tz), m.pickupShift),
          return_date: addDays(dateIn(Date.parse(b.return_at), tz), m.returnShift),
        },
      });
    },
    [tz],
  );
  const preview = useMemo((): BarPreview | null => {
    if (!moving || !target) return null;
    const b = moving.booking;
    // the times stay: the instants move by whole days (a DST change between draws the ghost an hour off at most)
    const shift = (iso: string, day: string) =>
      Date.parse(iso) + (dayCount(dateIn(Date.parse(iso), tz), day) - 1) * DAY_MS;
    return {
      id: b.id,
      vehicle_id: target.vehicle_id,
      from: shift(b.pickup_at, target.pickup_date),
      to: shift(b.return_at, target.return_date),
    };
  }, [moving, target, tz]);
  const [menu, setMenu] = useState<{
    booking: PlannerBooking;
    at: { x: number; y: number };
    from: Element | null;
  } | null>(null);
  const openMenu = useCallback(
    (booking: PlannerBooking, at: { x: number; y: number }) => setMenu({ booking, at, from: document.activeElement }),
    [],
  );
  const colW = days.length <= 7 ? 112 : 44;
  // wider than its region (a month at 1280 px, a week on a phone): it scrolls sideways, and the page says so
  const scrolls = useScrollsSideways(scrollRef, LABEL_W + days.length * colW, !!data && data.vehicles.length > 0);
  const unit = view === 'week' ? 'week' : 'month';
  const title = windowTitle(view, from, to);
  const shown = data?.bookings.length ?? 0;
  return (
    <div>
      <PageHeader
        title="Planner"
        actions={
          <Link to="/bookings/new" className="btn btn-primary">
            New booking
          </Link>
        }
      />
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <div role="group" aria-label="View" className="inline-flex">
          {(['week', 'month'] as const).map((v) => (
            <button
              key={v}
              type="button"
              className={`btn ${view === v ? 'btn-primary' : ''}`}
              aria-pressed={view === v}
              onClick={() => set({ view: v === 'week' ? null : v })}
            >
              {v === 'week' ? 'Week' : 'Month'}
            </button>
          ))}
        </div>
        <button type="button" className="btn" onClick={() => set({ date: shiftAnchor(view, anchor, -1) })}>
          <span aria-hidden="true">←</span> Previous {unit}
        </button>
        <button type="button" className="btn" onClick={() => set({ date: null })}>
          Today
        </button>
        <button type="button" className="btn" onClick={() => set({ date: shiftAnchor(view, anchor, 1) })}>
          Next {unit} <span aria-hidden="true">→</span>
        </button>
        <h2 className="ml-1 text-lg font-semibold" aria-live="polite" data-testid="planner-title">
          {title}
        </h2>
      </div>
      <div
        className="mb-3 grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-4"
        role="search"
        aria-label="Filter the planner"
      >
        <label className="flex flex-col text-sm">
          <span className="mb-1 font-medium">Location</span>
          <select className="input" value={f.location} onChange={(e) => set({ location: e.target.value })}>
            <option value="">All locations</option>
            {data?.filters.locations.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm">
          <span className="mb-1 font-medium">Category</span>
          <select className="input" value={f.category} onChange={(e) => set({ category: e.target.value })}>
            <option value="">All categories</option>
            {data?.filters.categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm">
          <span className="mb-1 font-medium">Vendor</span>
          <select className="input" value={f.vendor} onChange={(e) => set({ vendor: e.target.value })}>
            <option value="">All vendors and own fleet</option>
            {data?.filters.vendors.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 self-end pb-2 text-sm">
          <input
            type="checkbox"
            checked={showClosed}
            onChange={(e) => {
              setShowClosed(e.target.checked);
              set({ closed: e.target.checked ? '1' : null });
            }}
          />
          Show cancelled, refunded and no-show
        </label>
        <label className="flex items-center gap-2 self-end pb-2 text-sm">
          <input
            type="checkbox"
            checked={dueOnly}
            onChange={(e) => {
              setDueOnly(e.target.checked);
              set({ due: e.target.checked ? '1' : null });
            }}
          />
          Payment due only
        </label>
      </div>
      <Legend bufferMinutes={data?.buffer_minutes ?? 0} />
      {q.error ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : !data ? (
        <Loading label="Loading the planner…" />
      ) : data.vehicles.length === 0 ? (
        <Empty>No vehicles match these filters.</Empty>
      ) : (
        <>
          <p
            className="mb-2 text-sm text-slate-700 dark:text-slate-300"
            data-testid="planner-summary"
            aria-live="polite"
          >
            {data.vehicles_total} vehicle{data.vehicles_total === 1 ? '' : 's'} · {shown} booking
            {shown === 1 ? '' : 's'} in {title} · days in {data.timezone}
            {q.isFetching && <span className="ml-2">Updating…</span>}
          </p>
          {data.vehicles_more > 0 && (
            <p
              role="status"
              className="mb-2 rounded bg-amber-50 p-2 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-50"
            >
              Showing the first {data.vehicles.length} vehicles: {data.vehicles_more} more. Narrow the list with the
              filters.
            </p>
          )}
          {scrolls && (
            <p
              id="planner-scroll-hint"
              className="mb-2 text-sm text-slate-700 dark:text-slate-300"
              data-testid="planner-scroll-hint"
            >
              <span aria-hidden="true">↔ </span>Scroll sideways for more days: the vehicle column stays in place.
            </p>
          )}
          <div
            ref={scrollRef}
            role="region"
            aria-label={`Planner ${title}`}
            aria-describedby={scrolls ? 'planner-scroll-hint' : undefined}
            tabIndex={0}
            className="max-h-[75vh] overflow-auto rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
          >
            <Timeline
              days={days}
              starts={starts}
              today={today}
              colW={colW}
              timezone={data.timezone}
              vehicles={data.vehicles}
              bookings={bookings}
              blocks={blocks}
              bookingHref={bookingHref}
              newHref={newHref}
              scrollRef={scrollRef}
              onMove={startMove}
              onMenu={openMenu}
              preview={preview}
            />
          </div>
        </>
      )}
      {menu && (
        <BarMenu
          label={`Booking ${menu.booking.reference}`}
          at={menu.at}
          items={[
            {
              label: 'Open booking',
              run: () =>
                void navigate(
                  `/bookings/${menu.booking.id}?${new URLSearchParams({ back: plannerHere(base, scrollRef.current) }).toString()}`,
                ),
            },
            {
              label: 'Move…',
              disabled: !MOVABLE.includes(menu.booking.status) || menu.booking.kind === 'transfer',
              run: () =>
                startMove({
                  booking: menu.booking,
                  vehicleId: menu.booking.vehicle_id,
                  pickupShift: 0,
                  returnShift: 0,
                }),
            },
          ]}
          onClose={(refocus) => {
            if (refocus && menu.from instanceof HTMLElement) menu.from.focus();
            setMenu(null);
          }}
        />
      )}
      {moving && data && (
        <MoveDialog
          key={`${moving.booking.id}-${moving.initial.vehicle_id}-${moving.initial.pickup_date}-${moving.initial.return_date}`}
          booking={moving.booking}
          vehicles={data.vehicles}
          initial={moving.initial}
          timezone={data.timezone}
          onPreview={setTarget}
          onClose={() => {
            setMoving(null);
            setTarget(null);
          }}
        />
      )}
    </div>
  );
}

/**
 * The scroll region's position in the address (`sx`, `sy`; replaced, not pushed, when a scroll stops), put back once
 * when the planner opens with them (back from a booking, a reload): the operator returns to the rows they left.
 */
function useScrollInAddress(
  ref: RefObject<HTMLDivElement | null>,
  shown: boolean,
  params: URLSearchParams,
  setParams: ReturnType<typeof useSearchParams>[1],
) {
  const restored = useRef(false);
  const initial = useRef({ x: Number(params.get('sx')) || 0, y: Number(params.get('sy')) || 0 });
  useEffect(() => {
    const el = ref.current;
    if (!shown || !el) return;
    if (!restored.current) {
      restored.current = true;
      el.scrollLeft = initial.current.x;
      el.scrollTop = initial.current.y;
    }
    let timer = 0;
    const onScroll = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        // a click on the grid may have left the planner since (the unmount clears this timer only afterwards)
        if (!window.location.pathname.endsWith('/planner')) return;
        const n = new URLSearchParams(window.location.search);
        const x = Math.round(el.scrollLeft);
        const y = Math.round(el.scrollTop);
        if (x) n.set('sx', String(x));
        else n.delete('sx');
        if (y) n.set('sy', String(y));
        else n.delete('sy');
        if (n.toString() !== window.location.search.replace(/^\?/, '')) setParams(n, { replace: true });
      }, 250);
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.clearTimeout(timer);
      el.removeEventListener('scroll', onScroll);
    };
  }, [ref, shown, setParams]);
}

/** Whether the grid (`width` px) is wider than its scroll region, kept current as the region resizes. */
function useScrollsSideways(ref: RefObject<HTMLDivElement | null>, width: number, shown: boolean): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!shown || !el) {
      setScrolls(false);
      return;
    }
    const check = () => setScrolls(el.scrollWidth > el.clientWidth + 1);
    check();
    const ro = new ResizeObserver(check);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, width, shown]);
  return scrolls;
}

function Legend({ bufferMinutes }: { bufferMinutes: number }) {
  return (
    <ul aria-label="Legend" className="mb-3 flex flex-wrap gap-x-4 gap-y-1 text-xs">
      {LEGEND.map((l) => (
        <li key={l.look} className="flex items-center gap-1">
          <span aria-hidden="true" className={`inline-block h-3 w-6 rounded-sm border ${LOOK_CLASS[l.look]}`} />
          {l.label}
        </li>
      ))}
      <li className="flex items-center gap-1">
        <span
          aria-hidden="true"
          className="inline-block h-3 w-6 rounded-sm text-slate-400 dark:text-slate-500"
          style={BUFFER_STYLE}
        />
        Buffer: {bufferMinutes} min kept before and after a booking that holds the vehicle
      </li>
      <li>An empty day opens a new booking for that vehicle.</li>
      <li>Drag a bar to other days or another vehicle, or its end to change the return (Shift+F10 on a bar: Move…).</li>
    </ul>
  );
}
