import { money } from '../money.js';
import { iso, num } from '../views.js';
import type { BookingRow } from './repo.js';

/** Booking → API (allow-list). */
export function bookingView(b: BookingRow) {
  return {
    id: Number(b.id), reference: b.reference, vehicle_id: Number(b.vehicle_id), customer_id: num(b.customer_id),
    customer_name: b.customer_name, customer_email: b.customer_email, kind: b.kind,
    transfer_route_id: num(b.transfer_route_id), transfer_origin: b.transfer_origin, transfer_destination: b.transfer_destination,
    pickup_location_id: num(b.pickup_location_id), return_location_id: num(b.return_location_id),
    pickup_at: iso(b.pickup_at), return_at: iso(b.return_at), days: b.days,
    price_per_day: money(b.price_per_day), net_price: money(b.net_price), addons_total: money(b.addons_total), tax: money(b.tax),
    total: money(b.total), deposit: money(b.deposit), remaining: money(b.remaining), currency: b.currency,
    payment_status: b.payment_status, payment_method: b.payment_method,
    payment_deadline: b.payment_deadline === null ? null : iso(b.payment_deadline),
    status: b.status, notes: b.notes, created_at: iso(b.created_at), updated_at: iso(b.updated_at),
  };
}
