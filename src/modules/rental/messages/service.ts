import type { AuthUser } from '../../../platform/auth/types.js';
import { emitMessageCreated } from '../events.js';
import type { Platform } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/types.js';
import { invalidParam, messageNotFound } from '../errors.js';
import { pageOf, parsePaging, type Page } from '../paging.js';
import { replyMailInTransaction } from './mails.js';
import * as repo from './repo.js';
import {
  MESSAGE_STATUSES,
  type MessageCategory,
  type MessagePriority,
  type MessageStatus,
  type ThreadSummary,
  type ThreadView,
} from './schemas.js';
import { messageView, threadSummary } from './views.js';

type Tx = <T>(fn: (tx: Db) => Promise<T>) => Promise<T>;

/**
 * A message identical to its author's last one (same thread and message answered, or same subject for a new thread)
 * within this many seconds is the same message sent again — a client retrying after a lost answer, or a double click —
 * and is answered with the stored one instead of being stored twice. Messages carry no Idempotency-Key.
 */
export const MESSAGE_REPEAT_WINDOW_SECONDS = 60;

/** The rental customer a caller writes as (customer side). */
export interface CustomerIdentity {
  id: number;
  name: string;
  email: string;
}

export interface InboxQuery {
  status?: MessageStatus;
  priority?: MessagePriority;
  category?: MessageCategory;
  search?: string;
  page?: number;
  per_page?: number;
}

export async function inbox(db: Db, q: InboxQuery, customer?: CustomerIdentity): Promise<Page<ThreadSummary>> {
  const p = parsePaging(q);
  const { items, total } = await repo.listThreads(
    db,
    {
      status: q.status,
      priority: q.priority,
      category: q.category,
      search: q.search,
      customerId: customer?.id,
      viewer: customer ? 'customer' : 'admin',
    },
    p.limit,
    p.offset,
  );
  return pageOf(items.map(threadSummary), total, p);
}

/**
 * The thread a message id belongs to. A customer only sees their own threads: another customer's thread
 * answers 404 exactly like an unknown id (no existence oracle).
 */
async function resolveThread(db: Db, messageId: number, customer?: CustomerIdentity): Promise<number> {
  const t = await repo.threadIdOf(db, messageId);
  if (!t) throw messageNotFound();
  if (customer && t.customer_id !== customer.id) throw messageNotFound();
  return t.thread_id;
}

/** Thread view: first message + replies oldest first. Viewing marks the other party's messages read. */
export async function thread(db: Db, messageId: number, customer?: CustomerIdentity): Promise<ThreadView> {
  const viewer = customer ? 'customer' : 'admin';
  const threadId = await resolveThread(db, messageId, customer);
  await repo.markRead(db, threadId, viewer);
  const head = await repo.getThread(db, threadId, viewer);
  if (!head) throw messageNotFound();
  const msgs = (await repo.threadMessages(db, threadId)).map(messageView);
  const [first, ...replies] = msgs;
  if (!first) throw messageNotFound();
  return { thread: threadSummary(head), message: first, replies };
}

export interface ReplyResult {
  reply_id: number;
  thread_id: number;
  status: MessageStatus;
  previous_status: MessageStatus;
}

/**
 * Admin reply: adds the reply (parent = the addressed message) and sets the thread to `replied`, or `closed`
 * with close_thread. Replying to a closed thread re-opens it as `replied` (the original allowed any reply and
 * any status move); close_thread keeps it closed. The customer gets the reply by mail (message_reply), written in
 * the same transaction.
 */
export async function adminReply(
  p: Platform,
  messageId: number,
  author: AuthUser,
  text: string,
  closeThread: boolean,
): Promise<ReplyResult> {
  if (text.trim() === '') throw invalidParam('message', 'message must not be blank.', 'must not be blank');
  let wake: (() => Promise<void>) | undefined;
  const r = await p.transaction(async (tx) => {
    await repo.lockAuthor(tx, author.id);
    const threadId = await resolveThread(tx, messageId);
    const head = await repo.getThread(tx, threadId, 'admin');
    if (!head) throw messageNotFound();
    const repeated = await repo.repeatedMessage(
      tx,
      {
        authorUserId: author.id,
        sender: 'admin',
        where: { threadId },
        parentId: messageId,
        subject: replySubject(head.subject),
        body: text,
      },
      MESSAGE_REPEAT_WINDOW_SECONDS,
    );
    if (repeated)
      return { reply_id: repeated.id, thread_id: threadId, status: head.status, previous_status: head.status };
    const status: MessageStatus = closeThread ? 'closed' : 'replied';
    const replyId = await repo.insertMessage(tx, {
      threadId,
      parentId: messageId,
      customerId: head.customer_id,
      sender: 'admin',
      authorUserId: author.id,
      customerName: head.customer_name,
      customerEmail: head.customer_email,
      subject: replySubject(head.subject),
      body: text,
    });
    await emitMessageCreated(tx, { id: replyId, thread_id: threadId, author: 'admin' });
    const previous = (await repo.setThreadStatus(tx, threadId, status)) ?? head.status;
    // The admin has now dealt with the customer's messages.
    await repo.markRead(tx, threadId, 'admin');
    // the customer is told by mail, in this transaction (a repeated reply above sends nothing again)
    wake = await replyMailInTransaction(tx, p, head, text);
    return { reply_id: replyId, thread_id: threadId, status, previous_status: previous };
  });
  await wake?.();
  return r;
}

