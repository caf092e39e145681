import { useState } from 'react';
import { PhotoManager } from '../../components/PhotoManager';
import { Controller, useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { newIdempotencyKey } from '../../api/idempotency';
import { useStore } from '../../api/session';
import { Combobox } from '../../components/Combobox';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, useTableState, type Column } from '../../components/DataTable';
import { applyServerErrors, FormField } from '../../components/FormField';
import { locationSource } from '../../components/pickers';
import { SlideOver } from '../../components/SlideOver';
import { PageHeader } from '../../components/State';
import { TextDialog } from '../../components/TextDialog';
import { useToast } from '../../components/Toast';
import { formatDate, formatMoney } from '../../lib/format';
import { useCreateVehicle, useEditVehicle, useMoveVehicle, useVendorVehicles, type VehicleBody } from './api';
import { VehicleCalendar } from './calendar';
import { Consequence, LIFECYCLE_WORDS } from './parts';

type Vehicle = NonNullable<ReturnType<typeof useVendorVehicles>['data']>['items'][number];

interface Values {
  name: string;
  price_per_day: string;
  category: string;
  brand: string;
  model: string;
  year: string;
  seats: string;
  transmission: 'manual' | 'automatic';
  fuel_type: 'petrol' | 'diesel' | 'hybrid' | 'electric' | 'lpg';
  location_id: string;
  description: string;
}

const FIELDS = [
  'name',
  'price_per_day',
  'category',
  'brand',
  'model',
  'year',
  'seats',
  'transmission',
  'fuel_type',
  'location_id',
  'description',
] as const;
const CATEGORIES = ['economy', 'compact', 'midsize', 'fullsize', 'suv', 'van', 'luxury', 'convertible', 'electric'];

function toValues(v: Vehicle | undefined): Values {
  return {
    name: v?.name ?? '',
    price_per_day: v ? String(v.price_per_day) : '',
    category: v?.category ?? 'economy',
    brand: v?.brand ?? '',
    model: v?.model ?? '',
    year: v?.year ? String(v.year) : '',
    seats: v?.seats ? String(v.seats) : '',
    transmission: (v?.transmission as Values['transmission']) ?? 'manual',
    fuel_type: (v?.fuel_type as Values['fuel_type']) ?? 'petrol',
    location_id: v?.location_id ? String(v.location_id) : '',
    description: v?.description ?? '',
  };
}

function toBody(v: Values): VehicleBody {
  const int = (s: string) => (s.trim() === '' ? null : Number(s));
  return {
    name: v.name.trim(),
    price_per_day: Number(v.price_per_day),
    category: v.category,
    brand: v.brand.trim(),
    model: v.model.trim(),
    year: int(v.year),
    seats: int(v.seats),
    transmission: v.transmission,
    fuel_type: v.fuel_type,
    location_id: int(v.location_id),
    description: v.description,
  };
}

