import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import type { MessageCategory, MessagePriority, MessageStatus } from './schemas.js';
import { containsPattern as likePattern } from '../shared/like.js';

export interface MessageRow {
  id: number;
  thread_id: number;
  parent_id: number | null;
  sender: 'customer' | 'admin';
  author_id: number | null;
  author_name: string;
  subject: string;
  body: string;
  is_read: boolean;
  read_at: string | null;
  created_at: string;
}

export interface ThreadRow {
  id: number;
  subject: string;
  status: MessageStatus;
  priority: MessagePriority;
  category: MessageCategory;
  customer_id: number | null;
  customer_name: string;
  customer_email: string;
  booking_id: number | null;
  created_at: string;
  message_count: number;
  unread_count: number;
  last_message_at: string;
  last_body: string;
  last_sender: 'customer' | 'admin';
}

export interface ThreadFilter {
  status?: MessageStatus;
  priority?: MessagePriority;
  category?: MessageCategory;
  search?: string;
  /** Only this customer's threads (customer side). */
  customerId?: number;
  /** Whose unread messages to count: the admin counts unread customer messages, the customer unread admin replies. */
  viewer: 'admin' | 'customer';
}

function threadWhere(f: ThreadFilter): SQL {
  const parts: SQL[] = [sql`t.parent_id IS NULL`];
  if (f.status) parts.push(sql`t.status = ${f.status}`);
  if (f.priority) parts.push(sql`t.priority = ${f.priority}`);
  if (f.category) parts.push(sql`t.category = ${f.category}`);
  if (f.customerId !== undefined) parts.push(sql`t.customer_id = ${f.customerId}`);
  if (f.search && f.search.trim() !== '') {
    const p = likePattern(f.search.trim());
    parts.push(sql`(t.subject ILIKE ${p} OR t.customer_name ILIKE ${p} OR t.customer_email ILIKE ${p}
      OR c.name ILIKE ${p} OR c.email ILIKE ${p}
      OR EXISTS (SELECT 1 FROM rental_messages m WHERE m.thread_id = t.id AND m.body ILIKE ${p}))`);
  }
  return sql.join(parts, sql` AND `);
}

const THREAD_SELECT = (viewer: 'admin' | 'customer') => sql`
  SELECT t.id::int AS id, t.subject, t.status, t.priority, t.category, t.customer_id::int AS customer_id,
         COALESCE(c.name, t.customer_name) AS customer_name, COALESCE(c.email, t.customer_email) AS customer_email,
         t.booking_id::int AS booking_id, t.created_at::text AS created_at,
         s.message_count, s.unread_count, s.last_message_at::text AS last_message_at, l.body AS last_body, l.sender AS last_sender
  FROM rental_messages t
  LEFT JOIN rental_customers c ON c.id = t.customer_id
  JOIN LATERAL (
    SELECT count(*)::int AS message_count,
           count(*) FILTER (WHERE m.sender <> ${viewer} AND NOT m.is_read)::int AS unread_count,
           max(m.created_at) AS last_message_at
    FROM rental_messages m WHERE m.thread_id = t.id) s ON true
  JOIN LATERAL (
    SELECT m.body, m.sender FROM rental_messages m WHERE m.thread_id = t.id ORDER BY m.created_at DESC, m.id DESC LIMIT 1) l ON true`;