/** Accepts pending | replied | closed (and the original's `answered` as an alias of replied); anything else 400. */
export function parseStatus(raw: unknown): MessageStatus {
  const v = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  const s = v === 'answered' ? 'replied' : v;
  if (!(MESSAGE_STATUSES as readonly string[]).includes(s)) {
    throw invalidParam(
      'status',
      'status must be one of pending, replied, closed.',
      'must be pending, replied or closed',
    );
  }
  return s as MessageStatus;
}

/** Any status → any status (design §5); setting the current status is a successful no-op. */
export async function setStatus(
  transaction: Tx,
  messageId: number,
  raw: unknown,
): Promise<{ id: number; thread_id: number; status: MessageStatus; previous_status: MessageStatus }> {
  const status = parseStatus(raw);
  return transaction(async (tx) => {
    const threadId = await resolveThread(tx, messageId);
    const previous = await repo.setThreadStatus(tx, threadId, status);
    if (previous === undefined) throw messageNotFound();
    return { id: messageId, thread_id: threadId, status, previous_status: previous };
  });
}

function replySubject(subject: string): string {
  return /^re:/i.test(subject) ? subject : `Re: ${subject}`;
}

export interface NewThreadInput {
  subject: string;
  message: string;
  category?: MessageCategory;
  priority?: MessagePriority;
  booking_id?: number;
}

/** Customer starts a thread (status pending). A booking_id must be one of the customer's own bookings. */
export async function startThread(
  transaction: Tx,
  customer: CustomerIdentity,
  user: AuthUser,
  input: NewThreadInput,
): Promise<ThreadView> {
  const subject = input.subject.trim();
  const body = input.message.trim();
  if (subject === '' || body === '') {
    throw invalidParam(
      subject === '' ? 'subject' : 'message',
      'subject and message must not be blank.',
      'must not be blank',
    );
  }
  const id = await transaction(async (tx) => {
    await repo.lockAuthor(tx, user.id);
    const repeated = await repo.repeatedMessage(
      tx,
      { authorUserId: user.id, sender: 'customer', where: { customerId: customer.id }, parentId: null, subject, body },
      MESSAGE_REPEAT_WINDOW_SECONDS,
    );
    if (repeated) return repeated.id;
    if (input.booking_id !== undefined && !(await repo.bookingBelongsTo(tx, input.booking_id, customer.id))) {
      throw invalidParam('booking_id', 'booking_id is not one of your bookings.', 'not one of your bookings');
    }
    const newId = await repo.insertMessage(tx, {
      threadId: null,
      parentId: null,
      customerId: customer.id,
      sender: 'customer',
      authorUserId: user.id,
      customerName: customer.name,
      customerEmail: customer.email,
      subject,
      body,
      category: input.category ?? 'general',
      priority: input.priority ?? 'normal',
      bookingId: input.booking_id ?? null,
    });
    await emitMessageCreated(tx, { id: newId, thread_id: newId, author: 'customer' });
    return newId;
  });
  return transaction((tx) => thread(tx, id, customer));
}

/**
 * Customer reply: adds the message and puts the thread back to `pending` (it awaits an answer again),
 * which also re-opens a closed thread.
 */
export async function customerReply(
  transaction: Tx,
  customer: CustomerIdentity,
  user: AuthUser,
  messageId: number,
  text: string,
): Promise<ReplyResult> {
  const body = text.trim();
  if (body === '') throw invalidParam('message', 'message must not be blank.', 'must not be blank');
  return transaction(async (tx) => {
    await repo.lockAuthor(tx, user.id);
    const threadId = await resolveThread(tx, messageId, customer);
    const head = await repo.getThread(tx, threadId, 'customer');
    if (!head) throw messageNotFound();
    const repeated = await repo.repeatedMessage(
      tx,
      {
        authorUserId: user.id,
        sender: 'customer',
        where: { threadId },
        parentId: messageId,
        subject: replySubject(head.subject),
        body,
      },
      MESSAGE_REPEAT_WINDOW_SECONDS,
    );
    if (repeated)
      return { reply_id: repeated.id, thread_id: threadId, status: head.status, previous_status: head.status };
    const replyId = await repo.insertMessage(tx, {
      threadId,
      parentId: messageId,
      customerId: customer.id,
      sender: 'customer',
      authorUserId: user.id,
      customerName: customer.name,
      customerEmail: customer.email,
      subject: replySubject(head.subject),
      body,
    });
    await emitMessageCreated(tx, { id: replyId, thread_id: threadId, author: 'customer' });
    const previous = (await repo.setThreadStatus(tx, threadId, 'pending')) ?? head.status;
    await repo.markRead(tx, threadId, 'customer');
    return { reply_id: replyId, thread_id: threadId, status: 'pending', previous_status: previous };
  });
}

/** Customer closes their own thread. */
export async function customerClose(
  transaction: Tx,
  customer: CustomerIdentity,
  messageId: number,
): Promise<{ id: number; thread_id: number; status: MessageStatus; previous_status: MessageStatus }> {
  return transaction(async (tx) => {
    const threadId = await resolveThread(tx, messageId, customer);
    const previous = await repo.setThreadStatus(tx, threadId, 'closed');
    if (previous === undefined) throw messageNotFound();
    return { id: messageId, thread_id: threadId, status: 'closed', previous_status: previous };
  });
}
