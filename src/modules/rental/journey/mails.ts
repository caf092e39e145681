import type { Platform } from '../../../platform/context.js';
import { mailerOf } from '../../../platform/mail/mailer.js';
import { mailSettings } from '../../../platform/mail/settings.js';
import { compose, localTime } from '../../../platform/mail/templates.js';
import type { BookingRow } from '../bookings/repo.js';
import { iso } from '../views.js';

type BookingMail = 'booking_created' | 'booking_confirmed' | 'booking_cancelled' | 'payment_received';

const SUBJECT: Record<BookingMail, string> = {
  booking_created: 'Booking received',
  booking_confirmed: 'Booking confirmed',
  booking_cancelled: 'Booking cancelled',
  payment_received: 'Payment received',
};

/** A booking mail to its customer (store name, times in the store timezone). Never fails the caller. */
export async function mailBooking(p: Platform, kind: BookingMail, b: BookingRow, extra: [string, string][] = []): Promise<void> {
  if (!b.customer_email) return;
  const s = mailSettings(p);
  const rows: [string, string][] = [
    ['Reference', b.reference], ['Pickup', localTime(iso(b.pickup_at), s.timezone)], ['Return', localTime(iso(b.return_at), s.timezone)],
    ['Total', `${Number(b.total).toFixed(2)} ${b.currency}`], ['Status', b.status], ...extra,
  ];
  await mailerOf(p).send({ to: b.customer_email, template: kind, ...compose(s, `${SUBJECT[kind]} — ${b.reference}`, `Hello ${b.customer_name || 'there'},`, [{ rows }]) }).catch((err: unknown) => p.log.warn({ err }, 'booking mail failed'));
}
