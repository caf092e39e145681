import type { Platform } from '../../../../platform/context.js';
import { bookingView } from '../view.js';
import { money } from '../../money.js';
import { journeySettings } from '../settings.js';
import { rentalSettings } from '../../settings.js';
import { utcToLocal } from '../../time.js';
import { iso } from '../../views.js';
import type { MyBookingDetail, StoreClock } from './schema.js';
import type { BookingRow } from '../repo.js';
import { balanceOf } from '../balance.js';
import type { customerBookingDetail } from './service.js';

/** A booking's pick-up and return as the store's clock reads them (its time zone), and that zone. */
export function storeClock(p: Platform, b: Pick<BookingRow, 'pickup_at' | 'return_at'>): StoreClock {
  const tz = rentalSettings(p).timezone;
  const pickup = utcToLocal(new Date(iso(b.pickup_at)), tz);
  const ret = utcToLocal(new Date(iso(b.return_at)), tz);
  return {
    pickup_date: pickup.date,
    pickup_time: pickup.time,
    return_date: ret.date,
    return_time: ret.time,
    timezone: tz,
  };
}

/** The customer's booking detail as answered (the account's booking and a guest's manage link alike). */
export function detailView(p: Platform, r: Awaited<ReturnType<typeof customerBookingDetail>>): MyBookingDetail {
  const { b, order, payments, refs, cancellation } = r;
  const bal = balanceOf(b, payments);
  return {
    ...bookingView(b),
    vehicle_name: refs.vehicle_name,
    ...storeClock(p, b),
    cancellation,
    balance: {
      paid: bal.paid.toNumber(),
      due: bal.due.toNumber(),
      currency: b.currency,
      provider: bal.asking?.provider ?? null,
      instructions:
        bal.asking?.provider === 'offline'
          ? `${journeySettings(p).offlineInstructions} Reference: ${b.reference}. Amount due: ${bal.due.toFixed(2)} ${b.currency}.`
          : null,
    },
    order: order ? { payment_plan: order.payment_plan, amount_due: money(order.amount_due), lines: order.lines } : null,
    payments: payments.map((x) => ({
      id: x.id,
      provider: x.provider,
      amount: money(x.amount),
      currency: x.currency,
      status: x.status,
      refunded_amount: money(x.refunded_amount),
    })),
  };
}
