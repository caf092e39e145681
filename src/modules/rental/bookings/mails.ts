import type { Platform } from '../../../platform/context.js';
import { toDate, type Db } from '../../../platform/db/types.js';
import { mailDeliveryOf } from '../../../platform/mail/delivery.js';
import { icsCalendar } from '../../../platform/mail/ics.js';
import { mailDraftToStore, storeMail, type MailToStore } from '../../../platform/mail/outbox.js';
import { registerMailRenderer, type RenderedMail } from '../../../platform/mail/drafts.js';
import { mailSettings, type MailSettings } from '../../../platform/mail/settings.js';
import { compose, mailSubject, type MailAttachment } from '../../../platform/mail/templates.js';
import { catalogueOf, type CatalogueSnapshot } from '../catalogue.js';
import type { BookingRow } from './repo.js';
import { iso } from '../views.js';
import { paymentTermRows } from '../payments/terms.js';
import { AMOUNT_DUE_ROW, phrase, statusWord, storeTime } from './mail-text.js';
import { manageLink, signManageToken } from '../guests/manage-link.js';
import { restDueRows } from './rest-due.js';

export type BookingMail =
  | 'booking_created'
  | 'booking_confirmed'
  | 'booking_cancelled'
  | 'booking_changed'
  | 'payment_received'
  | 'amount_due'
  | 'payment_reminder';

const SUBJECT: Record<BookingMail, string> = {
  booking_created: 'Booking received',
  booking_confirmed: 'Booking confirmed',
  booking_cancelled: 'Booking cancelled',
  booking_changed: 'Booking changed',
  payment_received: 'Payment received',
  amount_due: 'Amount due',
  payment_reminder: 'Payment reminder',
};

const OPENING: Record<BookingMail, string> = {
  booking_created: 'Thank you for your booking. Here are its details.',
  booking_confirmed: 'Your booking is confirmed. We look forward to seeing you.',
  booking_cancelled: 'Your booking has been cancelled.',
  booking_changed: 'Your booking has been changed. Here are its new details.',
  payment_received: 'We have received your payment. Thank you.',
  amount_due: 'The price of your booking has changed: an amount is due.',
  payment_reminder: 'Your booking is waiting for its payment.',
};

/** The customer's booking in their account (the widget's account mode opens it by reference). */
export function bookingLink(s: Pick<MailSettings, 'accountUrl'>, reference: string): string {
  const sep = s.accountUrl.includes('?') ? '&' : '?';
  return `${s.accountUrl}${sep}rova_booking=${encodeURIComponent(reference)}`;
}

/** Where the booking starts and ends: a location's name and address, or a transfer's origin and destination. */
function places(cat: CatalogueSnapshot, b: BookingRow): { pickup: string | null; dropoff: string | null } {
  const at = (id: string | number | null): string | null => {
    const l = id === null ? undefined : cat.locations.get(Number(id));
    if (!l) return null;
    const address = [l.address, l.city].filter((x) => x && x.trim() !== '').join(', ');
    return address ? `${l.name}, ${address}` : l.name;
  };
  if (b.kind === 'transfer') return { pickup: b.transfer_origin, dropoff: b.transfer_destination };
  const pickup = at(b.pickup_location_id);
  return { pickup, dropoff: at(b.return_location_id) ?? pickup };
}

/** The booking's columns a booking mail shows. */
type MailBooking = Pick<
  BookingRow,
  | 'reference'
  | 'pickup_at'
  | 'return_at'
  | 'addons'
  | 'total'
  | 'currency'
  | 'status'
  | 'payment_status'
  | 'payment_method'
  | 'payment_deadline'
  | 'customer_name'
  | 'customer_email'
  | 'created_at'
>;

/**
 * A booking mail as stored in the outbox (`draft`): what it shows, taken from the booking and the catalogue when the
 * write that causes it commits, and rendered (`renderBookingMail`) when the mail is sent or read. Rendering the HTML,
 * the text and the .ics was a sixth of a booking's CPU on the create path, and the rendered bodies tripled the row.
 */
export interface BookingMailDraft {
  kind: BookingMail;
  /** When the mail was stored: the .ics's DTSTAMP and SEQUENCE count from here, so every render is the same. */
  at: string;
  vehicle: string | null;
  pickup: string | null;
  dropoff: string | null;
  /** Rows after the booking's own (what is due now, how to pay, the driver). */
  extra: [string, string][];
  booking: MailBooking;
}

