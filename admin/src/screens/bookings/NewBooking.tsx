import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { newIdempotencyKey } from '../../api/idempotency';
import { Combobox } from '../../components/Combobox';
import { applyServerErrors, FormField } from '../../components/FormField';
import { customerSource, locationSource, vehicleSource } from '../../components/pickers';
import { PageHeader } from '../../components/State';
import { useToast } from '../../components/Toast';
import { useCreateBooking, useRecordPayment, type CreateBody, type RecordPaymentBody } from './api';
import { PriceQuote } from './PriceQuote';
import { METHODS } from './RecordPayment';
import { backLabel, backOf } from './back';

/** How the booking is paid: the payment-terms rules of the server (bookings/deadline.ts) follow from it. */
type Payment = 'pay_at_pickup' | 'bank_transfer' | 'card' | 'paid';
const PAYMENTS: [Payment, string, string][] = [
  ['pay_at_pickup', 'Pay at pick-up', 'A reservation: the vehicle is held until pick-up, no payment deadline.'],
  ['bank_transfer', 'Bank transfer', 'Due within the bank-transfer days, never after the pick-up.'],
  ['card', 'Card (online)', 'The short hold: a waiting booking lapses when it is not paid in minutes.'],
  ['paid', 'Already paid', 'Recorded now as a desk payment of the full amount.'],
];

interface Values {
  who: 'existing' | 'new';
  customer_id: string;
  customer_name: string;
  customer_email: string;
  customer_phone: string;
  vehicle_id: string;
  pickup_date: string;
  pickup_time: string;
  return_date: string;
  return_time: string;
  location_id: string;
  return_location_id: string;
  status: 'pending' | 'confirmed' | 'pending_payment' | 'draft';
  payment: Payment;
  paid_method: RecordPaymentBody['method'];
  paid_reference: string;
  notes: string;
}

const FIELDS = [
  'customer_id',
  'vehicle_id',
  'pickup_date',
  'return_date',
  'pickup_time',
  'return_time',
  'location_id',
  'return_location_id',
  'status',
  'notes',
] as const;

const picked = (id: number | null) => (id === null ? '' : String(id));

/**
 * `/bookings/new?customer_id=17&vehicle_id=3&pickup_date=…&return_date=…&back=/planner?…`: a booking for an existing
 * customer or a walk-in created in the same submit (name, e-mail, phone), the vehicle, times and pick-up/return
 * locations chosen by name, priced by the API before saving, and how it is paid (the server's deadline rule follows;
 * "already paid" records the desk payment right after). With `back` (an admin path), saving returns there.
 */
