import { describe, expect, it } from 'vitest';
import {
  initialAccount,
  reduceAccount,
  splitBookings,
  type AccountAction,
  type AccountState,
  type MyBooking,
  type MyBookingDetail,
  type Thread,
} from '../../src/web/book/account.js';

const booking = (id: number, status: string, pickup: string, ret: string): MyBooking => ({
  id,
  reference: `RB-${id}`,
  vehicle_name: 'Fiat Egea',
  pickup_at: pickup,
  return_at: ret,
  // a store on UTC: its clock reads the instants as written
  pickup_date: pickup.slice(0, 10),
  pickup_time: pickup.slice(11, 16),
  return_date: ret.slice(0, 10),
  return_time: ret.slice(11, 16),
  timezone: 'UTC',
  status,
  payment_status: 'unpaid',
  total: 100,
  currency: 'EUR',
});
const detail = (cancellable: boolean, free = true, due = 0): MyBookingDetail => ({
  ...booking(1, cancellable ? 'confirmed' : 'cancelled', '2027-06-01T10:00:00.000Z', '2027-06-04T10:00:00.000Z'),
  days: 3,
  deposit: 0,
  payment_method: 'offline',
  pickup_location_id: null,
  return_location_id: null,
  cancellation: {
    cancellable,
    free,
    fee: free ? 0 : 20,
    refund: free ? 100 : 80,
    currency: 'EUR',
    free_cancellation_until: '2027-05-31T10:00:00.000Z',
  },
  balance: { paid: 100 - due, due, currency: 'EUR', provider: due ? 'stripe' : null, instructions: null },
});
const thread: Thread = {
  thread: {
    id: 9,
    subject: 'Child seat',
    preview: 'Can you…',
    status: 'pending',
    booking_id: null,
    unread_count: 0,
    last_message_at: '2026-11-25T10:00:00.000Z',
  },
  message: {
    id: 9,
    sender: 'customer',
    author_name: 'Ayşe',
    body: 'Can you add a child seat?',
    created_at: '2026-11-25T10:00:00.000Z',
  },
  replies: [],
};

function run(s: AccountState, ...actions: AccountAction[]): AccountState {
  return actions.reduce(reduceAccount, s);
}

