import { Type, type Static } from '@sinclair/typebox';
import { BookingView, PAYMENT_STATUSES } from '../schema.js';
import { DateStr, Id, Instant, lit, Nullable, TimeStr } from '../../schemas.js';

const VehicleName = Nullable(Type.String({ description: 'The vehicle’s name (null when it was deleted)' }));

/**
 * A booking's pick-up and return as the store's clock reads them, beside the UTC instants: a rental desk works on
 * its own clock (what the customer sees, what a change of dates starts from), in the list and the detail alike.
 */
const StoreClock = {
  pickup_date: Type.String({
    pattern: DateStr.pattern,
    description: 'The pick-up’s date in the store’s time zone (YYYY-MM-DD)',
  }),
  pickup_time: Type.String({
    pattern: TimeStr.pattern,
    description: 'The pick-up’s time in the store’s time zone (HH:MM, 24 h)',
  }),
  return_date: Type.String({
    pattern: DateStr.pattern,
    description: 'The return’s date in the store’s time zone (YYYY-MM-DD)',
  }),
  return_time: Type.String({
    pattern: TimeStr.pattern,
    description: 'The return’s time in the store’s time zone (HH:MM, 24 h)',
  }),
  timezone: Type.String({
    description:
      'The store’s time zone (IANA, STORE_TIMEZONE) the four fields above are in: a page can name it when the ' +
      'visitor’s differs',
  }),
};
export type StoreClock = { [K in keyof typeof StoreClock]: string };

/** One of the signed-in customer's bookings in their list (GET /my/bookings). */
export const MyBookingItem = Type.Object(
  { ...BookingView.properties, vehicle_name: VehicleName, ...StoreClock },
  { additionalProperties: false, description: 'My booking' },
);
export type MyBookingItem = Static<typeof MyBookingItem>;

export const CancelQuote = Type.Object(
  {
    cancellable: Type.Boolean({
      description: 'The status allows a customer cancellation (pending_payment, pending, confirmed)',
    }),
    free_cancellation_until: Type.String({
      format: 'date-time',
      description: 'ISO-8601 UTC: BOOKING_FREE_CANCEL_HOURS before pickup',
    }),
    free: Type.Boolean({ description: 'Cancelling now costs nothing' }),
    fee: Type.Number({
      description:
        'What would be kept if cancelled now (BOOKING_CANCEL_FEE_PERCENT of what was paid after the deadline)',
    }),
    refund: Type.Number({ description: 'What would be refunded if cancelled now' }),
    currency: Type.String(),
  },
  {
    additionalProperties: false,
    description: 'What a cancellation would cost now (the cancel route decides again under the booking lock)',
  },
);

export const OrderLineView = Type.Object(
  {
    kind: lit(['rental', 'addon', 'fee', 'tax', 'deposit', 'full']),
    code: Nullable(Type.String()),
    description: Type.String(),
    amount: Type.Number(),
    quantity: Type.Optional(Type.Integer({ description: 'Units of an extra (add-on lines); 1 otherwise' })),
  },
  { additionalProperties: false },
);

export const Balance = Type.Object(
  {
    paid: Type.Number({ description: 'What the customer paid and was not refunded' }),
    due: Type.Number({
      description:
        'What the customer may pay now: the rest after a price change (payment_status partially_paid), the rest ' +
        'after a deposit (deposit_paid, otherwise due at pick-up), or what an unpaid reservation paid at pick-up or ' +
        'by bank transfer asks (the total or the deposit, payable by card before), else 0',
    }),
    currency: Type.String(),
    provider: Nullable(lit(['offline', 'stripe']), {
      description: 'How the amount due is asked now (null when nothing is due or not asked yet)',
    }),
    instructions: Nullable(Type.String(), {
      description: 'How to pay the amount due offline (when it is asked offline)',
    }),
  },
  {
    additionalProperties: false,
    description:
      'Paid and due; pay the rest with POST /my/bookings/{id}/pay-due (with a manage link: POST /guest/manage/pay-due)',
  },
);

/** The body of "pay the rest" (the account's and the manage link's). */
export const PayDueBody = Type.Optional(
  Type.Object(
    {
      payment_method: Type.Optional(
        lit(['offline', 'stripe'], { description: 'How to pay the amount due (default: how it is asked now)' }),
      ),
    },
    { additionalProperties: false },
  ),
);

