import { sql } from 'drizzle-orm';
import { MESSAGE_CATEGORIES, MESSAGE_PRIORITIES, MESSAGE_STATUSES } from '../../messages/schemas.js';
import { Id, lit } from '../../schemas.js';
import { col, defineExportType } from '../type.js';

/** Every message (thread starters and replies); status, priority and category are the thread's. */
export const messagesExport = defineExportType({
  name: 'messages',
  title: 'Messages',
  description:
    "One row per message (first messages and replies). status, priority and category are the thread's (filters too). " +
    'date_from/date_to filter on when the message was written (store time zone).',
  cap: 'manage_options',
  from: sql`rental_messages m JOIN rental_messages t ON t.id = m.thread_id`,
  id: sql`m.id`,
  date: sql`m.created_at`,
  status: { expr: sql`t.status`, values: MESSAGE_STATUSES },
  filters: {
    priority: { schema: lit(MESSAGE_PRIORITIES), where: (v) => sql`t.priority = ${v}` },
    category: { schema: lit(MESSAGE_CATEGORIES), where: (v) => sql`t.category = ${v}` },
    sender: { schema: lit(['customer', 'admin'] as const), where: (v) => sql`m.sender = ${v}` },
    customer_id: { schema: Id(), where: (v) => sql`t.customer_id = ${v}` },
  },
  columns: [
    col('id', 'integer', sql`m.id`, 'Message id'),
    col('thread_id', 'integer', sql`m.thread_id`, 'Thread id (= id of its first message)'),
    col('parent_id', 'integer', sql`m.parent_id`, 'Message replied to (null for the first message)', true),
    col('sender', 'string', sql`m.sender`, 'customer or admin'),
    col('customer_id', 'integer', sql`t.customer_id`, 'Customer id', true),
    col('customer_name', 'string', sql`m.customer_name`, 'Customer name (personal data)'),
    col('customer_email', 'string', sql`m.customer_email`, 'Customer e-mail (personal data)'),
    col('subject', 'string', sql`m.subject`, 'Subject'),
    col('body', 'string', sql`m.body`, 'Text'),
    col('status', 'string', sql`t.status`, `Thread status (${MESSAGE_STATUSES.join(', ')})`),
    col('priority', 'string', sql`t.priority`, `Thread priority (${MESSAGE_PRIORITIES.join(', ')})`),
    col('category', 'string', sql`t.category`, `Thread category (${MESSAGE_CATEGORIES.join(', ')})`),
    col('booking_id', 'integer', sql`t.booking_id`, 'Booking the thread is about', true),
    col('is_read', 'boolean', sql`m.is_read`, 'Read by the other party'),
    col('created_at', 'instant', sql`m.created_at`, 'Written (ISO-8601 UTC)'),
  ],
});