export async function listThreads(
  db: Db,
  f: ThreadFilter,
  limit: number,
  offset: number,
): Promise<{ items: ThreadRow[]; total: number }> {
  const where = threadWhere(f);
  const total =
    (
      await one<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM rental_messages t LEFT JOIN rental_customers c ON c.id = t.customer_id WHERE ${where}`,
      )
    )?.n ?? 0;
  const items = await rows<ThreadRow>(
    db,
    sql`${THREAD_SELECT(f.viewer)} WHERE ${where} ORDER BY s.last_message_at DESC, t.id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  return { items, total };
}

export async function getThread(
  db: Db,
  threadId: number,
  viewer: 'admin' | 'customer',
): Promise<ThreadRow | undefined> {
  return one<ThreadRow>(db, sql`${THREAD_SELECT(viewer)} WHERE t.id = ${threadId} AND t.parent_id IS NULL`);
}

/** The thread a message belongs to (null when the id is unknown). */
export async function threadIdOf(
  db: Db,
  messageId: number,
): Promise<{ thread_id: number; customer_id: number | null } | undefined> {
  return one(
    db,
    sql`SELECT m.thread_id::int AS thread_id, t.customer_id::int AS customer_id
        FROM rental_messages m JOIN rental_messages t ON t.id = m.thread_id WHERE m.id = ${messageId}`,
  );
}

export async function threadMessages(db: Db, threadId: number): Promise<MessageRow[]> {
  return rows<MessageRow>(
    db,
    sql`SELECT m.id::int AS id, m.thread_id::int AS thread_id, m.parent_id::int AS parent_id, m.sender, m.author_user_id::int AS author_id,
               COALESCE(NULLIF(u.display_name, ''), u.login, NULLIF(m.customer_name, ''), CASE WHEN m.sender = 'admin' THEN 'Support' ELSE 'Customer' END) AS author_name,
               m.subject, m.body, m.is_read, m.read_at::text AS read_at, m.created_at::text AS created_at
        FROM rental_messages m LEFT JOIN rova_users u ON u.id = m.author_user_id
        WHERE m.thread_id = ${threadId} ORDER BY m.created_at, m.id`,
  );
}

export interface NewMessage {
  threadId: number | null;
  parentId: number | null;
  customerId: number | null;
  sender: 'customer' | 'admin';
  authorUserId: number | null;
  customerName: string;
  customerEmail: string;
  subject: string;
  body: string;
  status?: MessageStatus;
  priority?: MessagePriority;
  category?: MessageCategory;
  bookingId?: number | null;
  createdAt?: Date;
  isRead?: boolean;
}

/** Inserts a message; a thread starter (threadId null) becomes its own thread. Returns the new id. */
export async function insertMessage(db: Db, m: NewMessage): Promise<number> {
  const at = m.createdAt ? m.createdAt.toISOString() : null;
  const starter = m.threadId === null;
  const r = await one<{ id: number }>(
    db,
    sql`WITH n AS (SELECT nextval(pg_get_serial_sequence('rental_messages', 'id')) AS id)
        INSERT INTO rental_messages (id, thread_id, parent_id, customer_id, sender, author_user_id, customer_name, customer_email,
                                     subject, body, status, priority, category, booking_id, is_read, read_at, created_at)
        SELECT n.id, COALESCE(${m.threadId}::bigint, n.id), ${m.parentId}, ${m.customerId}, ${m.sender}, ${m.authorUserId}, ${m.customerName}, ${m.customerEmail},
               ${m.subject}, ${m.body}, ${starter ? (m.status ?? 'pending') : null}, ${starter ? (m.priority ?? 'normal') : null},
               ${starter ? (m.category ?? 'general') : null}, ${starter ? (m.bookingId ?? null) : null},
               ${m.isRead ?? false}, ${m.isRead ? (at ?? new Date().toISOString()) : null}::timestamptz, COALESCE(${at}::timestamptz, now())
        FROM n RETURNING id::int AS id`,
  );
  return r!.id;
}

/**
 * Namespace of the advisory locks that serialise one author's messages, so two copies of one message sent at once
 * cannot both miss each other in `repeatedMessage`.
 */
const MESSAGE_AUTHOR_LOCK = 727_037;

export async function lockAuthor(tx: Db, authorUserId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${MESSAGE_AUTHOR_LOCK}, ${authorUserId % 2_147_483_647}::int)`);
}

/**
 * The author's newest message of the last `windowSeconds` in a thread (`threadId`), or among the customer's thread
 * starters (`customerId`), when it says exactly this: the same body, and the same subject (a starter) or the same
 * message answered (`parentId`, a reply). That is the message a client sent again.
 */
export async function repeatedMessage(
  db: Db,
  m: {
    authorUserId: number;
    sender: 'customer' | 'admin';
    where: { threadId: number } | { customerId: number };
    parentId: number | null;
    subject: string;
    body: string;
  },
  windowSeconds: number,
): Promise<{ id: number; thread_id: number } | undefined> {
  const scope =
    'threadId' in m.where
      ? sql`thread_id = ${m.where.threadId}`
      : sql`customer_id = ${m.where.customerId} AND parent_id IS NULL`;
  const last = await one<{ id: number; thread_id: number; parent_id: number | null; subject: string; body: string }>(
    db,
    sql`SELECT id::int AS id, thread_id::int AS thread_id, parent_id::int AS parent_id, subject, body FROM rental_messages
        WHERE ${scope} AND author_user_id = ${m.authorUserId} AND sender = ${m.sender} AND created_at > now() - make_interval(secs => ${windowSeconds})
        ORDER BY created_at DESC, id DESC LIMIT 1`,
  );
  if (!last || last.body !== m.body || last.subject !== m.subject || last.parent_id !== m.parentId) return undefined;
  return { id: last.id, thread_id: last.thread_id };
}

export async function setThreadStatus(
  db: Db,
  threadId: number,
  status: MessageStatus,
): Promise<MessageStatus | undefined> {
  const r = await one<{ previous: MessageStatus }>(
    db,
    sql`UPDATE rental_messages t SET status = ${status}, updated_at = now()
        FROM (SELECT id, status FROM rental_messages WHERE id = ${threadId} AND parent_id IS NULL FOR UPDATE) old
        WHERE t.id = old.id RETURNING old.status AS previous`,
  );
  return r?.previous;
}

/** Marks the other party's messages of a thread as read; returns how many changed. */
export async function markRead(db: Db, threadId: number, reader: 'admin' | 'customer'): Promise<number> {
  const r = await rows<{ id: number }>(
    db,
    sql`UPDATE rental_messages SET is_read = true, read_at = now()
        WHERE thread_id = ${threadId} AND sender <> ${reader} AND NOT is_read RETURNING id::int AS id`,
  );
  return r.length;
}

export async function bookingBelongsTo(db: Db, bookingId: number, customerId: number): Promise<boolean> {
  const r = await one<{ ok: number }>(
    db,
    sql`SELECT 1 AS ok FROM rental_bookings WHERE id = ${bookingId} AND customer_id = ${customerId}`,
  );
  return r !== undefined;
}

/** The rental customer linked to a user: by customers.user_id first, else by the same e-mail (case-insensitive). */
export async function customerOfUser(
  db: Db,
  userId: number,
  email: string,
): Promise<{ id: number; name: string; email: string } | undefined> {
  return one(
    db,
    sql`SELECT id::int AS id, name, email FROM rental_customers
        WHERE user_id = ${userId} OR (${email} <> '' AND lower(email) = lower(${email}))
        ORDER BY (user_id = ${userId}) DESC NULLS LAST, id LIMIT 1`,
  );
}

/** Creates (or links, on an e-mail race) the rental customer record of a customer-role user. */
export async function ensureCustomerForUser(
  db: Db,
  userId: number,
  name: string,
  email: string,
): Promise<{ id: number; name: string; email: string }> {
  const r = await one<{ id: number; name: string; email: string }>(
    db,
    sql`INSERT INTO rental_customers (name, email, user_id) VALUES (${name}, ${email}, ${userId})
        ON CONFLICT ((lower(email))) DO UPDATE SET user_id = COALESCE(rental_customers.user_id, EXCLUDED.user_id), updated_at = now()
        RETURNING id::int AS id, name, email`,
  );
  return r!;
}
