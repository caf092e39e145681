import { sql } from 'drizzle-orm';
import { Id, lit, Text } from '../../schemas.js';
import { col, defineExportType } from '../type.js';

/** The fleet. */
export const vehiclesExport = defineExportType({
  name: 'vehicles',
  title: 'Vehicles',
  description:
    'One row per vehicle. date_from/date_to filter on when the vehicle was added (created_at, store time zone).',
  cap: 'manage_options',
  from: sql`rental_vehicles v LEFT JOIN rental_locations l ON l.id = v.location_id`,
  id: sql`v.id`,
  date: sql`v.created_at`,
  status: { expr: sql`v.status`, values: ['active', 'inactive', 'maintenance'] },
  filters: {
    category: { schema: Text({ minLength: 1, maxLength: 100 }), where: (v) => sql`v.category = ${v}` },
    service_type: { schema: lit(['rental', 'transfer', 'both'] as const), where: (v) => sql`v.service_type = ${v}` },
    location_id: { schema: Id(), where: (v) => sql`v.location_id = ${v}` },
    vendor_id: { schema: Id(), where: (v) => sql`v.vendor_id = ${v}` },
  },
  columns: [
    col('id', 'integer', sql`v.id`, 'Vehicle id'),
    col('name', 'string', sql`v.name`, 'Name'),
    col('slug', 'string', sql`v.slug`, 'Slug'),
    col('status', 'string', sql`v.status`, 'active, inactive or maintenance'),
    col('vendor_id', 'integer', sql`v.vendor_id`, 'Vendor user id (null = operator fleet)', true),
    col('category', 'string', sql`v.category`, 'Category'),
    col('brand', 'string', sql`v.brand`, 'Brand'),
    col('model', 'string', sql`v.model`, 'Model'),
    col('year', 'integer', sql`v.year`, 'Model year', true),
    col('seats', 'integer', sql`v.seats`, 'Seats', true),
    col('doors', 'integer', sql`v.doors`, 'Doors', true),
    col('transmission', 'string', sql`v.transmission`, 'manual or automatic'),
    col('fuel_type', 'string', sql`v.fuel_type`, 'petrol, diesel, hybrid, electric or lpg'),
    col('price_per_day', 'money', sql`v.price_per_day`, 'Price per day'),
    col('deposit_percent', 'number', sql`v.deposit_percent`, 'Deposit percent override', true),
    col('currency', 'string', sql`v.currency`, 'Currency of the price'),
    col('location_id', 'integer', sql`v.location_id`, 'Location id', true),
    col('location_name', 'string', sql`l.name`, 'Location name', true),
    col('service_type', 'string', sql`v.service_type`, 'rental, transfer or both'),
    col('transfer_max_passengers', 'integer', sql`v.transfer_max_passengers`, 'Transfer capacity: passengers', true),
    col('transfer_max_luggage', 'integer', sql`v.transfer_max_luggage`, 'Transfer capacity: luggage', true),
    col('features', 'json', sql`v.features`, 'Features (JSON array; CSV: its JSON text)'),
    col('created_at', 'instant', sql`v.created_at`, 'Added (ISO-8601 UTC)'),
    col('updated_at', 'instant', sql`v.updated_at`, 'Last change (ISO-8601 UTC)'),
  ],
});
