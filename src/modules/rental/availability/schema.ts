import { Type, type Static } from '@sinclair/typebox';
import { RULE_KINDS } from '../pricing/types.js';
import { Instant, lit } from '../schemas.js';

export const UNAVAILABLE_REASONS = [
  'booked',
  'blocked',
  'maintenance',
  'inactive',
  'blocked_date',
  'min_notice',
  'duration',
  'outside_opening_hours',
] as const;

const Moment = Type.Object(
  {
    date: Type.String({ description: 'YYYY-MM-DD (store timezone)' }),
    time: Type.String({ description: 'HH:MM (store timezone)' }),
    at: Instant,
  },
  { additionalProperties: false },
);

/** The pricing engine's breakdown of a quote (also stored with each booking). */
export const PriceBreakdown = Type.Object(
  {
    base: Type.Number({ description: 'days × price_per_day' }),
    weekday_days: Type.Integer(),
    weekend_days: Type.Integer(),
    season_adjustment: Type.Number(),
    weekend_adjustment: Type.Number(),
    rental_subtotal: Type.Number(),
    duration_discount: Type.Number(),
    rental_net: Type.Number(),
    addons: Type.Array(
      Type.Object(
        {
          code: Type.String(),
          name: Type.String(),
          rule_id: Type.Integer(),
          charge: lit(['per_day', 'per_booking']),
          amount: Type.Number({ description: 'Per day or per booking (one unit), by charge' }),
          quantity: Type.Optional(
            Type.Integer({ description: 'Units priced (absent on bookings made before quantities: one)' }),
          ),
          total: Type.Number({ description: 'amount × quantity (× days when per_day)' }),
        },
        { additionalProperties: false },
      ),
    ),
    addons_total: Type.Number({ description: 'The extras chosen (sum of addons)' }),
    one_way_fee: Type.Optional(
      Type.Number({
        description:
          'Charged once when the rental is returned at another location than its pick-up (a one_way pricing rule); also a line of rules. Absent on bookings made before one-way fees.',
      }),
    ),
    rules: Type.Array(
      Type.Object(
        {
          rule_id: Type.Integer(),
          name: Type.String(),
          kind: lit(RULE_KINDS),
          amount: Type.Number(),
          days: Type.Optional(
            Type.Union([Type.Integer(), Type.Null()], {
              description:
                'The days the rule changed (season, weekend, duration tier, per-day add-on); null when charged once. Absent on bookings made before 0.3.0',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { description: 'The rules that changed the price, with what each added (negative = discount)' },
    ),
  },
  { additionalProperties: false },
);

const availabilityFields = {
  available: Type.Boolean(),
  reason: Type.Optional(lit(UNAVAILABLE_REASONS, { description: 'Why not (only when available is false)' })),
  vehicle_id: Type.Integer(),
  pickup: Moment,
  return: Moment,
  days: Type.Integer(),
  price_per_day: Type.Number(),
  net_price: Type.Number(),
  currency: Type.String(),
  breakdown: PriceBreakdown,
  tax_rate: Type.Number({ description: 'Percent' }),
  tax: Type.Number(),
  total: Type.Number(),
  deposit_percent: Type.Number(),
  deposit: Type.Number(),
  remaining: Type.Number({ description: 'total − deposit' }),
};

/** POST /availability: free or why not, and the full price (`availabilityView`). */
export const AvailabilityView = Type.Object(availabilityFields, {
  additionalProperties: false,
  description: 'Availability and price',
});
export type AvailabilityView = Static<typeof AvailabilityView>;

/** POST /booking/check: the availability answer, the locations, and alternatives when the vehicle is not free. */
export const BookingCheckView = Type.Object(
  {
    ...availabilityFields,
    pickup_location_id: Type.Union([Type.Integer(), Type.Null()]),
    return_location_id: Type.Union([Type.Integer(), Type.Null()]),
    extras: Type.Array(
      Type.Object(
        {
          code: Type.String({ description: 'What `addons` names' }),
          name: Type.String({ description: 'As the operator named the rule' }),
          charge: lit(['per_day', 'per_booking']),
          amount: Type.Number({ description: 'One unit, per day or per booking by charge' }),
          max_per_day: Type.Integer({ description: 'The most units one booking may take (1: a yes/no extra)' }),
        },
        { additionalProperties: false },
      ),
      { description: 'The extras (add-on rules) this vehicle offers, most specific rule per code first' },
    ),
    display: Type.Optional(
      Type.Object(
        {
          currency: Type.String({ description: 'The display currency asked for' }),
          total: Type.Number({
            description: '`total` (extras, fees and tax included) as the currency service shows it',
          }),
        },
        {
          additionalProperties: false,
          description:
            'Only when `currency` named an enabled currency other than the store’s: what the visitor sees. The ' +
            'booking is charged `total` in `currency`.',
        },
      ),
    ),
    alternatives: Type.Optional(
      Type.Array(
        Type.Object(
          {
            vehicle_id: Type.Integer(),
            name: Type.String(),
            category: Type.String(),
            price_per_day: Type.Number(),
            total: Type.Number(),
            currency: Type.String(),
          },
          { additionalProperties: false },
        ),
        {
          description: 'Only when the vehicle is not available: up to 3 free vehicles of its category, cheapest first',
        },
      ),
    ),
  },
  { additionalProperties: false, description: 'Booking check' },
);
export type BookingCheckView = Static<typeof BookingCheckView>;
