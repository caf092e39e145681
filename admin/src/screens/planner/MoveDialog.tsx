import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useId, useState } from 'react';
import { useToast } from '../../components/Toast';
import { formatMoney } from '../../lib/format';
import { useMoveBooking, useMoveQuote, type MoveBody } from '../bookings/api';
import type { PlannerBooking, PlannerVehicle } from './api';
import { dateIn, dateTimeIn } from './dates';

/** Where a booking is asked to go: its vehicle and its store-local pick-up and return days (times kept). */
export interface MoveTarget {
  vehicle_id: number;
  pickup_date: string;
  return_date: string;
}

const YMD = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Moving a booking to other days or another vehicle (a drag on the planner, or "Move…" in its bar's menu): the
 * server quotes the change by its own rules before anything is saved (POST /bookings/{id}/quote) — old price, new
 * price, the difference and what it means for money already paid — and Save makes that same change (PUT). A change
 * the server refuses shows its message and saves nothing.
 */
export function MoveDialog({
  booking: b,
  vehicles,
  initial,
  timezone,
  onPreview,
  onClose,
}: {
  booking: PlannerBooking;
  vehicles: readonly PlannerVehicle[];
  initial: MoveTarget;
  timezone: string;
  /** The target while the server accepts it (drawn as a ghost bar), null while it refuses or is unchecked. */
  onPreview(t: MoveTarget | null): void;
  onClose(): void;
}) {
  const toast = useToast();
  const ids = useId();
  const [t, setT] = useState(initial);
  const [saveError, setSaveError] = useState<string | null>(null);
  const save = useMoveBooking(b.id);
  const from = { date: dateIn(Date.parse(b.pickup_at), timezone), ret: dateIn(Date.parse(b.return_at), timezone) };
  const unchanged = t.vehicle_id === b.vehicle_id && t.pickup_date === from.date && t.return_date === from.ret;
  const ready = YMD.test(t.pickup_date) && YMD.test(t.return_date) && !unchanged;
  const body: MoveBody | null = ready
    ? {
        pickup_date: t.pickup_date,
        return_date: t.return_date,
        ...(t.vehicle_id !== b.vehicle_id ? { vehicle_id: t.vehicle_id } : {}),
      }
    : null;
  const q = useMoveQuote(b.id, body);
  const ok = ready && !!q.data && !q.error && !q.isFetching;
  useEffect(() => onPreview(ok ? t : null), [ok, t.vehicle_id, t.pickup_date, t.return_date]);
  const vehicleName = (id: number) => vehicles.find((v) => v.id === id)?.name ?? `Vehicle #${id}`;
  const onSave = async () => {
    if (!body) return;
    setSaveError(null);
    try {
      const saved = await save.mutateAsync(body);
      toast(`Booking ${saved.reference} moved`);
      onClose();
    } catch (e) {
      setSaveError(e instanceof Error ? e.message : String(e));
    }
  };
  const d = q.data;
  const money = (n: number) => formatMoney(n, d?.booking.currency ?? 'USD');
  const signed = (n: number) => (n > 0 ? `+${money(n)}` : n < 0 ? `−${money(-n)}` : money(0));
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          className="fixed left-1/2 top-1/2 z-50 max-h-[92vh] w-[min(32rem,94vw)] -translate-x-1/2 -translate-y-1/2 overflow-auto rounded-lg bg-white p-5 shadow-xl dark:bg-slate-900"
          data-testid="move-dialog"
        >
          <Dialog.Title className="text-lg font-semibold">Move booking {b.reference}</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-700 dark:text-slate-300">
            Now: {vehicleName(b.vehicle_id)}, {dateTimeIn(Date.parse(b.pickup_at), timezone)} →{' '}
            {dateTimeIn(Date.parse(b.return_at), timezone)}. The times stay; the server prices the change before
            anything is saved.
          </Dialog.Description>
          <div className="mt-3 grid gap-x-3 sm:grid-cols-3">
            <label className="mb-2 flex flex-col text-sm sm:col-span-3">
              <span className="mb-1 font-medium">Vehicle</span>
              <select
                className="input"
                value={t.vehicle_id}
                onChange={(e) => setT({ ...t, vehicle_id: Number(e.target.value) })}
              >
                {vehicles.map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="mb-2 flex flex-col text-sm">
              <span className="mb-1 font-medium">Pick-up date</span>
              <input
                type="date"
                className="input"
                value={t.pickup_date}
                onChange={(e) => setT({ ...t, pickup_date: e.target.value })}
              />
            </label>
            <label className="mb-2 flex flex-col text-sm">
              <span className="mb-1 font-medium">Return date</span>
              <input
                type="date"
                className="input"
                value={t.return_date}
                onChange={(e) => setT({ ...t, return_date: e.target.value })}
              />
            </label>
          </div>
          <section
            aria-labelledby={`${ids}-price`}
            aria-live="polite"
            className="mt-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm dark:border-slate-700 dark:bg-slate-800"
            data-testid="move-quote"
          >
            <h3 id={`${ids}-price`} className="mb-1 font-semibold">
              Price
            </h3>
            {unchanged ? (
              <p>Choose other days or another vehicle.</p>
            ) : !ready ? (
              <p>Choose both dates.</p>
            ) : q.error ? (
              <p role="alert" className="text-red-700 dark:text-red-400" data-testid="move-refused">
                {q.error instanceof Error ? q.error.message : String(q.error)}
              </p>
            ) : !d || q.isFetching ? (
              <p>Pricing…</p>
            ) : (
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                <dt>Old price</dt>
                <dd data-testid="move-old">{money(d.previous_total)}</dd>
                <dt>New price</dt>
                <dd data-testid="move-new">
                  {money(d.total)} ({d.booking.days} day{d.booking.days === 1 ? '' : 's'})
                </dd>
                <dt>Difference</dt>
                <dd data-testid="move-diff">{signed(d.difference)}</dd>
                {d.refund > 0 && (
                  <>
                    <dt>Refund owed</dt>
                    <dd data-testid="move-refund">{money(d.refund)} back to the customer when saved</dd>
                  </>
                )}
                {d.due > 0 && (
                  <>
                    <dt>Amount due</dt>
                    <dd data-testid="move-due">{money(d.due)} asked of the customer when saved</dd>
                  </>
                )}
              </dl>
            )}
          </section>
          {saveError && (
            <p role="alert" className="mt-3 text-red-700 dark:text-red-400">
              {saveError}
            </p>
          )}
          <div className="mt-5 flex justify-end gap-2">
            <Dialog.Close asChild>
              <button type="button" className="btn">
                Cancel
              </button>
            </Dialog.Close>
            <button
              type="button"
              className="btn btn-primary"
              disabled={!ok || save.isPending}
              onClick={() => void onSave()}
            >
              {save.isPending ? 'Saving…' : 'Save move'}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
