import { Type, type TSchema } from '@sinclair/typebox';

export const RangeQuery = Type.Object({
  start_date: Type.Optional(
    Type.String({ description: 'YYYY-MM-DD in the store time zone (default: end_date − 29 days)' }),
  ),
  end_date: Type.Optional(
    Type.String({ description: 'YYYY-MM-DD in the store time zone, inclusive (default: today)' }),
  ),
});

const Range = {
  report: Type.String(),
  start_date: Type.String(),
  end_date: Type.String(),
  days: Type.Integer({ description: 'Calendar days in the range, both ends included' }),
  timezone: Type.String(),
  currency: Type.String(),
};

export const report = <T extends Record<string, TSchema>>(fields: T) => Type.Object({ ...Range, ...fields });

export const RevenueSummary = Type.Object({
  total: Type.Number({ description: 'Σ total of confirmed + completed bookings created in the range' }),
  avg_daily: Type.Number({ description: 'total / calendar days of the range' }),
  bookings: Type.Integer({ description: 'Number of confirmed + completed bookings' }),
  cancelled_total: Type.Number({ description: 'Σ total of cancelled bookings' }),
});

export const RevenueFields = {
  ...RevenueSummary.properties,
  series: Type.Array(
    Type.Object({ date: Type.String(), revenue: Type.Number(), bookings: Type.Integer(), cancelled: Type.Number() }),
    {
      description: 'Every day of the range, zero days included',
    },
  ),
  by_payment_method: Type.Array(
    Type.Object({ method: Type.String(), revenue: Type.Number(), count: Type.Integer(), percentage: Type.Number() }),
  ),
  monthly: Type.Array(Type.Object({ month: Type.String(), revenue: Type.Number(), bookings: Type.Integer() })),
};

export const BookingsSummary = Type.Object({
  total: Type.Integer({ description: 'Bookings created in the range (drafts excluded)' }),
  cancelled: Type.Integer(),
  cancellation_rate: Type.Number({ description: 'cancelled / total × 100, 2 decimals' }),
  conversion_rate: Type.Number({
    description: 'bookings that reached confirmed, in_progress or completed / total × 100',
  }),
  avg_duration_days: Type.Number({ description: 'Mean rental days, 1 decimal' }),
});

export const BookingsFields = {
  ...BookingsSummary.properties,
  status_distribution: Type.Array(
    Type.Object({ status: Type.String(), label: Type.String(), count: Type.Integer(), percentage: Type.Number() }),
  ),
  daily: Type.Array(Type.Object({ date: Type.String(), bookings: Type.Integer(), cancelled: Type.Integer() }), {
    description: 'Every day of the range',
  }),
  by_kind: Type.Array(Type.Object({ kind: Type.String(), count: Type.Integer() })),
};

export const VehiclesSummary = Type.Object({
  total_vehicles: Type.Integer(),
  active_vehicles: Type.Integer({ description: 'Vehicles with status active' }),
  vehicles_booked: Type.Integer({ description: 'Vehicles occupied at least once in the range' }),
  avg_occupancy_rate: Type.Number({ description: 'Fleet occupancy: Σ booked days / (vehicles × days) × 100' }),
  total_revenue: Type.Number(),
});

export const VehiclesFields = {
  top_vehicles: Type.Array(
    Type.Object({
      vehicle_id: Type.Integer(),
      name: Type.String(),
      category: Type.String(),
      bookings: Type.Integer(),
      revenue: Type.Number(),
      avg_revenue_per_booking: Type.Number(),
    }),
    { description: 'At most 10, by revenue' },
  ),
  occupancy: Type.Array(
    Type.Object({
      vehicle_id: Type.Integer(),
      name: Type.String(),
      booked_days: Type.Number(),
      total_days: Type.Integer(),
      occupancy_rate: Type.Number(),
    }),
    { description: 'At most 10 vehicles, highest occupancy first' },
  ),
  category_performance: Type.Array(
    Type.Object({
      category: Type.String(),
      vehicles: Type.Integer(),
      bookings: Type.Integer(),
      revenue: Type.Number(),
    }),
  ),
  summary: VehiclesSummary,
};

export const CustomersSummary = Type.Object({
  total_customers: Type.Integer({ description: 'Distinct customers with a booking created in the range' }),
  new_customers: Type.Integer({ description: 'Whose first booking ever falls in the range' }),
  returning_customers: Type.Integer({ description: 'Who had booked before the range' }),
  repeat_customers: Type.Integer({ description: 'With 2 or more bookings in the range' }),
  loyalty_rate: Type.Number({ description: 'repeat / total × 100, 1 decimal' }),
  avg_spending: Type.Number(),
  total_revenue: Type.Number({
    description: 'Σ total of confirmed, in_progress and completed bookings of these customers in the range',
  }),
});

export const CustomersFields = {
  lifecycle: Type.Array(Type.Object({ date: Type.String(), new: Type.Integer(), returning: Type.Integer() }), {
    description: 'Every day of the range',
  }),
  segments: Type.Object(
    { vip: Type.Integer(), regular: Type.Integer(), new: Type.Integer() },
    { description: 'By spend in the range: vip ≥ 5000, regular ≥ 1000, new below' },
  ),
  top_customers: Type.Array(
    Type.Object({
      customer_id: Type.Integer(),
      name: Type.String(),
      email: Type.String(),
      bookings: Type.Integer(),
      total_spent: Type.Number(),
    }),
  ),
  summary: CustomersSummary,
};

export const OverviewFields = {
  revenue: RevenueSummary,
  bookings: BookingsSummary,
  vehicles: VehiclesSummary,
  customers: CustomersSummary,
};
