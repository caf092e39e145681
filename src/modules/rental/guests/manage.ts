import type { Platform } from '../../../platform/context.js';
import { emitMessageCreated } from '../events.js';
import { JourneyErrors, RentalErrors, invalidField } from '../errors.js';
import type { BookingRow } from '../bookings/repo.js';
import { cancelCustomerBooking, customerBookingDetail } from '../bookings/my/service.js';
import {
  changeCustomerBooking,
  quoteCustomerChange,
  type MyChangeInput,
  type MyChangeOutcome,
} from '../bookings/my/change.js';
import { payCustomerDue, type DuePayment } from '../bookings/my/pay-due.js';
import type { ProviderName } from '../bookings/settings.js';
import type { Db } from '../../../platform/db/types.js';
import { insertMessage } from '../messages/repo.js';
import { readManageToken } from './manage-link.js';
import * as repo from './repo.js';

const refused = () =>
  RentalErrors.authRequired('The manage link is not valid, has expired or was revoked: use the link of a newer mail.');

/**
 * The one booking a manage token opens: signature and expiry checked, then the booking by the reference the token
 * names, then its revocation. Any failure is the same 401 (an outsider learns nothing about which bookings exist).
 */
export async function bookingOfToken(p: Platform, token: string): Promise<BookingRow> {
  const claim = readManageToken(p.config.secret, token);
  if (!claim) throw refused();
  const b = await repo.bookingByReference(p.db, claim.reference);
  if (!b) throw refused();
  const before = await repo.revokedBefore(p.db, Number(b.id));
  if (before && claim.issuedMs < before.getTime()) throw refused();
  return b;
}

export async function manageDetail(p: Platform, b: BookingRow) {
  return customerBookingDetail(p, b);
}

/** The account's cancel, same rules and fee, under the booking lock (the rules live in bookings/my). */
export async function manageCancel(p: Platform, b: BookingRow) {
  return cancelCustomerBooking(p, b, async () => (await repo.bookingByReference(p.db, b.reference))!);
}

/** What the account's change of dates (same rules, same lock) would cost for the link's booking; nothing written. */
export async function manageChangeQuote(p: Platform, b: BookingRow, input: MyChangeInput): Promise<MyChangeOutcome> {
  return quoteCustomerChange(p, b, input);
}

/** The account's change of dates for the link's booking; `record` (the Idempotency-Key) commits with it. */
export async function manageChange(
  p: Platform,
  b: BookingRow,
  input: MyChangeInput,
  record?: (tx: Db, done: MyChangeOutcome) => Promise<void>,
): Promise<MyChangeOutcome> {
  return changeCustomerBooking(p, b, input, record);
}

/** The account's "pay the rest" for the link's booking: the same money path (lock, payments, intent) as the account. */
export async function managePayDue(p: Platform, b: BookingRow, method?: ProviderName): Promise<DuePayment> {
  return payCustomerDue(p, Number(b.id), method);
}

/** The guest writes to the store about this booking: a new thread of the booking's customer (no author account). */
export async function manageMessage(
  p: Platform,
  b: BookingRow,
  input: { subject?: string; message: string },
): Promise<{ id: number; booking_id: number }> {
  const body = input.message.trim();
  if (!body) throw invalidField('message', 'message must not be blank.');
  if (b.customer_id === null) throw RentalErrors.stateConflict('This booking has no customer to write as.');
  const r = await p.limits.hit('guest-message', String(b.id), 10, 3600);
  if (!r.allowed) throw JourneyErrors.rateLimited('Too many messages about this booking. Try again later.');
  const subject = input.subject?.trim() || `Booking ${b.reference}`;
  const id = await p.transaction(async (tx) => {
    const newId = await insertMessage(tx, {
      threadId: null,
      parentId: null,
      customerId: Number(b.customer_id),
      sender: 'customer',
      authorUserId: null,
      customerName: b.customer_name,
      customerEmail: b.customer_email,
      subject,
      body,
      category: 'booking',
      priority: 'normal',
      bookingId: Number(b.id),
    });
    await emitMessageCreated(tx, { id: newId, thread_id: newId, author: 'customer' });
    return newId;
  });
  return { id, booking_id: Number(b.id) };
}

/** Every link of this booking issued until now stops working (a forwarded or leaked mail); later mails carry new ones. */
export async function manageRevoke(p: Platform, b: BookingRow): Promise<{ booking_id: number; revoked_at: string }> {
  const now = new Date();
  await repo.revokeLinks(p.db, Number(b.id), now);
  return { booking_id: Number(b.id), revoked_at: now.toISOString() };
}

/** An account proved its address: the customer records with it (a guest's) are linked, their bookings now its own. */
export async function attachGuestBookings(p: Platform, user: { id: number; email: string }): Promise<void> {
  const n = await repo.attachGuestCustomers(p.db, user.id, user.email);
  if (n > 0) p.log.info({ userId: user.id, bookings: n }, 'guest bookings attached to the account');
}
