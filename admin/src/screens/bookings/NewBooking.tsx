import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { applyServerErrors, FormField } from '../../components/FormField';
import { PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { useCreateBooking, useVehicleOptions } from './api';

interface Values {
  customer_id: string;
  vehicle_id: string;
  pickup_date: string;
  return_date: string;
  status: 'pending' | 'confirmed' | 'pending_payment' | 'draft';
  notes: string;
}

const FIELDS = ['customer_id', 'vehicle_id', 'pickup_date', 'return_date', 'status', 'notes'] as const;

/** `/bookings/new?customer_id=17`: a booking for an existing customer (the customers screen links here). */
export function NewBooking() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const vehicles = useVehicleOptions();
  const create = useCreateBooking();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({ defaultValues: { customer_id: params.get('customer_id') ?? '', vehicle_id: '', pickup_date: '', return_date: '', status: 'confirmed', notes: '' } });
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
      navigate(`/bookings/${b.id}`);
    } catch (e) {
      setFormError(applyServerErrors(e, form.setError, FIELDS));
    }
  });
  return (
    <div className="max-w-xl">
      <p className="mb-2 text-sm">
        <Link to="/bookings" className="underline">
          ← Bookings
        </Link>
      </p>
      <PageHeader title="New booking" />
      <form onSubmit={(e) => void onSubmit(e)} className="card" noValidate>
        {formError && (
          <p role="alert" className="mb-3 rounded bg-red-100 p-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-100">
            {formError}
          </p>
        )}
        <FormField label="Customer ID" error={errors.customer_id?.message}>
          <input className="input w-full" inputMode="numeric" {...form.register('customer_id', { required: 'Customer is required', pattern: { value: /^\d+$/, message: 'A customer id (a number)' } })} />
        </FormField>
        <FormField label="Vehicle" error={errors.vehicle_id?.message}>
          <select className="input w-full" {...form.register('vehicle_id', { required: 'Choose a vehicle' })}>
            <option value="">Choose…</option>
            {(vehicles.data ?? []).map((v) => (
              <option key={v.id} value={v.id}>
                {v.name}
              </option>
            ))}
          </select>
        </FormField>
        <div className="grid gap-x-3 sm:grid-cols-2">
          <FormField label="Pick-up date" error={errors.pickup_date?.message}>
            <input type="date" className="input w-full" {...form.register('pickup_date', { required: 'Pick-up date is required' })} />
          </FormField>
          <FormField label="Return date" error={errors.return_date?.message}>
            <input type="date" className="input w-full" {...form.register('return_date', { required: 'Return date is required' })} />
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
        <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Creating…' : 'Create booking'}
        </button>
      </form>
    </div>
  );
}