/** POST /my/bookings/{id}/pay-due: the payment asked for the amount due. */
export const DuePayment = Type.Object(
  {
    booking_id: Type.Integer(),
    payment_id: Type.Integer(),
    provider: lit(['offline', 'stripe']),
    amount: Type.Number(),
    currency: Type.String(),
    client_secret: Type.Optional(
      Type.String({ description: 'stripe: confirm this PaymentIntent with Stripe.js; the signed webhook settles it' }),
    ),
    instructions: Type.Optional(Type.String({ description: 'offline: how to pay' })),
  },
  { additionalProperties: false },
);

/** GET /my/bookings/{id}: the booking, its order, payments, balance and what cancelling it now would cost. */
export const MyBookingDetail = Type.Object(
  {
    ...BookingView.properties,
    vehicle_name: VehicleName,
    // the instants above are UTC; a change of dates is asked in the store's calendar (MyChangeBody): these prefill it
    ...StoreClock,
    cancellation: CancelQuote,
    balance: Balance,
    order: Nullable(
      Type.Object(
        {
          payment_plan: lit(['deposit', 'full']),
          amount_due: Type.Number({ description: 'What the order asked to pay when it was made' }),
          lines: Type.Array(OrderLineView),
        },
        { additionalProperties: false, description: 'null for a booking made by the operator' },
      ),
    ),
    payments: Type.Array(
      Type.Object(
        {
          id: Type.Integer(),
          provider: lit(['offline', 'stripe']),
          amount: Type.Number(),
          currency: Type.String(),
          status: lit(['pending', 'succeeded', 'failed', 'refunded', 'cancelled']),
          refunded_amount: Type.Number(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: 'My booking in detail' },
);
export type MyBookingDetail = Static<typeof MyBookingDetail>;

/** POST /my/bookings/{id}/cancel. */
export const MyCancellation = Type.Object(
  {
    booking: BookingView,
    fee: Type.Number({ description: 'What was kept' }),
    refund: Type.Number({ description: 'What is refunded through the payment’s provider' }),
    free_cancellation_until: Instant,
  },
  { additionalProperties: false },
);
export type MyCancellation = Static<typeof MyCancellation>;

/** POST /my/bookings/{id}/change and its quote: the new dates and times, optionally another vehicle. */
export const MyChangeBody = Type.Object(
  {
    pickup_date: DateStr,
    return_date: DateStr,
    pickup_time: Type.Optional(TimeStr),
    return_time: Type.Optional(TimeStr),
    vehicle_id: Type.Optional(
      Id({
        description: 'Another vehicle of the same category (default: the booking’s own); 400 for another category',
      }),
    ),
  },
  { additionalProperties: false },
);

/** What a change of dates or vehicle costs (quote) or cost (change). */
export const MyChange = Type.Object(
  {
    booking: BookingView,
    vehicle_name: VehicleName,
    vehicle_category: Type.String({ description: 'The category another vehicle of the change must be of' }),
    previous_total: Type.Number({ description: 'The total before the change' }),
    total: Type.Number({ description: 'The total after the change (with the change fee, if one is kept)' }),
    difference: Type.Number({ description: 'total − previous_total' }),
    fee: Type.Number({
      description:
        'Kept of what a cheaper change refunds after the free-cancellation deadline (BOOKING_CANCEL_FEE_PERCENT, as a cancellation)',
    }),
    refund: Type.Number({ description: 'Refunded of what was paid, through the payment’s provider' }),
    due: Type.Number({ description: 'Asked beyond what was paid: pay it with POST /my/bookings/{id}/pay-due' }),
    payment_status: lit(PAYMENT_STATUSES),
    currency: Type.String(),
    lines: Type.Array(
      Type.Object(
        {
          kind: lit(['rental', 'addon', 'tax', 'change_fee']),
          code: Nullable(Type.String()),
          description: Type.String(),
          amount: Type.Number(),
        },
        { additionalProperties: false },
      ),
      { description: 'The new price lines' },
    ),
  },
  { additionalProperties: false, description: 'A change of dates or vehicle' },
);
export type MyChange = Static<typeof MyChange>;
