import type { Platform } from '../../../platform/context.js';
import { rowsPreparedText } from '../../../platform/db/prepared.js';
import type { Db } from '../../../platform/db/types.js';
import { mailerOf, RECIPIENT_NAME, storedMailsWith, type OutgoingMail } from '../../../platform/mail/mailer.js';
import { mailSettings } from '../../../platform/mail/settings.js';
import { compose, localTime } from '../../../platform/mail/templates.js';
import type { BookingRow } from '../bookings/repo.js';
import { iso } from '../views.js';
import { paymentTermRows } from './payment-terms.js';

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

/** A booking mail's content, greeting `name` (the customer's, or RECIPIENT_NAME when the statement fills it in). */
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
 * The same mail as a write of the bookings' own statement (`bookVehiclesAtOnce`: the bookings are `b`, their data
 * `i.x`, this mail `i.x->'mail'`; the customer is read in it): the mail costs no statement of its own. Undefined when
 * mail goes over SMTP (then `mailBooking` after the write).
 */
export function bookingMailWithBooking(
  p: Platform,
  kind: BookingMail,
  draft: BookingRow,
  extra: [string, string][] = [],
): { cte: string; data: Omit<OutgoingMail, 'to'> } | undefined {
  const cte = storedMailsWith(p, {
    from: "b JOIN i ON i.ref = b.reference WHERE b.customer_email <> '' ORDER BY i.k",
    mail: "(i.x->'mail')",
    to: 'b.customer_email',
    name: "COALESCE(NULLIF(b.customer_name, ''), 'there')",
  });
  return cte === undefined
    ? undefined
    : { cte: `mail AS (${cte})`, data: bookingMail(p, kind, draft, RECIPIENT_NAME, extra) };
}

/**
 * A booking mail written by the caller's transaction (stored in the outbox with the change that causes it, so a
 * connection lost after the commit cannot lose it). When mail goes over SMTP nothing can be stored: the answer is the
 * send, for the caller to run after its commit.
 */
export async function bookingMailInTransaction(
  tx: Db,
  p: Platform,
  kind: BookingMail,
  b: BookingRow,
  extra: [string, string][] = [],
): Promise<(() => Promise<void>) | undefined> {
  const mail = bookingMailWithBooking(p, kind, b, extra);
  if (!mail) return () => mailBooking(p, kind, b, extra);
  await rowsPreparedText(
    tx,
    `WITH b AS (SELECT 'b'::text AS reference, $1::text AS customer_email, $2::text AS customer_name),
    i AS (SELECT 0 AS k, 'b'::text AS ref, $3::jsonb AS x), ${mail.cte} SELECT 1`,
    [b.customer_email ?? '', b.customer_name ?? '', JSON.stringify({ mail: mail.data })],
  );
  return undefined;
}
