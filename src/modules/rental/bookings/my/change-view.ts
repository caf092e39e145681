import { rentalOk } from '../../../../platform/http/namespaces.js';
import { bookingView } from '../view.js';
import type { MyChangeOutcome } from './change.js';
import type { MyChange } from './schema.js';

/** The answer's view of a customer's change (the account's routes and the manage link's share it). */
export const changeView = (o: MyChangeOutcome): MyChange => ({
  booking: bookingView(o.booking),
  vehicle_name: o.vehicle_name,
  vehicle_category: o.vehicle_category,
  previous_total: o.previous_total.toNumber(),
  total: o.total.toNumber(),
  difference: o.total.minus(o.previous_total).toNumber(),
  fee: o.fee.toNumber(),
  refund: o.refund.toNumber(),
  due: o.due.toNumber(),
  payment_status: o.payment_status,
  currency: o.booking.currency,
  lines: o.lines,
});

/** The envelope of a change done, its message saying what happens to the money. */
export const changedAnswer = (o: MyChangeOutcome) =>
  rentalOk(
    changeView(o),
    o.due.gt(0)
      ? 'Booking changed; the difference is due.'
      : o.refund.gt(0)
        ? 'Booking changed; the difference is refunded.'
        : 'Booking changed.',
  );

/** The customer's change rules, for the routes' descriptions. */
export const CHANGE_RULES =
  'Allowed for a rental in `pending_payment`, `pending` or `confirmed` whose pick-up time has not come (else 409 ' +
  '`STATE_CONFLICT`); another vehicle only of the same category (else 400). The new dates are checked like a new ' +
  "booking's (409 `VEHICLE_NOT_AVAILABLE` with its reason: booked, blocked, minimum notice, opening hours…) and " +
  'priced by the same engine. A dearer change of a paid booking makes the difference due (`payment_status` ' +
  '`partially_paid`; pay it with POST /my/bookings/{id}/pay-due, with a manage link POST /guest/manage/pay-due); ' +
  'a cheaper one refunds the overpaid part, free until the free-cancellation deadline (BOOKING_FREE_CANCEL_HOURS ' +
  'before the pick-up), after it ' +
  'BOOKING_CANCEL_FEE_PERCENT of the refund is kept as a change fee. An unpaid booking just asks its new total. ';
