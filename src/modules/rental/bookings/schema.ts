import { Type, type Static } from '@sinclair/typebox';
import { Instant, lit, Nullable } from '../schemas.js';
import { BOOKING_STATUSES } from './status.js';

export const BOOKING_KINDS = ['rental', 'transfer'] as const;
export const PAYMENT_STATUSES = [
  'unpaid',
  'deposit_paid',
  'partially_paid',
  'paid',
  'refunded',
  'partially_refunded',
  'failed',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

const Money = (description?: string) => Type.Number({ description: description ?? 'In the booking’s currency' });

/** A booking as the booking routes answer it (`bookingView`): list items, create, edit, status moves, payments. */
export const BookingView = Type.Object(
  {
    id: Type.Integer(),
    reference: Type.String(),
    vehicle_id: Type.Integer(),
    customer_id: Nullable(Type.Integer({ description: 'null once the customer was deleted (booking anonymised)' })),
    customer_name: Type.String(),
    customer_email: Type.String(),
    kind: lit(BOOKING_KINDS),
    transfer_route_id: Nullable(Type.Integer()),
    transfer_origin: Nullable(Type.String()),
    transfer_destination: Nullable(Type.String()),
    pickup_location_id: Nullable(Type.Integer()),
    return_location_id: Nullable(Type.Integer()),
    pickup_at: Instant,
    return_at: Instant,
    days: Type.Integer(),
    price_per_day: Money(),
    net_price: Money('Rental price before add-ons and tax'),
    addons_total: Money('Extras and the one-way fee'),
    tax: Money(),
    total: Money(),
    deposit: Money(),
    remaining: Money('total − deposit'),
    currency: Type.String(),
    payment_status: lit(PAYMENT_STATUSES),
    payment_method: Nullable(Type.String()),
    payment_deadline: Nullable(
      Type.String({ format: 'date-time', description: 'Unpaid pending bookings hold their slot until then' }),
    ),
    status: lit(BOOKING_STATUSES),
    notes: Type.String(),
    created_at: Instant,
    updated_at: Instant,
  },
  { additionalProperties: false, description: 'Booking' },
);
export type BookingView = Static<typeof BookingView>;

const Named = Type.Object({ id: Type.Integer(), name: Type.String() }, { additionalProperties: false });

export const BookingLineView = Type.Object(
  {
    kind: Type.String(),
    code: Nullable(Type.String()),
    description: Type.String(),
    amount: Type.Number(),
    quantity: Type.Integer({ description: 'Units of an extra (add-on lines); 1 otherwise' }),
  },
  { additionalProperties: false },
);

/** GET /bookings/{id}: the booking's own fields plus names, price lines, payments and refunds (`bookingDetailView`). */
export const BookingDetailView = Type.Object(
  {
    ...BookingView.properties,
    vehicle: Type.Object(
      { id: Type.Integer(), name: Type.String({ description: '`#id` when the vehicle was deleted' }) },
      { additionalProperties: false },
    ),
    pickup_location: Nullable(Named),
    return_location: Nullable(Named),
    lines: Type.Array(BookingLineView, {
      description: 'Order lines of a booking made through the customer journey; empty for operator bookings',
    }),
    amount_paid: Type.Number({ description: "What the booking's payments hold (succeeded, less refunds)" }),
    amount_due: Type.Number({ description: 'What is still due of the total (0 for a cancelled booking)' }),
    payments: Type.Array(
      Type.Object(
        {
          id: Type.Integer(),
          provider: Type.String(),
          method: Nullable(Type.String({ description: "A desk payment's method (cash, card_terminal, …)" })),
          reference: Nullable(Type.String({ description: "A desk payment's receipt or transfer reference" })),
          amount: Type.Number(),
          currency: Type.String(),
          status: Type.String(),
          refunded_amount: Type.Number(),
          created_at: Instant,
        },
        { additionalProperties: false },
      ),
    ),
    refunds: Type.Array(
      Type.Object(
        {
          id: Type.Integer(),
          payment_id: Type.Integer(),
          amount: Type.Number(),
          currency: Type.String(),
          reason: Type.String(),
          status: Type.String(),
          created_at: Instant,
          done_at: Nullable(Type.String({ format: 'date-time' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: 'Booking detail' },
);
export type BookingDetailView = Static<typeof BookingDetailView>;

/** A bigint reference as the code holds it: a number, or the text PostgreSQL's driver hands back for a bigint. */
const RefId = Type.Union([Type.Integer(), Type.String({ pattern: '^[0-9]+$' })]);
/** A money column: decimal text, or a number of major units that has at most two decimals. */
const Amount = Type.Union([Type.String(), Type.Number()]);

/**
 * The columns a booking INSERT (or UPDATE) sets: decimals as text, instants as ISO text; the database fills the
 * rest with its defaults (pending_payment, unpaid, EUR, 0).
 */
export const BookingColumns = Type.Object(
  {
    reference: Type.String(),
    vehicle_id: RefId,
    customer_id: Type.Optional(Nullable(RefId)),
    customer_name: Type.Optional(Type.String()),
    customer_email: Type.Optional(Type.String()),
    customer_phone: Type.Optional(Type.String()),
    kind: Type.Optional(lit(BOOKING_KINDS)),
    transfer_route_id: Type.Optional(Nullable(RefId)),
    transfer_origin: Type.Optional(Nullable(Type.String())),
    transfer_destination: Type.Optional(Nullable(Type.String())),
    passengers: Type.Optional(Nullable(Type.Integer())),
    pickup_location_id: Type.Optional(Nullable(RefId)),
    return_location_id: Type.Optional(Nullable(RefId)),
    pickup_at: Type.String(),
    return_at: Type.String(),
    days: Type.Integer(),
    price_per_day: Type.Optional(Amount),
    net_price: Type.Optional(Amount),
    addons_total: Type.Optional(Amount),
    tax: Type.Optional(Amount),
    total: Type.Optional(Amount),
    deposit: Type.Optional(Amount),
    remaining: Type.Optional(Amount),
    currency: Type.Optional(Type.String()),
    addons: Type.Optional(Type.Unknown({ description: 'The chosen add-ons as priced (jsonb array)' })),
    breakdown: Type.Optional(Nullable(Type.Unknown({ description: 'The pricing engine’s breakdown (jsonb)' }))),
    payment_status: Type.Optional(lit(PAYMENT_STATUSES)),
    payment_method: Type.Optional(Nullable(Type.String())),
    payment_deadline: Type.Optional(Nullable(Type.String())),
    status: Type.Optional(lit(BOOKING_STATUSES)),
    cancel_reason: Type.Optional(Nullable(Type.String())),
    cancelled_by: Type.Optional(Nullable(lit(['customer', 'vendor', 'admin', 'system']))),
    cancelled_at: Type.Optional(Nullable(Type.String())),
    buffer_minutes: Type.Optional(Type.Integer()),
    notes: Type.Optional(Type.String()),
    source: Type.Optional(Type.String()),
    created_at: Type.Optional(Type.String()),
    updated_at: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type BookingInsert = Static<typeof BookingColumns>;
export type BookingUpdate = Partial<Omit<BookingInsert, 'created_at' | 'updated_at'>>;
/** What the kind of a new booking decides (its times and price), before its customer and terms are added. */
export type BookingPriceColumns = Omit<BookingInsert, 'reference' | 'vehicle_id'>;