export function NewBooking() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const create = useCreateBooking();
  const record = useRecordPayment();
  // one key each for the booking and its desk payment: a retry of the whole submit replays both
  const [bookingKey] = useState(newIdempotencyKey);
  const [payKey] = useState(newIdempotencyKey);
  const [formError, setFormError] = useState<string | null>(null);
  const back = backOf(params);
  const form = useForm<Values>({
    defaultValues: {
      who: 'existing',
      customer_id: params.get('customer_id') ?? '',
      customer_name: '',
      customer_email: '',
      customer_phone: '',
      vehicle_id: params.get('vehicle_id') ?? '',
      pickup_date: params.get('pickup_date') ?? '',
      pickup_time: '',
      return_date: params.get('return_date') ?? '',
      return_time: '',
      location_id: '',
      return_location_id: '',
      status: 'confirmed',
      payment: 'pay_at_pickup',
      paid_method: 'cash',
      paid_reference: '',
      notes: '',
    },
  });
  const [who, payment, vehicleId, pickupDate, returnDate] = form.watch([
    'who',
    'payment',
    'vehicle_id',
    'pickup_date',
    'return_date',
  ]);
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    const body: CreateBody = {
      ...(v.who === 'new'
        ? {
            customer: {
              name: v.customer_name.trim(),
              email: v.customer_email.trim(),
              ...(v.customer_phone.trim() ? { phone: v.customer_phone.trim() } : {}),
            },
          }
        : { customer_id: Number(v.customer_id) }),
      vehicle_id: Number(v.vehicle_id),
      pickup_date: v.pickup_date,
      return_date: v.return_date,
      ...(v.pickup_time ? { pickup_time: v.pickup_time } : {}),
      ...(v.return_time ? { return_time: v.return_time } : {}),
      ...(v.location_id ? { location_id: Number(v.location_id) } : {}),
      ...(v.return_location_id ? { return_location_id: Number(v.return_location_id) } : {}),
      status: v.status,
      // the desk's own method when it is paid already; otherwise the one the deadline rule reads
      payment_method: v.payment === 'paid' ? v.paid_method : v.payment,
      ...(v.notes ? { notes: v.notes } : {}),
    };
    let b;
    try {
      b = await create.mutateAsync({ body, key: bookingKey });
    } catch (e) {
      setFormError(applyServerErrors(e, form.setError, FIELDS));
      return;
    }
    if (v.payment === 'paid') {
      try {
        await record.mutateAsync({
          key: payKey,
          id: b.id,
          body: {
            kind: 'full',
            method: v.paid_method,
            ...(v.paid_reference.trim() ? { reference: v.paid_reference.trim() } : {}),
          },
        });
      } catch (e) {
        // the booking exists: its detail has the Record payment form to try again
        toast(`Booking ${b.reference} created, but the payment was not recorded: ${(e as Error).message}`);
        navigate(`/bookings/${b.id}`);
        return;
      }
      toast(`Booking ${b.reference} created and paid`);
    } else toast(`Booking ${b.reference} created`);
    navigate(back ?? `/bookings/${b.id}`);
  });
  const paymentHint = PAYMENTS.find(([k]) => k === payment)?.[2];
  return (
    <div className="max-w-xl">
      <p className="mb-2 text-sm">
        <Link to={back ?? '/bookings'} className="underline">
          ← {backLabel(back)}
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
        <fieldset className="mb-3">
          <legend className="mb-1 text-sm font-medium">Customer</legend>
          <label className="mr-4 text-sm">
            <input type="radio" value="existing" className="mr-1" {...form.register('who')} />
            Existing customer
          </label>
          <label className="text-sm">
            <input type="radio" value="new" className="mr-1" {...form.register('who')} />
            New customer (walk-in)
          </label>
        </fieldset>
        {who === 'existing' ? (
          <Controller
            control={form.control}
            name="customer_id"
            rules={{ validate: (x, all) => all.who !== 'existing' || !!x || 'Choose a customer' }}
            render={({ field }) => (
              <Combobox
                label="Customer"
                source={customerSource}
                value={field.value ? Number(field.value) : null}
                onChange={(id) => field.onChange(picked(id))}
                onBlur={field.onBlur}
                error={errors.customer_id?.message}
                placeholder="Name or e-mail"
              />
            )}
          />
        ) : (
          <div className="grid gap-x-3 sm:grid-cols-2">
            <FormField label="Customer name" error={errors.customer_name?.message}>
              <input
                className="input w-full"
                autoComplete="off"
                {...form.register('customer_name', {
                  validate: (x, all) => all.who !== 'new' || !!x.trim() || 'Name is required',
                })}
              />
            </FormField>
            <FormField label="Customer e-mail" error={errors.customer_email?.message}>
              <input
                type="email"
                className="input w-full"
                autoComplete="off"
                {...form.register('customer_email', {
                  validate: (x, all) =>
                    all.who !== 'new' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(x.trim()) || 'A valid e-mail is required',
                })}
              />
            </FormField>
            <FormField label="Customer phone" error={errors.customer_phone?.message}>
              <input type="tel" className="input w-full" autoComplete="off" {...form.register('customer_phone')} />
            </FormField>
          </div>
        )}
        <Controller
          control={form.control}
          name="vehicle_id"
          rules={{ required: 'Choose a vehicle' }}
          render={({ field }) => (
            <Combobox
              label="Vehicle"
              source={vehicleSource}
              value={field.value ? Number(field.value) : null}
              onChange={(id) => field.onChange(picked(id))}
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
          <FormField label="Pick-up time" error={errors.pickup_time?.message} hint="Empty: the store's usual time">
            <input type="time" className="input w-full" {...form.register('pickup_time')} />
          </FormField>
          <FormField label="Return date" error={errors.return_date?.message}>
            <input
              type="date"
              className="input w-full"
              {...form.register('return_date', { required: 'Return date is required' })}
            />
          </FormField>
          <FormField label="Return time" error={errors.return_time?.message} hint="Empty: the store's usual time">
            <input type="time" className="input w-full" {...form.register('return_time')} />
          </FormField>
        </div>
        <div className="grid gap-x-3 sm:grid-cols-2">
          <Controller
            control={form.control}
            name="location_id"
            render={({ field }) => (
              <Combobox
                label="Pick-up location"
                source={locationSource}
                value={field.value ? Number(field.value) : null}
                onChange={(id) => field.onChange(picked(id))}
                onBlur={field.onBlur}
                error={errors.location_id?.message}
                hint="Empty: the vehicle's location"
                placeholder="Name or city"
              />
            )}
          />
          <Controller
            control={form.control}
            name="return_location_id"
            render={({ field }) => (
              <Combobox
                label="Return location"
                source={locationSource}
                value={field.value ? Number(field.value) : null}
                onChange={(id) => field.onChange(picked(id))}
                onBlur={field.onBlur}
                error={errors.return_location_id?.message}
                hint="Empty: the pick-up location"
                placeholder="Name or city"
              />
            )}
          />
        </div>
        <FormField label="Payment" hint={paymentHint}>
          <select className="input w-full" {...form.register('payment')}>
            {PAYMENTS.map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </FormField>
        {payment === 'paid' && (
          <div className="grid gap-x-3 sm:grid-cols-2">
            <FormField label="Paid by">
              <select className="input w-full" {...form.register('paid_method')}>
                {METHODS.map(([m, label]) => (
                  <option key={m} value={m}>
                    {label}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField label="Payment reference" hint="Receipt number, transfer reference… (optional)">
              <input className="input w-full" {...form.register('paid_reference')} />
            </FormField>
          </div>
        )}
        <FormField
          label="Status"
          error={errors.status?.message}
          hint="Pending and pending payment wait for the payment by the rule above; confirmed and draft have no deadline."
        >
          <select
            className="input w-full"
            {...form.register('status', {
              validate: (s, all) => all.payment !== 'paid' || s !== 'draft' || 'A draft takes no payment',
            })}
          >
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
