import { Type, type Static } from '@sinclair/typebox';
import { literalUnion } from '../shared/literals.js';
import { IdParams as Id, IdSchema, Paging, Text } from '../shared/params.js';

export const MESSAGE_STATUSES = ['pending', 'replied', 'closed'] as const;
export const MESSAGE_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const MESSAGE_CATEGORIES = ['general', 'booking', 'payment', 'technical', 'complaint', 'other'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export type MessagePriority = (typeof MESSAGE_PRIORITIES)[number];
export type MessageCategory = (typeof MESSAGE_CATEGORIES)[number];

export const StatusSchema = literalUnion(MESSAGE_STATUSES, { description: 'Thread status' });
export const PrioritySchema = literalUnion(MESSAGE_PRIORITIES, { description: 'Thread priority' });
export const CategorySchema = literalUnion(MESSAGE_CATEGORIES, { description: 'Thread category' });

export const IdParams = Id('Message id (any message of the thread)');

/** One message of a thread. */
export const MessageView = Type.Object({
  id: Type.Integer(),
  thread_id: Type.Integer(),
  parent_id: Type.Union([Type.Integer(), Type.Null()]),
  sender: Type.Union([Type.Literal('customer'), Type.Literal('admin')]),
  author_id: Type.Union([Type.Integer(), Type.Null()]),
  author_name: Type.String(),
  subject: Type.String(),
  body: Type.String(),
  is_read: Type.Boolean({
    description: 'Read by the other party (admin for customer messages, customer for admin replies)',
  }),
  read_at: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ description: 'ISO-8601 UTC' }),
});
export type MessageView = Static<typeof MessageView>;

/** A thread as listed in an inbox (first message + counters). */
export const ThreadSummary = Type.Object({
  id: Type.Integer({ description: 'Thread id = id of its first message' }),
  thread_id: Type.Integer(),
  subject: Type.String(),
  preview: Type.String({ description: 'First 160 characters of the latest message' }),
  status: StatusSchema,
  priority: PrioritySchema,
  category: CategorySchema,
  customer_id: Type.Union([Type.Integer(), Type.Null()]),
  customer_name: Type.String(),
  customer_email: Type.String(),
  booking_id: Type.Union([Type.Integer(), Type.Null()]),
  message_count: Type.Integer(),
  unread_count: Type.Integer({ description: 'Messages from the other party not yet read by the caller side' }),
  last_message_at: Type.String(),
  last_sender: Type.Union([Type.Literal('customer'), Type.Literal('admin')]),
  created_at: Type.String(),
});
export type ThreadSummary = Static<typeof ThreadSummary>;

export const ThreadView = Type.Object({
  thread: ThreadSummary,
  message: MessageView,
  replies: Type.Array(MessageView),
});
export type ThreadView = Static<typeof ThreadView>;

export const InboxQuery = Type.Object({
  status: Type.Optional(StatusSchema),
  priority: Type.Optional(PrioritySchema),
  category: Type.Optional(CategorySchema),
  search: Type.Optional(
    Text({ maxLength: 200, description: 'Contained in the subject, any message body, or the customer name/e-mail' }),
  ),
  ...Paging,
});

export const MyInboxQuery = Type.Object({
  status: Type.Optional(StatusSchema),
  ...Paging,
});

export const ReplyBody = Type.Object(
  {
    message: Text({
      minLength: 1,
      maxLength: 10_000,
      description: 'Reply text (plain text; stored as given, rendered escaped by clients)',
    }),
    close_thread: Type.Optional(
      Type.Boolean({ default: false, description: 'Close the thread instead of marking it replied' }),
    ),
  },
  { additionalProperties: false },
);

export const MyReplyBody = Type.Object(
  {
    message: Text({ minLength: 1, maxLength: 10_000 }),
  },
  { additionalProperties: false },
);

/** `status` is checked in code (service.parseStatus): schema coercion would turn ["closed"] into "closed". */
export const StatusBody = Type.Object(
  {
    status: Type.Unknown({ description: 'pending | replied | closed (a string; anything else → 400 INVALID_PARAMS)' }),
  },
  { additionalProperties: false },
);

export const NewThreadBody = Type.Object(
  {
    subject: Text({ minLength: 1, maxLength: 200 }),
    message: Text({ minLength: 1, maxLength: 10_000 }),
    category: Type.Optional(CategorySchema),
    priority: Type.Optional(PrioritySchema),
    booking_id: Type.Optional(IdSchema('One of your own bookings')),
  },
  { additionalProperties: false },
);

export const ReplyResult = Type.Object({
  reply_id: Type.Integer(),
  thread_id: Type.Integer(),
  status: StatusSchema,
  previous_status: StatusSchema,
});

export const StatusResult = Type.Object({
  id: Type.Integer(),
  thread_id: Type.Integer(),
  status: StatusSchema,
  previous_status: StatusSchema,
});
