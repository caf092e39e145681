import type { Platform } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/types.js';
import { mailDeliveryOf } from '../../../platform/mail/delivery.js';
import { mailerOf, type OutgoingMail } from '../../../platform/mail/mailer.js';
import { mailToStore, storeMail, type MailToStore } from '../../../platform/mail/outbox.js';
import { mailSettings } from '../../../platform/mail/settings.js';
import { compose, localTime } from '../../../platform/mail/templates.js';
import type { BookingRow } from './repo.js';
import { iso } from '../views.js';
import { paymentTermRows } from '../payments/terms.js';

type BookingMail =
  | 'booking_created'
  | 'booking_confirmed'
  | 'booking_cancelled'
  | 'payment_received'
  | 'amount_due'
  | 'payment_reminder';

const SUBJECT: Record<BookingMail, string> = {
  booking_created: 'Booking received',
  booking_confirmed: 'Booking confirmed',
  booking_cancelled: 'Booking cancelled',
  payment_received: 'Payment received',
  amount_due: 'Amount due',
  payment_reminder: 'Payment reminder',
};

/** A booking mail's content, greeting `name`. */
function bookingMail(
  p: Platform,
  kind: BookingMail,
  b: BookingRow,
  name: string,
  extra: [string, string][],
): Omit<OutgoingMail, 'to'> {
  const s = mailSettings(p);
  const rows: [string, string][] = [
    ['Reference', b.reference],
    ['Pickup', localTime(iso(b.pickup_at), s.timezone)],
    ['Return', localTime(iso(b.return_at), s.timezone)],
    ['Total', `${Number(b.total).toFixed(2)} ${b.currency}`],
    ['Status', b.status],
    ...paymentTermRows(b, s.timezone),
    ...extra,
  ];
  return { template: kind, ...compose(s, `${SUBJECT[kind]} — ${b.reference}`, `Hello ${name},`, [{ rows }]) };
}

/** A booking mail to its customer (store name, times in the store timezone). Never fails the caller. */
export async function mailBooking(
  p: Platform,
  kind: BookingMail,
  b: BookingRow,
  extra: [string, string][] = [],
): Promise<void> {
  if (!b.customer_email) return;
  await mailerOf(p)
    .send({ to: b.customer_email, ...bookingMail(p, kind, b, b.customer_name || 'there', extra) })
    .catch((err: unknown) => p.log.warn({ err }, 'booking mail failed'));
}

/**
 * The same mail as an outbox row for the booking's own transaction (bookings/create/statement.ts), rendered here for
 * the booking as it is (or, before it exists, as drafted with its customer): null when the customer has no address.
 * The delivery sends it after the commit (SMTP_URL), not before `holdSeconds`.
 */
export function bookingMailToStore(
  p: Platform,
  kind: BookingMail,
  b: BookingRow,
  extra: [string, string][] = [],
  holdSeconds = 0,
): MailToStore | null {
  if (!b.customer_email) return null;
  return mailToStore(
    p,
    { to: b.customer_email, ...bookingMail(p, kind, b, b.customer_name || 'there', extra) },
    holdSeconds,
  );
}

/**
 * A booking mail written by the caller's transaction (stored in the outbox with the change that causes it, so a
 * connection lost after the commit cannot lose it). The answer, when the mail is to be delivered over SMTP, wakes the
 * delivery: for the caller to run after its commit.
 */
export async function bookingMailInTransaction(
  tx: Db,
  p: Platform,
  kind: BookingMail,
  b: BookingRow,
  extra: [string, string][] = [],
): Promise<(() => Promise<void>) | undefined> {
  const mail = bookingMailToStore(p, kind, b, extra);
  if (!mail) return undefined;
  await storeMail(tx, mail, `booking:${b.id}`);
  return mail.status === 'pending' ? async () => mailDeliveryOf(p).nudge() : undefined;
}