/** The draft of `kind` for the booking as it is now (or, before it exists, as drafted with its customer). */
function bookingMailDraft(
  cat: CatalogueSnapshot,
  kind: BookingMail,
  b: BookingRow,
  extra: [string, string][],
): BookingMailDraft {
  const where = places(cat, b);
  return {
    kind,
    at: new Date().toISOString(),
    vehicle: cat.vehicles.get(Number(b.vehicle_id))?.name ?? null,
    pickup: where.pickup,
    dropoff: where.dropoff,
    extra,
    booking: {
      reference: b.reference,
      pickup_at: iso(b.pickup_at),
      return_at: iso(b.return_at),
      addons: b.addons,
      total: b.total,
      currency: b.currency,
      status: b.status,
      payment_status: b.payment_status,
      payment_method: b.payment_method,
      payment_deadline: b.payment_deadline === null ? null : iso(b.payment_deadline),
      customer_name: b.customer_name,
      customer_email: b.customer_email,
      // as given: a booking drafted before it exists may have none yet (createdMs then counts from now)
      created_at: typeof b.created_at === 'string' ? b.created_at : iso(b.created_at),
    },
  };
}

/**
 * The booking as an iCalendar event: UID from its reference (unique, known before the booking row exists), SEQUENCE
 * the whole seconds from the booking's creation to the mail's (so each later mail's copy supersedes the earlier one
 * in the customer's calendar), METHOD:CANCEL once it is cancelled.
 */
function bookingIcs(s: MailSettings, d: BookingMailDraft): MailAttachment {
  const b = d.booking;
  const host = new URL(s.publicUrl).hostname || 'rova';
  const uid = `${b.reference}@${host}`;
  const vehicle = d.vehicle ?? '';
  const stamp = new Date(d.at);
  const sequence = Math.max(0, Math.floor((stamp.getTime() - createdMs(b)) / 1000));
  const cancelled = b.status === 'cancelled' || b.status === 'refunded' || b.status === 'no_show';
  const L = (t: string) => phrase(s.language, t);
  const description = [
    `${L('Reference')}: ${b.reference}`,
    ...(vehicle ? [`${L('Vehicle')}: ${vehicle}`] : []),
    ...(d.pickup ? [`${L('Pick-up location')}: ${d.pickup}`] : []),
    ...(d.dropoff ? [`${L('Return location')}: ${d.dropoff}`] : []),
    bookingLink(s, b.reference),
  ].join('\n');
  const content = icsCalendar({
    uid,
    sequence,
    stamp,
    start: new Date(iso(b.pickup_at)),
    end: new Date(iso(b.return_at)),
    summary: `${s.storeName}: ${vehicle ? `${vehicle} ` : ''}(${b.reference})`,
    location: d.pickup ?? undefined,
    description,
    url: bookingLink(s, b.reference),
    organizer: { name: s.storeName, email: senderAddress(s.from) },
    attendee: { name: b.customer_name, email: b.customer_email },
    status: cancelled
      ? 'CANCELLED'
      : b.status === 'pending_payment' || b.status === 'pending'
        ? 'TENTATIVE'
        : 'CONFIRMED',
  });
  return {
    filename: `booking-${b.reference}.ics`,
    content_type: `text/calendar; charset=utf-8; method=${cancelled ? 'CANCEL' : 'PUBLISH'}`,
    content,
  };
}

/** When the booking was written (the mail's own time for one drafted before it exists). */
function createdMs(b: MailBooking): number {
  try {
    return toDate(b.created_at).getTime();
  } catch {
    return Date.now();
  }
}

/** `Shop <shop@example.com>` → `shop@example.com`. */
function senderAddress(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
}

/** The booking's extras, one row each: the operator's name for it (× quantity) and its price. */
function extraRows(b: MailBooking): [string, string][] {
  const addons = Array.isArray(b.addons) ? (b.addons as { name: string; quantity?: number; total: number }[]) : [];
  return addons.map((a) => [
    (a.quantity ?? 1) > 1 ? `${a.name} × ${a.quantity}` : a.name,
    `${Number(a.total).toFixed(2)} ${b.currency}`,
  ]);
}

/** A booking mail's subject in the store's language, without the store's name (`compose` puts it in front). */
function bookingMailSubject(s: MailSettings, d: Pick<BookingMailDraft, 'kind' | 'booking'>): string {
  return `${phrase(s.language, SUBJECT[d.kind])} — ${d.booking.reference}`;
}

/**
 * A booking mail's content in the store's language: its places and times (the store's time zone), a link to the
 * booking in the customer's account and the booking as an .ics event.
 */
