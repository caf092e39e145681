import { sql } from 'drizzle-orm';
import { col, defineExportType } from '../type.js';

/** Customers with their booking figures (personal data: manage_options only). */
export const customersExport = defineExportType({
  name: 'customers',
  title: 'Customers',
  description:
    'One row per customer with booking figures (drafts excluded; total_spent counts confirmed, in_progress and completed bookings). ' +
    'date_from/date_to filter on when the customer was created (store time zone). No status filter.',
  cap: 'manage_options',
  from: sql`rental_customers c`,
  // Aggregates only for the page's rows (a lateral join per customer, on the bookings' customer index).
  joins: sql`LEFT JOIN LATERAL (
    SELECT count(*) AS bookings,
           COALESCE(sum(b.total) FILTER (WHERE b.status IN ('confirmed', 'in_progress', 'completed')), 0) AS spent,
           max(b.created_at) AS last_booking
    FROM rental_bookings b WHERE b.customer_id = c.id AND b.status <> 'draft') s ON true`,
  id: sql`c.id`,
  date: sql`c.created_at`,
  status: null,
  columns: [
    col('id', 'integer', sql`c.id`, 'Customer id'),
    col('name', 'string', sql`c.name`, 'Name (personal data)'),
    col('email', 'string', sql`c.email`, 'E-mail (personal data)'),
    col('phone', 'string', sql`c.phone`, 'Phone (personal data)'),
    col('address', 'string', sql`c.address`, 'Address (personal data)'),
    col('user_id', 'integer', sql`c.user_id`, 'User account id', true),
    col('bookings_count', 'integer', sql`s.bookings`, 'Bookings (drafts excluded)'),
    col('total_spent', 'money', sql`s.spent`, 'Σ total of confirmed, in_progress and completed bookings'),
    col('last_booking_at', 'instant', sql`s.last_booking`, 'Newest booking creation (ISO-8601 UTC)', true),
    col('created_at', 'instant', sql`c.created_at`, 'Created (ISO-8601 UTC)'),
  ],
});
