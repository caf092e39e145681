import { Type } from '@sinclair/typebox';

export const DeltaSchema = Type.Object(
  {
    format: Type.Union([Type.Literal('pct'), Type.Literal('abs'), Type.Literal('neutral')]),
    value: Type.Number(),
    direction: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('none')]),
  },
  { description: 'Month-over-month change: pct = percentage vs last month; abs = last month was 0; neutral = both 0' },
);

export const StatusCount = Type.Object({
  status: Type.String(),
  label: Type.String(),
  count: Type.Integer(),
  dot: Type.String(),
});

export const DashboardStats = Type.Object({
  total_bookings: Type.Integer({ description: 'All bookings except drafts' }),
  bookings_this_month: Type.Integer(),
  bookings_last_month: Type.Integer(),
  revenue: Type.Number({ description: 'Σ total of confirmed + completed bookings (all time)' }),
  revenue_this_month: Type.Number(),
  revenue_last_month: Type.Number(),
  active_vehicles: Type.Integer({ description: 'Vehicles with status active' }),
  active_vehicles_last_month: Type.Integer({ description: 'Active vehicles that existed before this month started' }),
  customers: Type.Integer({ description: 'Distinct customers with a booking created this month' }),
  customers_last_month: Type.Integer(),
  deltas: Type.Object({
    total_bookings: DeltaSchema,
    revenue: DeltaSchema,
    active_vehicles: DeltaSchema,
    customers: DeltaSchema,
  }),
  status_breakdown: Type.Array(StatusCount, {
    description: 'Bookings per status (drafts excluded), count desc; counts sum to total_bookings',
  }),
  month: Type.String({ description: 'This month in the store time zone, YYYY-MM' }),
  timezone: Type.String(),
  currency: Type.String(),
});

export const RecentBooking = Type.Object({
  id: Type.Integer(),
  reference: Type.String(),
  kind: Type.String(),
  status: Type.String(),
  status_label: Type.String(),
  customer_id: Type.Union([Type.Integer(), Type.Null()]),
  customer_name: Type.String(),
  customer_email: Type.String(),
  vehicle_id: Type.Union([Type.Integer(), Type.Null()]),
  vehicle_name: Type.String(),
  pickup_at: Type.String(),
  return_at: Type.Union([Type.String(), Type.Null()]),
  total: Type.Number(),
  currency: Type.String(),
  created_at: Type.String(),
});

export const RecentTransfer = Type.Object({
  id: Type.Integer(),
  reference: Type.String(),
  passengers: Type.Union([Type.Integer(), Type.Null()]),
  status: Type.String(),
  status_label: Type.String(),
  customer_name: Type.String(),
  vehicle_id: Type.Union([Type.Integer(), Type.Null()]),
  vehicle_name: Type.String(),
  origin_id: Type.Union([Type.Integer(), Type.Null()]),
  origin_name: Type.String(),
  destination_id: Type.Union([Type.Integer(), Type.Null()]),
  destination_name: Type.String(),
  pickup_at: Type.String({ description: 'ISO-8601 UTC' }),
  total: Type.Number(),
  currency: Type.String(),
});