describe('booking widget account mode (state machine)', () => {
  it('starts at the sign-in when signed out, at the bookings (loading) when a session exists', () => {
    expect(initialAccount(false)).toMatchObject({ step: 'signin', signedIn: false, busy: false });
    expect(initialAccount(true)).toMatchObject({ step: 'bookings', signedIn: true, busy: true, bookings: null });
  });

  it('sign in → bookings → detail → cancel (fee shown first) → cancelled, the list reloaded on the way back', () => {
    let s = run(initialAccount(false), { type: 'loading' });
    expect(s.busy).toBe(true);
    s = run(s, { type: 'signed-in' });
    expect(s).toMatchObject({ step: 'bookings', signedIn: true, busy: true });
    const items = [booking(1, 'confirmed', '2027-06-01T10:00:00.000Z', '2027-06-04T10:00:00.000Z')];
    s = run(s, { type: 'bookings', items });
    expect(s).toMatchObject({ step: 'bookings', busy: false, bookings: items });
    s = run(s, { type: 'open-booking' });
    expect(s).toMatchObject({ step: 'booking', busy: true, booking: null });
    // no cancel before the booking (and its quote) is loaded
    expect(run(s, { type: 'ask-cancel' })).toBe(s);
    s = run(s, { type: 'booking', booking: detail(true, false) });
    s = run(s, { type: 'ask-cancel' });
    expect(s).toMatchObject({ step: 'cancel', booking: { cancellation: { fee: 20, refund: 80 } } });
    // back from the confirmation keeps the booking
    expect(run(s, { type: 'back' })).toMatchObject({ step: 'booking', busy: false });
    s = run(s, { type: 'loading' });
    expect(run(s, { type: 'back' })).toBe(s); // busy: no way back while the cancel runs
    s = run(s, {
      type: 'cancelled',
      booking: detail(false),
      result: { fee: 20, refund: 80, currency: 'EUR' },
      notice: 'Booking cancelled.',
    });
    expect(s).toMatchObject({
      step: 'booking',
      busy: false,
      notice: 'Booking cancelled.',
      cancelled: { fee: 20 },
      bookings: null,
    });
    // a cancelled booking cannot be cancelled again
    expect(run(s, { type: 'ask-cancel' })).toBe(s);
    s = run(s, { type: 'back' });
    expect(s).toMatchObject({ step: 'bookings', busy: true, notice: null }); // the list is loaded again
  });

  it('pay the rest: only from a loaded booking with an amount due; the pay step, back, paid → the booking, paid in full', () => {
    let s = run(initialAccount(true), { type: 'bookings', items: [] }, { type: 'open-booking' });
    expect(run(s, { type: 'pay-due' })).toBe(s); // not loaded yet
    const paid = run(s, { type: 'booking', booking: detail(true) });
    expect(run(paid, { type: 'pay-due' })).toBe(paid); // nothing due
    s = run(s, { type: 'booking', booking: detail(true, true, 40) });
    s = run(s, { type: 'pay-due' });
    expect(s).toMatchObject({ step: 'booking', busy: true });
    expect(run(s, { type: 'pay-due' })).toBe(s); // a second click while the first runs
    const due = {
      booking_id: 1,
      payment_id: 7,
      provider: 'stripe' as const,
      amount: 40,
      currency: 'EUR',
      client_secret: 'pi_1_secret_x',
    };
    s = run(s, { type: 'pay-ready', due });
    expect(s).toMatchObject({ step: 'pay', busy: false, due });
    expect(run(s, { type: 'back' })).toMatchObject({ step: 'booking', due: null, busy: false });
    s = run(s, { type: 'paying' });
    expect(s).toMatchObject({ step: 'pay', busy: true });
    expect(run(s, { type: 'paying' })).toBe(s);
    expect(run(s, { type: 'back' })).toBe(s); // busy: no way back while paying
    s = run(s, { type: 'paid-due', booking: detail(true), notice: 'Paid in full.' });
    expect(s).toMatchObject({ step: 'booking', busy: false, due: null, notice: 'Paid in full.', bookings: null });
    expect(s.booking?.balance.due).toBe(0);
  });

  it('messages: list → thread → reply; compose from a booking carries its id; a sent message opens its thread', () => {
    let s = run(initialAccount(true), { type: 'bookings', items: [] }, { type: 'tab', tab: 'messages' });
    expect(s).toMatchObject({ step: 'messages', busy: true });
    s = run(s, { type: 'threads', items: [thread.thread] });
    expect(s).toMatchObject({ step: 'messages', busy: false, threads: [thread.thread] });
    s = run(s, { type: 'open-thread' }, { type: 'thread', thread });
    expect(s).toMatchObject({ step: 'thread', thread });
    s = run(s, { type: 'back' });
    expect(s).toMatchObject({ step: 'messages', busy: false, thread: null });
    s = run(
      s,
      { type: 'tab', tab: 'bookings' },
      { type: 'bookings', items: [] },
      { type: 'open-booking' },
      { type: 'booking', booking: detail(true) },
      { type: 'compose', about: 1 },
    );
    expect(s).toMatchObject({ step: 'compose', about: 1 });
    s = run(s, { type: 'loading' }, { type: 'thread', thread, notice: 'Message sent.' });
    expect(s).toMatchObject({ step: 'thread', notice: 'Message sent.', threads: null });
    expect(run(s, { type: 'back' })).toMatchObject({ step: 'messages', busy: true });
  });

  it('profile, errors, and the session ending', () => {
    let s = run(initialAccount(true), { type: 'tab', tab: 'profile' });
    expect(s).toMatchObject({ step: 'profile', busy: true });
    const profile = { email: 'a@example.com', first_name: 'A', last_name: 'B', phone: '' };
    s = run(s, { type: 'profile', profile });
    s = run(s, { type: 'loading' }, { type: 'failed', message: 'Wrong password' });
    expect(s).toMatchObject({ step: 'profile', busy: false, error: 'Wrong password', profile });
    s = run(s, { type: 'loading' }, { type: 'profile', profile, notice: 'Saved.' });
    expect(s).toMatchObject({ error: null, notice: 'Saved.' });
    s = run(s, { type: 'signed-out', message: 'Your session has ended.' });
    expect(s).toMatchObject({
      step: 'signin',
      signedIn: false,
      profile: null,
      bookings: null,
      error: 'Your session has ended.',
    });
    // tabs need a session
    expect(run(s, { type: 'tab', tab: 'messages' })).toBe(s);
    expect(run(s, { type: 'compose' })).toBe(s);
  });

  it('splits bookings into upcoming (soonest first) and past (latest first)', () => {
    const now = Date.parse('2027-01-10T00:00:00Z');
    const a = booking(1, 'confirmed', '2027-03-01T10:00:00Z', '2027-03-03T10:00:00Z');
    const b = booking(2, 'pending_payment', '2027-02-01T10:00:00Z', '2027-02-03T10:00:00Z');
    const c = booking(3, 'cancelled', '2027-04-01T10:00:00Z', '2027-04-03T10:00:00Z');
    const d = booking(4, 'completed', '2026-12-01T10:00:00Z', '2026-12-03T10:00:00Z');
    const e = booking(5, 'in_progress', '2027-01-09T10:00:00Z', '2027-01-12T10:00:00Z');
    const f = booking(6, 'confirmed', '2026-11-01T10:00:00Z', '2026-11-03T10:00:00Z'); // returned already
    const { upcoming, past } = splitBookings([a, b, c, d, e, f], now);
    expect(upcoming.map((x) => x.id)).toEqual([5, 2, 1]);
    expect(past.map((x) => x.id)).toEqual([3, 4, 6]);
  });
});
