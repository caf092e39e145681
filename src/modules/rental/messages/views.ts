import type { MessageRow, ThreadRow } from './repo.js';
import type { MessageView, ThreadSummary } from './schemas.js';
import { iso } from '../views.js';

/** Allow-list mapping of a message row to its public shape. */
export function messageView(r: MessageRow): MessageView {
  return {
    id: r.id,
    thread_id: r.thread_id,
    parent_id: r.parent_id,
    sender: r.sender,
    author_id: r.author_id,
    author_name: r.author_name,
    subject: r.subject,
    body: r.body,
    is_read: r.is_read,
    read_at: r.read_at === null ? null : iso(r.read_at),
    created_at: iso(r.created_at),
  };
}

export function threadSummary(r: ThreadRow): ThreadSummary {
  const preview = r.last_body.replace(/\s+/g, ' ').trim();
  return {
    id: r.id,
    thread_id: r.id,
    subject: r.subject,
    preview: preview.length > 160 ? preview.slice(0, 157) + '...' : preview,
    status: r.status,
    priority: r.priority,
    category: r.category,
    customer_id: r.customer_id,
    customer_name: r.customer_name,
    customer_email: r.customer_email,
    booking_id: r.booking_id,
    message_count: r.message_count,
    unread_count: r.unread_count,
    last_message_at: iso(r.last_message_at),
    last_sender: r.last_sender,
    created_at: iso(r.created_at),
  };
}
