import { RentalErrors } from '../errors.js';
import { Decimal } from '../money.js';

/**
 * The largest amount a booking can hold: its money columns, its order's, its payments' and refunds' are
 * numeric(12,2) (migrations 0300, 0520, 0550), so 10 integer digits. A price the catalogue accepts (price_per_day up
 * to 1e9) can add up past it over enough days; such a booking is refused before anything is written.
 */
export const MAX_BOOKING_AMOUNT = new Decimal('9999999999.99');

/** For the OpenAPI descriptions of the routes that price a booking. */
export const AMOUNT_BOUND_DOC =
  'A price whose total or another amount would exceed 9999999999.99 (the booking columns are numeric(12,2)) ' +
  '→ 400 `INVALID_PARAMS` naming it (`details: {field, amount, max}`), before anything is written.';

/** The amounts of a priced booking that are stored, in the order they are checked (the total names the problem first). */
const AMOUNTS = ['total', 'net_price', 'addons_total', 'tax', 'deposit', 'remaining', 'price_per_day'] as const;

type Priced = Partial<Record<(typeof AMOUNTS)[number], unknown>>;

/** The first stored amount of this price that does not fit, or undefined. */
function tooLarge(price: Priced): { field: string; amount: Decimal } | undefined {
  for (const field of AMOUNTS) {
    const v = price[field];
    if (v === undefined || v === null) continue;
    const amount = new Decimal(String(v));
    if (amount.abs().gt(MAX_BOOKING_AMOUNT)) return { field, amount };
  }
  return undefined;
}

/** Does every stored amount of this price fit? */
export function bookingAmountsFit(price: Priced): boolean {
  return tooLarge(price) === undefined;
}

/** 400 INVALID_PARAMS naming the first amount that does not fit the booking's columns (and the largest that does). */
export function assertBookingAmountsFit(price: Priced): void {
  const t = tooLarge(price);
  if (!t) return;
  const amount = t.amount.toFixed(2);
  const max = MAX_BOOKING_AMOUNT.toFixed(2);
  throw RentalErrors.invalidParams(
    `The booking's ${t.field} would be ${amount}, more than the largest amount a booking can hold (${max}): choose fewer days or a cheaper vehicle.`,
    { field: t.field, amount, max },
  );
}
