import type { Platform } from '../../../platform/context.js';
import { AMOUNT_DUE_ROW, PAY_REST_BY_LINK, PAY_REST_IN_ACCOUNT } from './mail-text.js';
import type { Db } from '../../../platform/db/types.js';
import { bookingMailInTransaction } from './mails.js';
import { journeySettings } from './settings.js';
import { emitEvent } from '../../../platform/events/emit.js';
import { applyBookingCommission, reverseBookingCommission } from '../ledger/commission.js';
import {
  insertPendingPayment,
  orderPlanOf,
  paymentsOf,
  setOrderAmounts,
  setPayment,
  type PaymentRow,
} from './create/repo.js';
import { insertRefund } from '../payments/refunds/repo.js';
import { supersedePayments } from '../payments/work-repo.js';
import { Decimal } from '../money.js';
import { assertBookingAmountsFit } from './amount-bound.js';
import type { LockedBooking } from './lock.js';
import { updateBooking, type BookingRow } from './repo.js';
import { paysRestByLink } from './rest-due.js';
import type { PaymentStatus } from './schema.js';

/** What settling a booking's money against its total decided (all in the caller's transaction). */
export interface MoneyBalance {
  /** Refunds owed to the customer (reason booking_repriced), to be delivered after commit (deliverRefunds). */
  refundIds: number[];
  /** Pending payments made for an amount due, to be started with their provider after commit (startDuePayments). */
  duePaymentIds: number[];
  /** Payments superseded by this settling whose intents are to be cancelled after commit (cancelStaleIntents). */
  staleIds: number[];
  refunded: Decimal;
  due: Decimal;
  payment_status: PaymentStatus;
}

/** Statuses whose money is settled by a cancel or refund path, never by a price difference. */
const ENDED = new Set(['cancelled', 'refunded', 'no_show']);

const kept = (pay: PaymentRow) =>
  pay.status === 'succeeded' ? new Decimal(pay.amount).minus(pay.refunded_amount) : new Decimal(0);

/**
 * The one place a booking's paid money is made to match its total, under the booking's lock (`LockedBooking`):
 * called when the price changes (repriceBooking) and when a payment of it succeeds (settlePayment: a payment
 * started for an older, higher price). What was paid beyond the total is refunded from the newest payments
 * (reason booking_repriced; offline refunds are recorded for the staff to pay out); what a fully paid booking's
 * total asks beyond what was paid is due: payment_status `partially_paid`, one pending payment of the difference
 * (the offline one's amount follows, a provider's is started after commit). A deposit booking whose deposit is
 * paid keeps paying the rest as before. Nothing paid yet: the pending offline payment and the order ask what the
 * plan asks of the new total. Bookings without payment records (operator bookings paid at the desk) only get
 * their order (none) followed.
 */
export async function balanceBookingMoney(tx: Db, b: LockedBooking): Promise<MoneyBalance> {
  const id = Number(b.id);
  const out: MoneyBalance = {
    refundIds: [],
    duePaymentIds: [],
    staleIds: [],
    refunded: new Decimal(0),
    due: new Decimal(0),
    payment_status: b.payment_status,
  };
  if (ENDED.has(b.status)) return out;
  const pays = await paymentsOf(tx, id, true);
  const total = new Decimal(b.total);
  const plan = (await orderPlanOf(tx, id)) ?? 'full';
  let net = pays.reduce((a, x) => a.plus(kept(x)), new Decimal(0));
  if (net.gt(total)) {
    let left = net.minus(total);
    for (const pay of pays.filter((x) => kept(x).gt(0)).reverse()) {
      const part = Decimal.min(left, kept(pay));
      if (!part.gt(0)) break;
      const refunded = new Decimal(pay.refunded_amount).plus(part);
      await setPayment(tx, pay.id, {
        status: refunded.eq(pay.amount) ? 'refunded' : 'succeeded',
        refunded_amount: refunded.toFixed(2),
      });
      const refundId = await insertRefund(tx, {
        paymentId: pay.id,
        bookingId: id,
        amount: part.toFixed(2),
        currency: pay.currency,
        reason: 'booking_repriced',
      });
      if (refundId !== null) out.refundIds.push(refundId);
      out.refunded = out.refunded.plus(part);
      left = left.minus(part);
    }
    net = total;
  }
  const pendingOffline = pays.find((x) => x.status === 'pending' && x.provider === 'offline');
  let ask: Decimal | undefined; // what the order asks now, when this settling changed it
  if (net.isZero()) {
    // nothing paid yet: the plan's first payment of the new total
    ask =
      plan === 'deposit' && new Decimal(b.deposit).gt(0) && new Decimal(b.remaining).gt(0)
        ? new Decimal(b.deposit)
        : total;
    if (pendingOffline) await setPayment(tx, pendingOffline.id, { amount: ask.toFixed(2) });
  } else if (net.gte(total) || (plan === 'deposit' && b.payment_status === 'deposit_paid')) {
    if (out.refunded.gt(0) || b.payment_status === 'partially_paid') ask = new Decimal(0);
    if (net.gte(total)) out.payment_status = 'paid';
    // nothing is asked any more: an amount due asked through a provider is cancelled there
    if (pendingOffline) await setPayment(tx, pendingOffline.id, { status: 'failed' });
    out.staleIds.push(
      ...(await supersedePayments(
        tx,
        pays.filter((x) => x.provider !== 'offline'),
      )),
    );
  } else {
    const due = (ask = out.due = total.minus(net));
    out.payment_status = 'partially_paid';
    const pendingSame = pays.find((x) => x.status === 'pending' && new Decimal(x.amount).eq(due));
    // an intent asking an earlier amount due is superseded by the one asking this (cancelled at its provider)
    out.staleIds.push(
      ...(await supersedePayments(
        tx,
        pays.filter((x) => x.provider !== 'offline' && x !== pendingSame),
      )),
    );
    if (pendingOffline) await setPayment(tx, pendingOffline.id, { amount: due.toFixed(2) });
    else if (!pendingSame) {
      // asked through the provider the customer paid with (a stripe payment still pending for another amount is
      // reconciled when it succeeds: what it brings beyond the total is refunded then)
      const last = pays.filter((x) => x.status === 'succeeded' || x.status === 'refunded').at(-1)!;
      const payId = await insertPendingPayment(tx, {
        bookingId: id,
        provider: last.provider,
        amount: due.toFixed(2),
        currency: b.currency,
      });
      if (last.provider !== 'offline') out.duePaymentIds.push(payId);
    }
  }
  if (ask) await setOrderAmounts(tx, id, total.toFixed(2), ask.toFixed(2));
  if (out.payment_status !== b.payment_status) await updateBooking(tx, id, { payment_status: out.payment_status });
  return out;
}