export function renderBookingMail(p: Platform, d: BookingMailDraft): RenderedMail {
  const s = mailSettings(p);
  const b = d.booking;
  const L = (t: string) => phrase(s.language, t);
  const rows: [string, string][] = [
    ['Reference', b.reference],
    ...(d.vehicle ? [['Vehicle', d.vehicle] as [string, string]] : []),
    ['Pick-up', storeTime(iso(b.pickup_at), s.timezone, s.language)],
    ...(d.pickup ? [['Pick-up location', d.pickup] as [string, string]] : []),
    ['Return', storeTime(iso(b.return_at), s.timezone, s.language)],
    ...(d.dropoff ? [['Return location', d.dropoff] as [string, string]] : []),
    ...extraRows(b),
    ['Total', `${Number(b.total).toFixed(2)} ${b.currency}`],
    ['Status', statusWord(s.language, b.status)],
    ...paymentTermRows(b, s.timezone).map(([k, v]): [string, string] =>
      k === 'Pay by' && b.payment_deadline ? [k, storeTime(iso(b.payment_deadline), s.timezone, s.language)] : [k, v],
    ),
    ...d.extra,
  ];
  const name = b.customer_name.trim();
  const content = compose(s, bookingMailSubject(s, d), name ? `${L('Hello')} ${name},` : `${L('Hello')},`, [
    { p: L(OPENING[d.kind]) },
    { rows: rows.map(([k, v]) => [L(k), L(v)]) },
    { link: bookingLink(s, b.reference), label: L('View your booking') },
    // works without an account (a guest's booking) and opens this booking only, until 30 days after the return
    {
      link: manageLink(
        s.accountUrl,
        // issued when the mail was written, as a revocation after it must refuse it however late it is rendered
        signManageToken(p.config.secret, b.reference, new Date(iso(b.return_at)), Date.parse(d.at)),
      ),
      label: L('Manage your booking without signing in'),
    },
    { p: L('The booking is attached as a calendar event (.ics).') },
  ]);
  return { text: content.text, html: content.html, attachments: [bookingIcs(s, d)] };
}

/** Is `d` a booking mail's draft as `bookingMailDraft` writes it (the outbox's jsonb, read back)? */
function isBookingMailDraft(d: unknown): d is BookingMailDraft {
  if (typeof d !== 'object' || d === null) return false;
  const x = d as Partial<BookingMailDraft>;
  return typeof x.kind === 'string' && x.kind in SUBJECT && typeof x.at === 'string' && typeof x.booking === 'object';
}

/** The outbox renders booking mails' drafts with this (registered by the rental module's start). */
export function registerBookingMailRenderers(p: Platform): void {
  for (const kind of Object.keys(SUBJECT))
    registerMailRenderer(p, kind, (draft) => (isBookingMailDraft(draft) ? renderBookingMail(p, draft) : null));
}

/**
 * The same mail as an outbox row for the booking's own transaction (bookings/create/statement.ts), as its draft: for
 * the booking as it is (or, before it exists, as drafted with its customer): null when the customer has no address.
 * The delivery renders and sends it after the commit (SMTP_URL), not before `holdSeconds`.
 */
export function bookingMailToStore(
  p: Platform,
  cat: CatalogueSnapshot,
  kind: BookingMail,
  b: BookingRow,
  extra: [string, string][] = [],
  holdSeconds = 0,
): MailToStore | null {
  if (!b.customer_email) return null;
  const draft = bookingMailDraft(cat, kind, b, extra);
  const s = mailSettings(p);
  return mailDraftToStore(
    p,
    { to: b.customer_email, subject: mailSubject(s, bookingMailSubject(s, draft)), template: kind, draft },
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
  // the rest of a part-paid booking, in every mail of it but one that says what is due itself (the price change's)
  const rest = extra.some(([k]) => k === AMOUNT_DUE_ROW) ? [] : await restDueRows(tx, b);
  const mail = bookingMailToStore(p, await catalogueOf(p).within(tx), kind, b, [...extra, ...rest]);
  if (!mail) return undefined;
  await storeMail(tx, mail, `booking:${b.id}`);
  return wakeDelivery(p, mail);
}

/** After the commit of a write that stored `mail`: the delivery sends it now (SMTP_URL), else nothing to do. */
export function wakeDelivery(p: Platform, mail: MailToStore): (() => Promise<void>) | undefined {
  return mail.status === 'pending' ? async () => mailDeliveryOf(p).nudge() : undefined;
}
