import { sql } from 'drizzle-orm';
import { BOOKING_STATUSES } from '../../bookings/status.js';
import { Id, lit } from '../../schemas.js';
import { col, defineExportType } from '../type.js';

export const PAYMENT_STATUSES = [
  'unpaid',
  'deposit_paid',
  'partially_paid',
  'paid',
  'refunded',
  'partially_refunded',
  'failed',
] as const;

/** Every booking, rentals and transfers; the date range applies to the creation date. */
export const bookingsExport = defineExportType({
  name: 'bookings',
  title: 'Bookings',
  description:
    'One row per booking (rentals and transfers). date_from/date_to filter on the creation date (created_at, store time zone).',
  cap: 'manage_options',
  from: sql`rental_bookings b LEFT JOIN rental_vehicles v ON v.id = b.vehicle_id
    LEFT JOIN rental_booking_drivers d ON d.booking_id = b.id`,
  id: sql`b.id`,
  date: sql`b.created_at`,
  status: { expr: sql`b.status`, values: BOOKING_STATUSES },
  filters: {
    payment_status: { schema: lit(PAYMENT_STATUSES), where: (v) => sql`b.payment_status = ${v}` },
    kind: { schema: lit(['rental', 'transfer'] as const), where: (v) => sql`b.kind = ${v}` },
    vehicle_id: { schema: Id(), where: (v) => sql`b.vehicle_id = ${v}` },
    customer_id: { schema: Id(), where: (v) => sql`b.customer_id = ${v}` },
  },
  columns: [
    col('id', 'integer', sql`b.id`, 'Booking id'),
    col('reference', 'string', sql`b.reference`, 'Booking reference'),
    col('status', 'string', sql`b.status`, `Status (${BOOKING_STATUSES.join(', ')})`),
    col('payment_status', 'string', sql`b.payment_status`, `Payment status (${PAYMENT_STATUSES.join(', ')})`),
    col('payment_method', 'string', sql`b.payment_method`, 'Payment method', true),
    col('kind', 'string', sql`b.kind`, 'rental or transfer'),
    col('vehicle_id', 'integer', sql`b.vehicle_id`, 'Vehicle id'),
    col('vehicle_name', 'string', sql`v.name`, 'Vehicle name', true),
    col('customer_id', 'integer', sql`b.customer_id`, 'Customer id (null once the customer was deleted)', true),
    col('customer_name', 'string', sql`b.customer_name`, 'Customer name at booking time (personal data)'),
    col('customer_email', 'string', sql`b.customer_email`, 'Customer e-mail (personal data)'),
    col('customer_phone', 'string', sql`b.customer_phone`, 'Customer phone (personal data)'),
    col('pickup_location_id', 'integer', sql`b.pickup_location_id`, 'Pick-up location id', true),
    col('return_location_id', 'integer', sql`b.return_location_id`, 'Return location id', true),
    col('pickup_at', 'instant', sql`b.pickup_at`, 'Pick-up instant (ISO-8601 UTC)'),
    col('return_at', 'instant', sql`b.return_at`, 'Return instant (ISO-8601 UTC)'),
    col('pickup_date', 'date', sql`b.pickup_at`, 'Pick-up date (store time zone)'),
    col('return_date', 'date', sql`b.return_at`, 'Return date (store time zone)'),
    col('days', 'integer', sql`b.days`, 'Rental days'),
    col('price_per_day', 'money', sql`b.price_per_day`, 'Price per day'),
    col('net_price', 'money', sql`b.net_price`, 'Net rental price'),
    col('addons_total', 'money', sql`b.addons_total`, 'Add-ons total'),
    col('tax', 'money', sql`b.tax`, 'Tax'),
    col('total', 'money', sql`b.total`, 'Total (net + add-ons + tax)'),
    col('deposit', 'money', sql`b.deposit`, 'Deposit due'),
    col('remaining', 'money', sql`b.remaining`, 'Remaining after the deposit'),
    col('currency', 'string', sql`b.currency`, 'ISO 4217 currency of the amounts'),
    col('source', 'string', sql`b.source`, 'Where the booking came from (admin, api, storefront, bulk…)'),
    col('created_at', 'instant', sql`b.created_at`, 'Created (ISO-8601 UTC)'),
    col('created_date', 'date', sql`b.created_at`, 'Creation date (store time zone; the date range filters on it)'),
    col('updated_at', 'instant', sql`b.updated_at`, 'Last change (ISO-8601 UTC)'),
    col('driver_name', 'string', sql`d.name`, 'Driver name (personal data; null: none given)', true),
    col(
      'driver_date_of_birth',
      'string',
      sql`to_char(d.date_of_birth, 'YYYY-MM-DD')`,
      'Driver date of birth (personal data)',
      true,
    ),
    col('driver_licence_number', 'string', sql`d.licence_number`, 'Driving licence number (personal data)', true),
    col('flight_number', 'string', sql`d.flight_number`, 'Arriving flight of an airport pick-up', true),
    col('terms_version', 'string', sql`d.terms_version`, 'Rental terms version the customer accepted', true),
    col('terms_accepted_at', 'instant', sql`d.terms_accepted_at`, 'When the terms were accepted (ISO-8601 UTC)', true),
  ],
});