/**
 * Changes a booking's price (new dates, vehicle, extras or an operator's price) — every such change goes through
 * here, under the booking's lock: the new fields are written (refused with 400 when an amount does not fit the
 * booking's columns), the paid money is settled against the new total (balanceBookingMoney), a completed booking's
 * vendor commission follows the new total (reversed and posted again), and `booking.repriced` records the
 * difference. The caller delivers `money.refundIds`, starts `money.duePaymentIds` and cancels `money.staleIds` after
 * commit.
 */
export async function repriceBooking(
  p: Platform,
  tx: Db,
  locked: LockedBooking,
  change: Record<string, unknown>,
  opts: { tellsDue?: boolean } = {},
): Promise<{ booking: BookingRow; money: MoneyBalance; mailAfterCommit?: () => Promise<void> }> {
  assertBookingAmountsFit(change);
  const booking = (await updateBooking(tx, Number(locked.id), change)) as LockedBooking;
  const before = new Decimal(locked.total);
  if (before.eq(booking.total)) return { booking, money: await balanceBookingMoney(tx, booking) };
  if (booking.status === 'completed' && (await reverseBookingCommission(tx, booking, 'repriced')))
    await applyBookingCommission(tx, booking);
  const money = await balanceBookingMoney(tx, booking);
  await emitEvent(tx, 'booking.repriced', {
    booking_id: Number(booking.id),
    previous_total: before.toFixed(2),
    total: new Decimal(booking.total).toFixed(2),
    currency: booking.currency,
    refunded: money.refunded.toFixed(2),
    due: money.due.toFixed(2),
    payment_status: money.payment_status,
  });
  const now: BookingRow =
    money.payment_status === booking.payment_status ? booking : { ...booking, payment_status: money.payment_status };
  // a caller that mails the change itself says what is due in that one mail (dueRows), not in a second one
  const ask = money.due.gt(0) && !opts.tellsDue;
  return { booking: now, money, mailAfterCommit: ask ? await askForDue(p, tx, now, money.due) : undefined };
}

/**
 * What the new price asks of the customer and how to pay it, as rows of a booking mail (read in the change's
 * transaction: the pending offline payment says it is asked offline).
 */
export async function dueRows(p: Platform, tx: Db, b: BookingRow, due: Decimal): Promise<[string, string][]> {
  const total = new Decimal(b.total);
  const amount = (d: Decimal) => `${d.toFixed(2)} ${b.currency}`;
  const offline = (await paymentsOf(tx, Number(b.id))).some((x) => x.status === 'pending' && x.provider === 'offline');
  // a guest has no account to pay in: the mail's manage link opens the booking and its "pay the rest"
  const guest = await paysRestByLink(tx, b);
  const how = offline
    ? `${journeySettings(p).offlineInstructions} Reference: ${b.reference}. Amount due: ${amount(due)}.`
    : guest
      ? PAY_REST_BY_LINK
      : PAY_REST_IN_ACCOUNT;
  return [
    ['Paid', amount(total.minus(due))],
    [AMOUNT_DUE_ROW, amount(due)],
    ['How to pay', how],
  ];
}

/** The customer is told what the new price asks of them, and how to pay it, in the change's transaction. */
async function askForDue(p: Platform, tx: Db, b: BookingRow, due: Decimal) {
  return bookingMailInTransaction(tx, p, 'amount_due', b, await dueRows(p, tx, b, due));
}
