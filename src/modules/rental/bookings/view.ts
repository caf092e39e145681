import { Decimal, money } from '../money.js';
import { iso, num } from '../views.js';
import type { BookingDetailView, BookingView } from './schema.js';
import type { BookingLineRow, BookingPaymentRow, BookingRefsRow, BookingRefundRow, BookingRow } from './repo.js';

/** Booking → API (allow-list). */
export function bookingView(b: BookingRow): BookingView {
  return {
    id: Number(b.id),
    reference: b.reference,
    vehicle_id: Number(b.vehicle_id),
    customer_id: num(b.customer_id),
    customer_name: b.customer_name,
    customer_email: b.customer_email,
    kind: b.kind,
    transfer_route_id: num(b.transfer_route_id),
    transfer_origin: b.transfer_origin,
    transfer_destination: b.transfer_destination,
    pickup_location_id: num(b.pickup_location_id),
    return_location_id: num(b.return_location_id),
    pickup_at: iso(b.pickup_at),
    return_at: iso(b.return_at),
    days: b.days,
    price_per_day: money(b.price_per_day),
    net_price: money(b.net_price),
    addons_total: money(b.addons_total),
    tax: money(b.tax),
    total: money(b.total),
    deposit: money(b.deposit),
    remaining: money(b.remaining),
    currency: b.currency,
    payment_status: b.payment_status,
    payment_method: b.payment_method,
    payment_deadline: b.payment_deadline === null ? null : iso(b.payment_deadline),
    status: b.status,
    notes: b.notes,
    created_at: iso(b.created_at),
    updated_at: iso(b.updated_at),
  };
}

/** What the booking's payments hold (succeeded, less refunds) and what is still due of its total. */
function amountsOf(b: BookingRow, payments: readonly BookingPaymentRow[]) {
  const paid = payments
    .filter((p) => p.status === 'succeeded')
    .reduce((a, p) => a.plus(new Decimal(p.amount).minus(p.refunded_amount)), new Decimal(0));
  // a cancelled or refunded booking owes nothing, whatever its total says
  const due = ['cancelled', 'refunded', 'no_show', 'draft'].includes(b.status)
    ? new Decimal(0)
    : new Decimal(b.total).minus(paid);
  return { amount_paid: money(paid.toFixed(2)), amount_due: money(Decimal.max(due, 0).toFixed(2)) };
}

/** One booking with what it points at, its price lines, payments and refunds (GET /bookings/{id}). */
export function bookingDetailView(
  b: BookingRow,
  refs: BookingRefsRow,
  lines: BookingLineRow[],
  payments: BookingPaymentRow[],
  refunds: BookingRefundRow[],
): BookingDetailView {
  const place = (id: string | number | null, name: string | null) =>
    id === null ? null : { id: Number(id), name: name ?? `#${id}` };
  return {
    ...bookingView(b),
    vehicle: { id: Number(b.vehicle_id), name: refs.vehicle_name ?? `#${b.vehicle_id}` },
    pickup_location: place(b.pickup_location_id, refs.pickup_location_name),
    return_location: place(b.return_location_id, refs.return_location_name),
    lines: lines.map((l) => ({
      kind: l.kind,
      code: l.code,
      description: l.description,
      amount: money(l.amount),
      quantity: Number(l.quantity),
    })),
    ...amountsOf(b, payments),
    payments: payments.map((p) => ({
      id: Number(p.id),
      provider: p.provider,
      method: p.method,
      reference: p.reference,
      amount: money(p.amount),
      currency: p.currency,
      status: p.status,
      refunded_amount: money(p.refunded_amount),
      created_at: iso(p.created_at),
    })),
    refunds: refunds.map((r) => ({
      id: Number(r.id),
      payment_id: Number(r.payment_id),
      amount: money(r.amount),
      currency: r.currency,
      reason: r.reason,
      status: r.status,
      created_at: iso(r.created_at),
      done_at: r.done_at === null ? null : iso(r.done_at),
    })),
  };
}
