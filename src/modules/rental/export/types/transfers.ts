import { sql } from 'drizzle-orm';
import { BOOKING_STATUSES } from '../../bookings/status.js';
import { Id, lit } from '../../schemas.js';
import { col, defineExportType } from '../type.js';
import { PAYMENT_STATUSES } from './bookings.js';

/** Transfer bookings (kind = transfer) with their route; the date range applies to the creation date. */
export const transfersExport = defineExportType({
  name: 'transfers',
  title: 'Transfers',
  description:
    'One row per transfer booking (kind = transfer). date_from/date_to filter on the creation date (created_at, store time zone).',
  cap: 'manage_options',
  from: sql`rental_bookings b LEFT JOIN rental_vehicles v ON v.id = b.vehicle_id`,
  id: sql`b.id`,
  date: sql`b.created_at`,
  status: { expr: sql`b.status`, values: BOOKING_STATUSES },
  base: [sql`b.kind = 'transfer'`],
  filters: {
    payment_status: { schema: lit(PAYMENT_STATUSES), where: (v) => sql`b.payment_status = ${v}` },
    vehicle_id: { schema: Id(), where: (v) => sql`b.vehicle_id = ${v}` },
    transfer_route_id: { schema: Id(), where: (v) => sql`b.transfer_route_id = ${v}` },
  },
  columns: [
    col('id', 'integer', sql`b.id`, 'Booking id'),
    col('reference', 'string', sql`b.reference`, 'Booking reference'),
    col('status', 'string', sql`b.status`, 'Booking status'),
    col('payment_status', 'string', sql`b.payment_status`, 'Payment status'),
    col('vehicle_id', 'integer', sql`b.vehicle_id`, 'Vehicle id'),
    col('vehicle_name', 'string', sql`v.name`, 'Vehicle name', true),
    col('transfer_route_id', 'integer', sql`b.transfer_route_id`, 'Transfer route id', true),
    col('origin', 'string', sql`b.transfer_origin`, 'Origin', true),
    col('destination', 'string', sql`b.transfer_destination`, 'Destination', true),
    col('passengers', 'integer', sql`b.passengers`, 'Passengers', true),
    col('customer_id', 'integer', sql`b.customer_id`, 'Customer id', true),
    col('customer_name', 'string', sql`b.customer_name`, 'Customer name (personal data)'),
    col('customer_email', 'string', sql`b.customer_email`, 'Customer e-mail (personal data)'),
    col('customer_phone', 'string', sql`b.customer_phone`, 'Customer phone (personal data)'),
    col('pickup_at', 'instant', sql`b.pickup_at`, 'Pick-up instant (ISO-8601 UTC)'),
    col('pickup_date', 'date', sql`b.pickup_at`, 'Pick-up date (store time zone)'),
    col('total', 'money', sql`b.total`, 'Total'),
    col('currency', 'string', sql`b.currency`, 'Currency'),
    col('created_at', 'instant', sql`b.created_at`, 'Created (ISO-8601 UTC)'),
  ],
});
