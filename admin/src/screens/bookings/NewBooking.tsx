import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Combobox } from '../../components/Combobox';
import { applyServerErrors, FormField } from '../../components/FormField';
import { customerSource, vehicleSource } from '../../components/pickers';
import { PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { useCreateBooking } from './api';
import { PriceQuote } from './PriceQuote';

interface Values {
  customer_id: string;
  vehicle_id: string;
  pickup_date: string;
  return_date: string;
  status: 'pending' | 'confirmed' | 'pending_payment' | 'draft';
  notes: string;
}

const FIELDS = ['customer_id', 'vehicle_id', 'pickup_date', 'return_date', 'status', 'notes'] as const;

/**
 * `/bookings/new?customer_id=17&vehicle_id=3&pickup_date=…&return_date=…&back=/planner?…`: a booking for an existing
 * customer (the customers screen and the planner link here), the customer and the vehicle chosen by name in searchable
 * pickers, priced by the API before saving. With `back` (an admin path), saving returns there.
 */
export function NewBooking() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const create = useCreateBooking();
  const [formError, setFormError] = useState<string | null>(null);
  const back =
    params.get('back')?.startsWith('/') && !params.get('back')?.startsWith('//') ? params.get('back')! : null;
  const form = useForm<Values>({
    defaultValues: {
      customer_id: params.get('customer_id') ?? '',
      vehicle_id: params.get('vehicle_id') ?? '',
      pickup_date: params.get('pickup_date') ?? '',
      return_date: params.get('return_date') ?? '',
      status: 'confirmed',
      notes: '',
    },
  });
  const [vehicleId, pickupDate, returnDate] = form.watch(['vehicle_id', 'pickup_date', 'return_date']);
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      const b = await create.mutateAsync({
        customer_id: Number(v.customer_id),
        vehicle_id: Number(v.vehicle_id),
        pickup_date: v.pickup_date,
        return_date: v.return_date,
        status: v.status,
        ...(v.notes ? { notes: v.notes } : {}),
      });
      toast(`Booking ${b.reference} created`);
      navigate(back ?? `/bookings/${b.id}`);
    } catch (e) {
      setFormError(applyServerErrors(e, form.setError, FIELDS));
    }
  });
  return (
    <div className="max-w-xl">
      <p className="mb-2 text-sm">
        <Link to={back ?? '/bookings'} className="underline">
          ← {back?.startsWith('/planner') ? 'Planner' : 'Bookings'}
        </Link>
      </p>
      <PageHeader title="New booking" />
      <form onSubmit={(e) => void onSubmit(e)} className="card" noValidate>
        {formError && (
          <p
            role="alert"
            className="mb-3 rounded bg-red-100 p-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-100"
          >
            {formError}
          </p>
        )}
        <Controller
          control={form.control}
          name="customer_id"
          rules={{ required: 'Choose a customer' }}
          render={({ field }) => (
            <Combobox
              label="Customer"
              source={customerSource}
              value={field.value ? Number(field.value) : null}
              onChange={(id) => field.onChange(id === null ? '' : String(id))}
              onBlur={field.onBlur}
              error={errors.customer_id?.message}
              placeholder="Name or e-mail"
            />
          )}
        />
        <Controller
          control={form.control}
          name="vehicle_id"
          rules={{ required: 'Choose a vehicle' }}
          render={({ field }) => (
            <Combobox
              label="Vehicle"
              source={vehicleSource}
              value={field.value ? Number(field.value) : null}
              onChange={(id) => field.onChange(id === null ? '' : String(id))}
              onBlur={field.onBlur}
              error={errors.vehicle_id?.message}
              placeholder="Vehicle name"
            />
          )}
        />
        <div className="grid gap-x-3 sm:grid-cols-2">
          <FormField label="Pick-up date" error={errors.pickup_date?.message}>
            <input
              type="date"
              className="input w-full"
              {...form.register('pickup_date', { required: 'Pick-up date is required' })}
            />
          </FormField>
          <FormField label="Return date" error={errors.return_date?.message}>
            <input
              type="date"
              className="input w-full"
              {...form.register('return_date', { required: 'Return date is required' })}
            />
          </FormField>
        </div>
        <FormField label="Status" error={errors.status?.message}>
          <select className="input w-full" {...form.register('status')}>
            <option value="confirmed">Confirmed</option>
            <option value="pending">Pending</option>
            <option value="pending_payment">Pending Payment</option>
            <option value="draft">Draft</option>
          </select>
        </FormField>
        <FormField label="Notes" error={errors.notes?.message}>
          <textarea className="input w-full" rows={3} {...form.register('notes')} />
        </FormField>
        <PriceQuote vehicleId={vehicleId} pickupDate={pickupDate} returnDate={returnDate} />
        <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Creating…' : 'Create booking'}
        </button>
      </form>
    </div>
  );
}