/** Create or edit (the documented vendor fields; status, owner, currency are the platform's). */
function VehicleForm({ vehicle, onDone }: { vehicle?: Vehicle; onDone(): void }) {
  const store = useStore();
  const toast = useToast();
  const create = useCreateVehicle();
  const edit = useEditVehicle();
  const form = useForm<Values>({ defaultValues: toValues(vehicle) });
  const [formError, setFormError] = useState<string | null>(null);
  const [key] = useState(newIdempotencyKey);
  const e = form.formState.errors;
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      if (vehicle) await edit.mutateAsync({ id: vehicle.id, body: toBody(v) });
      else await create.mutateAsync({ body: toBody(v), key });
      toast(vehicle ? 'Vehicle saved' : 'Vehicle submitted for review');
      onDone();
    } catch (err) {
      setFormError(applyServerErrors(err, form.setError, FIELDS));
    }
  });
  return (
    <form onSubmit={(ev) => void onSubmit(ev)} noValidate aria-label={vehicle ? `Edit ${vehicle.name}` : 'New vehicle'}>
      {!vehicle && <p className="mb-3 text-sm">A new vehicle is listed once the platform has reviewed it.</p>}
      <FormField label="Name" error={e.name?.message}>
        <input className="input w-full" {...form.register('name', { required: 'Name is required' })} />
      </FormField>
      <FormField label={`Price per day (${store.currency})`} error={e.price_per_day?.message}>
        <input
          className="input w-full"
          inputMode="decimal"
          {...form.register('price_per_day', {
            required: 'Price is required',
            validate: (x) => (Number.isFinite(Number(x)) && Number(x) >= 0) || 'A price of 0 or more',
          })}
        />
      </FormField>
      <FormField label="Category" error={e.category?.message}>
        <select className="input w-full" {...form.register('category')}>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </FormField>
      <div className="grid grid-cols-2 gap-3">
        <FormField label="Brand" error={e.brand?.message}>
          <input className="input w-full" {...form.register('brand')} />
        </FormField>
        <FormField label="Model" error={e.model?.message}>
          <input className="input w-full" {...form.register('model')} />
        </FormField>
        <FormField label="Year" error={e.year?.message}>
          <input className="input w-full" inputMode="numeric" {...form.register('year')} />
        </FormField>
        <FormField label="Seats" error={e.seats?.message}>
          <input className="input w-full" inputMode="numeric" {...form.register('seats')} />
        </FormField>
        <FormField label="Transmission" error={e.transmission?.message}>
          <select className="input w-full" {...form.register('transmission')}>
            <option value="manual">Manual</option>
            <option value="automatic">Automatic</option>
          </select>
        </FormField>
        <FormField label="Fuel" error={e.fuel_type?.message}>
          <select className="input w-full" {...form.register('fuel_type')}>
            {['petrol', 'diesel', 'hybrid', 'electric', 'lpg'].map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      <Controller
        control={form.control}
        name="location_id"
        render={({ field }) => (
          <div className="mb-3">
            <Combobox
              label="Pick-up location"
              source={locationSource}
              value={field.value ? Number(field.value) : null}
              onChange={(id) => field.onChange(id === null ? '' : String(id))}
              onBlur={field.onBlur}
              error={e.location_id?.message}
              hint="Where renters collect the vehicle (optional)"
            />
          </div>
        )}
      />
      <FormField label="Description" error={e.description?.message}>
        <textarea className="input w-full" rows={3} {...form.register('description')} />
      </FormField>
      {formError && (
        <p role="alert" className="mb-3 text-red-700 dark:text-red-400">
          {formError}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? 'Saving…' : vehicle ? 'Save vehicle' : 'Submit for review'}
      </button>
    </form>
  );
}

/** A withdrawn vehicle can be relisted 7 days after its withdrawal (the server says 409 before): the date, or null when it can. */
function relistFrom(v: Vehicle): string | null {
  if (!v.withdrawn_at) return null;
  const at = new Date(Date.parse(v.withdrawn_at) + 7 * 86_400_000);
  return at.getTime() > Date.now() ? at.toISOString() : null;
}

function Actions({ v }: { v: Vehicle }) {
  const store = useStore();
  const toast = useToast();
  const move = useMoveVehicle();
  const run = async (m: 'pause' | 'resume' | 'withdraw' | 'relist', done: string, reason?: string) => {
    await move.mutateAsync({ id: v.id, move: m, ...(reason ? { reason } : {}) });
    toast(done);
  };
  return (
    <div className="flex flex-wrap gap-2">
      {v.lifecycle === 'active' && (
        <ConfirmDialog
          trigger={
            <button type="button" className="btn" aria-label={`Pause ${v.name}`}>
              Pause
            </button>
          }
          title={`Pause ${v.name}?`}
          description={
            <Consequence query={{ action: 'pause' }} intro="The vehicle leaves the storefront until you resume it." />
          }
          confirmLabel="Pause"
          onConfirm={() => run('pause', 'Vehicle paused')}
        />
      )}
      {v.lifecycle === 'paused' && (
        <ConfirmDialog
          trigger={
            <button type="button" className="btn" aria-label={`Resume ${v.name}`}>
              Resume
            </button>
          }
          title={`Resume ${v.name}?`}
          description="The vehicle is listed again."
          confirmLabel="Resume"
          onConfirm={() => run('resume', 'Vehicle listed again')}
        />
      )}
      {(v.lifecycle === 'active' || v.lifecycle === 'paused' || v.lifecycle === 'pending_review') && (
        <TextDialog
          danger
          label="Reason (optional)"
          confirmLabel="Withdraw"
          trigger={
            <button type="button" className="btn btn-danger" aria-label={`Withdraw ${v.name}`}>
              Withdraw
            </button>
          }
          title={`Withdraw ${v.name}?`}
          description={
            <Consequence
              query={{ action: 'withdraw', vehicle_id: v.id }}
              intro="The vehicle leaves the marketplace; it can be relisted 7 days later."
            />
          }
          onConfirm={(reason) => run('withdraw', 'Vehicle withdrawn', reason.trim() || undefined)}
        />
      )}
      {v.lifecycle === 'rejected' && (
        <ConfirmDialog
          trigger={
            <button type="button" className="btn" aria-label={`Submit ${v.name} again`}>
              Submit again
            </button>
          }
          title={`Submit ${v.name} again?`}
          description="It goes back under review; change what the reason asks for first (Edit)."
          confirmLabel="Submit again"
          onConfirm={() => run('relist', 'Vehicle sent for review')}
        />
      )}
      {v.lifecycle === 'withdrawn' && relistFrom(v) !== null && (
        <span className="text-sm text-slate-600 dark:text-slate-400">
          Can be relisted from {formatDate(relistFrom(v), store.timezone)}
        </span>
      )}
      {v.lifecycle === 'withdrawn' && relistFrom(v) === null && (
        <ConfirmDialog
          trigger={
            <button type="button" className="btn" aria-label={`Relist ${v.name}`}>
              Relist
            </button>
          }
          title={`Relist ${v.name}?`}
          description="It goes back under review; the withdrawal keeps counting for its 12 months."
          confirmLabel="Relist"
          onConfirm={() => run('relist', 'Vehicle sent for review')}
        />
      )}
    </div>
  );
}

/**
 * /vendor/vehicles: own vehicles with their status in words; create, edit, pause/resume/withdraw/relist; each one's
 * calendar (booked and blocked days, blocking and unblocking days).
 */
export default function VendorVehicles() {
  const store = useStore();
  const [state, setState] = useTableState([]);
  const q = useVendorVehicles({ page: state.page, per_page: state.perPage });
  const [params, setParams] = useSearchParams();
  const open = params.get('vehicle');
  const setOpen = (v: string | null) =>
    setParams((p) => {
      const n = new URLSearchParams(p);
      if (v === null) n.delete('vehicle');
      else n.set('vehicle', v);
      return n;
    });
  const editing = open && open !== 'new' ? q.data?.items.find((v) => v.id === Number(open)) : undefined;
  const calendarOf = params.get('calendar');
  const showing = calendarOf ? q.data?.items.find((v) => v.id === Number(calendarOf)) : undefined;
  const setCalendar = (v: string | null) =>
    setParams((p) => {
      const n = new URLSearchParams(p);
      if (v === null) n.delete('calendar');
      else n.set('calendar', v);
      return n;
    });
  const columns: Column<Vehicle>[] = [
    { id: 'name', header: 'Vehicle', cell: (v) => <span className="font-medium">{v.name}</span> },
    { id: 'category', header: 'Category', cell: (v) => v.category },
    { id: 'price_per_day', header: 'Per day', numeric: true, cell: (v) => formatMoney(v.price_per_day, v.currency) },
    {
      id: 'lifecycle',
      header: 'Status',
      cell: (v) => (
        <span data-lifecycle={v.lifecycle}>
          {LIFECYCLE_WORDS[v.lifecycle] ?? v.lifecycle}
          {v.lifecycle === 'withdrawn' && v.withdrawn_at ? ` since ${formatDate(v.withdrawn_at, store.timezone)}` : ''}
          {v.lifecycle === 'rejected' && v.review_reason && (
            // the operator's reason, as mailed: what to change before submitting again
            <span className="mt-1 block text-sm text-slate-700 dark:text-slate-300" data-testid="review-reason">
              Reason: {v.review_reason}
            </span>
          )}
        </span>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (v) => (
        <div className="flex flex-wrap gap-2">
          {v.lifecycle !== 'withdrawn' && (
            <button type="button" className="btn" aria-label={`Edit ${v.name}`} onClick={() => setOpen(String(v.id))}>
              Edit
            </button>
          )}
          {v.lifecycle !== 'withdrawn' && (
            <button
              type="button"
              className="btn"
              aria-label={`Calendar of ${v.name}`}
              onClick={() => setCalendar(String(v.id))}
            >
              Calendar
            </button>
          )}
          <Actions v={v} />
        </div>
      ),
    },
  ];
  return (
    <div>
      <PageHeader
        title="My vehicles"
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setOpen('new')}>
            New vehicle
          </button>
        }
      />
      <DataTable
        label="My vehicles"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(v) => String(v.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No vehicles yet: add your first one."
      />
      <SlideOver
        open={open !== null}
        onClose={() => setOpen(null)}
        title={open === 'new' ? 'New vehicle' : editing ? `Edit ${editing.name}` : 'Vehicle'}
      >
        {open === 'new' ? (
          <VehicleForm onDone={() => setOpen(null)} />
        ) : editing ? (
          <>
            <VehicleForm key={editing.id} vehicle={editing} onDone={() => setOpen(null)} />
            {editing.lifecycle !== 'withdrawn' && (
              <PhotoManager side="vendor" vehicleId={editing.id} name={editing.name} />
            )}
          </>
        ) : null}
      </SlideOver>
      <SlideOver
        open={calendarOf !== null}
        onClose={() => setCalendar(null)}
        title={showing ? `${showing.name}: calendar` : 'Calendar'}
      >
        {showing ? <VehicleCalendar key={showing.id} vehicleId={showing.id} /> : null}
      </SlideOver>
    </div>
  );
}
