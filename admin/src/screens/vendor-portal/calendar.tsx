import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useStore } from '../../api/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { applyServerErrors, FormField } from '../../components/FormField';
import { ErrorState } from '../../components/State';
import { useToast } from '../../components/Toast';
import { todayIn } from '../../lib/dates';
import { useAddBlock, useRemoveBlock, useVehicleBlocks, useVehicleMonth } from './api';
import { dayLabel, monthDays, monthGrid, REASON_WORDS, shiftMonth, type DayState } from './calendar-days';
import { monthLabel } from './months';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const LOOK: Record<DayState, string> = {
  free: 'bg-white text-slate-800 dark:bg-slate-900 dark:text-slate-200',
  booked: 'bg-sky-700 text-white dark:bg-sky-400 dark:text-slate-950',
  blocked: 'bg-amber-300 text-amber-950 dark:bg-amber-400 dark:text-slate-950',
};
const STATE_WORDS: Record<DayState, string> = { free: 'Free', booked: 'Booked', blocked: 'Blocked' };

/** A small month of the vehicle: booked and blocked days (store-local), with a legend and month steps. */
function MonthView({ vehicleId, today }: { vehicleId: number; today: string }) {
  const [month, setMonth] = useState(today.slice(0, 7));
  const q = useVehicleMonth(vehicleId, month);
  const days = q.data ? monthDays(month, q.data) : null;
  return (
    <section aria-labelledby="calendar-month" className="mb-4">
      <div className="mb-2 flex items-center justify-between gap-2">
        <button
          type="button"
          className="btn"
          aria-label="Previous month"
          onClick={() => setMonth(shiftMonth(month, -1))}
        >
          ‹
        </button>
        <h3 id="calendar-month" className="font-semibold" aria-live="polite">
          {monthLabel(month, 'en-US')}
        </h3>
        <button type="button" className="btn" aria-label="Next month" onClick={() => setMonth(shiftMonth(month, 1))}>
          ›
        </button>
      </div>
      {q.error ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <table
          className="w-full table-fixed border-collapse text-center text-sm"
          data-testid="vehicle-calendar"
          data-month={month}
        >
          <caption className="sr-only">Booked and blocked days of {monthLabel(month, 'en-US')}</caption>
          <thead>
            <tr>
              {WEEKDAYS.map((d) => (
                <th key={d} scope="col" className="py-1 text-xs font-medium text-slate-600 dark:text-slate-400">
                  {d}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {monthGrid(month).map((week) => (
              <tr key={week.find(Boolean)}>
                {week.map((date, i) => {
                  if (!date) return <td key={i} />;
                  const day = days?.get(date);
                  const state = day?.state ?? 'free';
                  const words = `${dayLabel(date, 'en-US')}: ${STATE_WORDS[state]}${day?.what.length ? ` (${day.what.join(', ')})` : ''}`;
                  return (
                    <td key={date} className="p-0.5">
                      <span
                        data-date={date}
                        data-state={state}
                        title={words}
                        aria-label={words}
                        className={`block rounded border border-slate-200 py-1 dark:border-slate-700 ${LOOK[state]} ${date === today ? 'ring-2 ring-slate-900 dark:ring-white' : ''}`}
                      >
                        {Number(date.slice(8))}
                      </span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ul className="mt-2 flex flex-wrap gap-4 text-sm" aria-label="Legend">
        {(['booked', 'blocked', 'free'] as const).map((s) => (
          <li key={s} className="flex items-center gap-1">
            <span aria-hidden="true" className={`inline-block h-3 w-5 rounded-sm border border-slate-300 ${LOOK[s]}`} />
            {STATE_WORDS[s]}
          </li>
        ))}
      </ul>
    </section>
  );
}

interface Values {
  from: string;
  to: string;
  reason: 'maintenance' | 'own_use';
  note: string;
}

/** Block a range of days: the server refuses one that overlaps a booking and says which. */
function BlockForm({ vehicleId, today }: { vehicleId: number; today: string }) {
  const toast = useToast();
  const add = useAddBlock();
  const form = useForm<Values>({ defaultValues: { from: '', to: '', reason: 'maintenance', note: '' } });
  const [formError, setFormError] = useState<string | null>(null);
  const e = form.formState.errors;
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      await add.mutateAsync({
        id: vehicleId,
        body: { from: v.from, to: v.to, reason: v.reason, ...(v.note.trim() ? { note: v.note.trim() } : {}) },
      });
      toast('Dates blocked');
      form.reset();
    } catch (err) {
      setFormError(applyServerErrors(err, form.setError, ['from', 'to', 'reason', 'note']));
    }
  });
  return (
    <form onSubmit={(ev) => void onSubmit(ev)} noValidate aria-label="Block dates" className="mb-4">
      <h3 className="mb-2 font-semibold">Block dates</h3>
      <div className="grid grid-cols-2 gap-3">
        <FormField label="From" error={e.from?.message}>
          <input
            type="date"
            className="input w-full"
            min={today}
            {...form.register('from', { required: 'The first day is required' })}
          />
        </FormField>
        <FormField label="To (included)" error={e.to?.message}>
          <input
            type="date"
            className="input w-full"
            min={today}
            {...form.register('to', {
              required: 'The last day is required',
              validate: (to, all) => !all.from || to >= all.from || 'The last day is on or after the first',
            })}
          />
        </FormField>
      </div>
      <FormField label="Reason" error={e.reason?.message}>
        <select className="input w-full" {...form.register('reason')}>
          <option value="maintenance">{REASON_WORDS.maintenance}</option>
          <option value="own_use">{REASON_WORDS.own_use}</option>
        </select>
      </FormField>
      <FormField label="Note (optional)" error={e.note?.message}>
        <input className="input w-full" maxLength={500} {...form.register('note')} />
      </FormField>
      {formError && (
        <p role="alert" className="mb-3 text-red-700 dark:text-red-400">
          {formError}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? 'Blocking…' : 'Block dates'}
      </button>
    </form>
  );
}

/** The vehicle's blocks that have not ended, each removable. */
function Blocks({ vehicleId, today }: { vehicleId: number; today: string }) {
  const toast = useToast();
  const q = useVehicleBlocks(vehicleId);
  const remove = useRemoveBlock();
  const ahead = (q.data ?? []).filter((b) => b.to >= today);
  if (q.error) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  return (
    <section aria-labelledby="blocks-heading">
      <h3 id="blocks-heading" className="mb-2 font-semibold">
        Blocked periods
      </h3>
      {q.data && !ahead.length && <p className="text-sm text-slate-600 dark:text-slate-400">No blocked days ahead.</p>}
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {ahead.map((b) => {
          const span =
            b.from === b.to ? dayLabel(b.from, 'en-US') : `${dayLabel(b.from, 'en-US')} – ${dayLabel(b.to, 'en-US')}`;
          return (
            <li key={b.id} className="flex items-center justify-between gap-2 py-2" data-block={b.id}>
              <span>
                <span className="font-medium">{span}</span> · {REASON_WORDS[b.reason]}
                {b.note ? <span className="text-slate-600 dark:text-slate-400"> · {b.note}</span> : null}
              </span>
              <ConfirmDialog
                danger
                trigger={
                  <button type="button" className="btn btn-danger" aria-label={`Remove block ${span}`}>
                    Remove
                  </button>
                }
                title="Remove this block?"
                description={`${span} can be booked again.`}
                confirmLabel="Remove"
                onConfirm={async () => {
                  await remove.mutateAsync({ id: vehicleId, block: b.id });
                  toast('Block removed');
                }}
              />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** A vehicle's availability as its vendor manages it: the month, blocking days, the blocks ahead. */
export function VehicleCalendar({ vehicleId }: { vehicleId: number }) {
  const store = useStore();
  const today = todayIn(store.timezone, new Date());
  return (
    <div>
      <MonthView vehicleId={vehicleId} today={today} />
      <BlockForm vehicleId={vehicleId} today={today} />
      <Blocks vehicleId={vehicleId} today={today} />
    </div>
  );
}
