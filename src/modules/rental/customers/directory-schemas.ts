import { Type } from '@sinclair/typebox';
import { Paging, IdParams as Id, Text } from '../shared/params.js';
import { literalUnion } from '../shared/literals.js';

export const SORT_KEYS = ['name', 'email', 'bookings', 'total_spent', 'last_booking', 'created'] as const;
export type SortKey = (typeof SORT_KEYS)[number] | 'date';

export const ListQuery = Type.Object({
  search: Type.Optional(Text({ maxLength: 200, description: 'Name or e-mail contains (case-insensitive)' })),
  sort_by: Type.Optional(
    literalUnion([...SORT_KEYS, 'date'] as const, {
      default: 'last_booking',
      description:
        'name | email | bookings | total_spent | last_booking | created (`date` = created); anything else → 400',
    }),
  ),
  sort_order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'Default desc' })),
  sort_dir: Type.Optional(
    Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'Alias of sort_order (original name)' }),
  ),
  ...Paging,
});

const Stats = {
  bookings_count: Type.Integer({ description: 'Bookings except drafts' }),
  total_spent: Type.Number({ description: 'Σ total of confirmed, in_progress and completed bookings' }),
  first_booking: Type.Union([Type.String(), Type.Null()], {
    description: 'Creation instant of the first booking (ISO-8601 UTC)',
  }),
  last_booking: Type.Union([Type.String(), Type.Null()]),
};

export const CustomerItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  address: Type.String(),
  user_id: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Type.String(),
  ...Stats,
  currency: Type.String(),
});

export const CustomerDetail = Type.Object({
  ...CustomerItem.properties,
  recent_bookings: Type.Array(
    Type.Object({
      id: Type.Integer(),
      reference: Type.String(),
      vehicle_id: Type.Integer(),
      vehicle_name: Type.String(),
      status: Type.String(),
      status_label: Type.String(),
      pickup_at: Type.String(),
      return_at: Type.String(),
      total: Type.Number(),
      currency: Type.String(),
      created_at: Type.String(),
    }),
    { description: 'The 10 newest bookings (drafts excluded)' },
  ),
  message_threads: Type.Integer({ description: 'Message threads of this customer' }),
});

export const IdParams = Id('Customer id');

export const BulkBody = Type.Object(
  { ids: Type.Unknown({ description: 'Non-empty array (≤ 1000) of positive integer customer ids' }) },
  { additionalProperties: false, examples: [{ ids: [12, 13] }] },
);

export const BulkResult = Type.Object({
  deleted: Type.Integer(),
  skipped: Type.Integer({ description: 'Distinct ids that matched no customer' }),
  deleted_ids: Type.Array(Type.Integer()),
  anonymised_bookings: Type.Integer(),
});
