import { Type } from '@sinclair/typebox';
import { DateStr, Id, Text } from '../../schemas.js';

/** Longest planner window (a month view shows at most 6 weeks; two months leave room). */
export const MAX_WINDOW_DAYS = 62;
/** Vehicles per answer by default, and at most (the rest are counted in `vehicles_more`). */
export const DEFAULT_VEHICLE_LIMIT = 200;
export const MAX_VEHICLE_LIMIT = 500;

export const PlannerQuery = Type.Object({
  from: DateStr,
  to: DateStr,
  location: Type.Optional(Id({ description: 'Only vehicles at this location' })),
  category: Type.Optional(Text({ minLength: 1, maxLength: 100, description: 'Only vehicles of this category' })),
  vendor: Type.Optional(Id({ description: "Only this vendor's vehicles (its user id)" })),
  closed: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Also cancelled, refunded and no-show bookings (default: without them)',
    }),
  ),
  payment_due: Type.Optional(
    Type.Boolean({ default: false, description: 'Only bookings under way whose payment is not complete' }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_VEHICLE_LIMIT,
      default: DEFAULT_VEHICLE_LIMIT,
      description: 'Vehicles per answer',
    }),
  ),
});

const Nullable = <T extends ReturnType<typeof Type.Integer> | ReturnType<typeof Type.String>>(t: T) =>
  Type.Union([t, Type.Null()]);

export const PlannerVehicle = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  category: Type.String(),
  status: Type.String({ description: 'active | inactive | maintenance' }),
  location_id: Nullable(Type.Integer()),
  location_name: Nullable(Type.String()),
  vendor_id: Nullable(Type.Integer()),
  vendor_name: Nullable(Type.String()),
});

export const PlannerBooking = Type.Object({
  id: Type.Integer(),
  reference: Type.String(),
  vehicle_id: Type.Integer(),
  kind: Type.String({ description: 'rental | transfer' }),
  status: Type.String(),
  customer_name: Type.String(),
  pickup_at: Type.String({ description: 'ISO-8601 UTC' }),
  return_at: Type.String({ description: 'ISO-8601 UTC' }),
  holds_slot: Type.Boolean({
    description: 'The booking holds the vehicle now (confirmed, in progress, or a pending hold before its deadline)',
  }),
  hold_expires_at: Nullable(
    Type.String({
      description: 'pending_payment / pending: the payment deadline (ISO-8601 UTC), after which the hold lapses',
    }),
  ),
  payment_status: Type.String({ description: 'unpaid | deposit_paid | partially_paid | paid | refunded' }),
  payment_due: Type.Boolean({ description: 'Under way and not fully paid' }),
  buffer_minutes: Type.Integer({
    description: 'Gap the availability engine keeps before the pickup and after the return',
  }),
});

export const PlannerBlock = Type.Object({
  vehicle_id: Type.Integer(),
  kind: Type.Union([Type.Literal('vendor_block'), Type.Literal('blocked_date')], {
    description: "vendor_block: the vendor's block of the vehicle; blocked_date: a date the operator blocked on it",
  }),
  from: Type.String({ description: 'First day, YYYY-MM-DD (store time zone)' }),
  to: Type.String({ description: 'Last day, inclusive' }),
  starts_at: Type.String({ description: 'Start of the first day, ISO-8601 UTC' }),
  ends_at: Type.String({ description: 'End of the last day (start of the next), ISO-8601 UTC' }),
  reason: Type.Union([Type.Literal('maintenance'), Type.Literal('own_use'), Type.Literal('blocked_date')]),
  note: Type.String({ description: "The vendor's note ('' for none)" }),
});

const Option = Type.Object({ id: Type.Integer(), name: Type.String() });

export const PlannerAnswer = Type.Object({
  from: Type.String({ description: 'First day, YYYY-MM-DD (store time zone)' }),
  to: Type.String({ description: 'Last day, inclusive' }),
  timezone: Type.String(),
  window_start: Type.String({ description: 'Start of `from` in the store time zone, ISO-8601 UTC' }),
  window_end: Type.String({ description: 'End of `to` (start of the next day) in the store time zone, ISO-8601 UTC' }),
  buffer_minutes: Type.Integer({
    description: 'RENTAL_BUFFER_MINUTES: the gap kept before and after every holding booking',
  }),
  vehicles: Type.Array(PlannerVehicle, {
    description: 'Matching vehicles ordered by location name then vehicle name, at most `limit`',
  }),
  vehicles_total: Type.Integer({ description: 'All vehicles matching the filters' }),
  vehicles_more: Type.Integer({
    description: 'Matching vehicles not in this answer (vehicles_total − vehicles.length)',
  }),
  bookings: Type.Array(PlannerBooking, {
    description:
      'Bookings of the listed vehicles overlapping the window, by vehicle then pickup: never drafts; cancelled, refunded and no-show only with closed=true',
  }),
  blocks: Type.Array(PlannerBlock, {
    description:
      "What keeps the listed vehicles from being booked in the window besides bookings: vendors' blocks and the operator's blocked dates, by vehicle then start",
  }),
  filters: Type.Object(
    {
      locations: Type.Array(Option),
      categories: Type.Array(Type.String()),
      vendors: Type.Array(Option),
    },
    { description: 'The values the filters can take (every vehicle, not just this window)' },
  ),
});
