/**
 * The customer's account (data-rova-book="account") as a pure state machine, like journey.ts: no DOM, no fetch.
 * The widget renders `AccountState` and feeds the API's answers back as actions. Tested on its own
 * (test/storefront/book-account.test.ts).
 */

import type {
  BalanceAnswer,
  CancelQuoteAnswer,
  OrderAnswer,
  PayDueAnswer,
  ProfileAnswer,
  ThreadAnswer,
  ThreadSummaryAnswer,
} from './api-types.js';

export type AccountStep =
  'signin' | 'bookings' | 'booking' | 'cancel' | 'pay' | 'messages' | 'thread' | 'compose' | 'profile';
export type AccountTab = 'bookings' | 'messages' | 'profile';

/** An item of GET /v2/my/bookings (the fields the widget shows). */
export interface MyBooking {
  id: number;
  reference: string;
  vehicle_name: string | null;
  pickup_at: string;
  return_at: string;
  /**
   * The pick-up and return as the store's clock reads them (its time zone, `timezone`): what the customer is shown
   * and what a change of dates starts from.
   */
  pickup_date: string;
  pickup_time: string;
  return_date: string;
  return_time: string;
  timezone: string;
  status: string;
  payment_status: string;
  total: number;
  currency: string;
}

/** What a cancellation would cost now (GET /v2/my/bookings/{id} → cancellation). */
export type CancelQuote = CancelQuoteAnswer;

/** Paid and due (GET /v2/my/bookings/{id} → balance): a due amount is paid with "pay the rest". */
export type Balance = BalanceAnswer;

/** POST /v2/my/bookings/{id}/pay-due: the card payment's client secret, or offline instructions. */
export type DuePayment = PayDueAnswer;

export interface MyBookingDetail extends MyBooking {
  days: number;
  deposit: number;
  payment_method: string;
  /** Null: no deadline (a pay-at-pick-up reservation, or paid). */
  payment_deadline?: string | null;
  /** Where it is picked up and returned (null: the vehicle's own place, unknown to the widget). */
  pickup_location_id: number | null;
  return_location_id: number | null;
  cancellation: CancelQuote;
  balance: Balance;
  /** The order of a booking made in the widget (its lines: rental, each extra, tax); null for an operator's booking. */
  order?: OrderAnswer;
}

export interface Cancelled {
  fee: number;
  refund: number;
  currency: string;
}

/** A thread of GET /v1/my/messages (types from /openapi.json). */
export type ThreadSummary = Pick<
  ThreadSummaryAnswer,
  'id' | 'subject' | 'preview' | 'status' | 'booking_id' | 'unread_count' | 'last_message_at'
>;

export type Message = Pick<ThreadAnswer['message'], 'id' | 'sender' | 'author_name' | 'body' | 'created_at'>;

export interface Thread {
  thread: ThreadSummary;
  message: Message;
  replies: Message[];
}

export type Profile = Pick<ProfileAnswer, 'email' | 'first_name' | 'last_name' | 'phone'>;

export interface AccountState {
  step: AccountStep;
  signedIn: boolean;
  bookings: MyBooking[] | null;
  booking: MyBookingDetail | null;
  /** The answer of the last cancellation (shown on the booking once it is cancelled). */
  cancelled: Cancelled | null;
  /** The amount due being paid by card (the `pay` step). */
  due: DuePayment | null;
  threads: ThreadSummary[] | null;
  thread: Thread | null;
  /** The booking a new message is about (compose from a booking), else null. */
  about: number | null;
  profile: Profile | null;
  busy: boolean;
  error: string | null;
  /** A success message in words (saved, sent, cancelled), cleared by the next step. */
  notice: string | null;
}

export type AccountAction =
  | { type: 'loading' }
  | { type: 'signed-in' }
  /** The session ended (401 after a refresh, or a password change ended it): back to the sign-in. */
  | { type: 'signed-out'; message?: string }
  | { type: 'tab'; tab: AccountTab }
  | { type: 'bookings'; items: MyBooking[] }
  | { type: 'open-booking' }
  | { type: 'booking'; booking: MyBookingDetail; notice?: string }
  | { type: 'ask-cancel' }
  /** "Pay the rest" asked: the payment is being started (busy). */
  | { type: 'pay-due' }
  | { type: 'pay-ready'; due: DuePayment }
  | { type: 'paying' }
  /** The amount due was paid (the booking as it is now). */
  | { type: 'paid-due'; booking: MyBookingDetail; notice: string }
  | { type: 'changed'; booking: MyBookingDetail; notice: string }
  | { type: 'cancelled'; booking: MyBookingDetail; result: Cancelled; notice: string }
  | { type: 'threads'; items: ThreadSummary[] }
  | { type: 'open-thread' }
  | { type: 'thread'; thread: Thread; notice?: string }
  | { type: 'compose'; about?: number | null }
  | { type: 'profile'; profile: Profile; notice?: string }
  | { type: 'failed'; message: string }
  | { type: 'back' };

export function initialAccount(signedIn: boolean): AccountState {
  return {
    step: signedIn ? 'bookings' : 'signin',
    signedIn,
    bookings: null,
    booking: null,
    cancelled: null,
    due: null,
    threads: null,
    thread: null,
    about: null,
    profile: null,
    busy: signedIn,
    error: null,
    notice: null,
  };
}

/** Statuses that still lie ahead for the customer; any other (cancelled, completed, no_show, refunded, draft) is past. */
const ACTIVE = ['pending_payment', 'pending', 'confirmed', 'in_progress'];

/** Upcoming (active and not yet returned; soonest pickup first) and past (latest pickup first). */
export function splitBookings(items: MyBooking[], now: number): { upcoming: MyBooking[]; past: MyBooking[] } {
  const upcoming: MyBooking[] = [];
  const past: MyBooking[] = [];
  for (const b of items) (ACTIVE.includes(b.status) && Date.parse(b.return_at) >= now ? upcoming : past).push(b);
  upcoming.sort((a, b) => Date.parse(a.pickup_at) - Date.parse(b.pickup_at) || a.id - b.id);
  past.sort((a, b) => Date.parse(b.pickup_at) - Date.parse(a.pickup_at) || b.id - a.id);
  return { upcoming, past };
}

const BACK: Record<AccountStep, AccountStep> = {
  signin: 'signin',
  bookings: 'bookings',
  booking: 'bookings',
  cancel: 'booking',
  pay: 'booking',
  messages: 'messages',
  thread: 'messages',
  compose: 'messages',
  profile: 'profile',
};

/** The next state. Steps that need data start `busy`; the widget loads it and answers with the data action. */
export function reduceAccount(s: AccountState, a: AccountAction): AccountState {
  switch (a.type) {
    case 'loading':
      return s.busy ? s : { ...s, busy: true, error: null, notice: null };
    case 'signed-in':
      return { ...s, signedIn: true, step: 'bookings', bookings: null, busy: true, error: null, notice: null };
    case 'signed-out':
      return { ...initialAccount(false), error: a.message ?? null };
    case 'tab':
      if (!s.signedIn) return s;
      return {
        ...s,
        step: a.tab,
        busy: true,
        error: null,
        notice: null,
        booking: a.tab === 'bookings' ? null : s.booking,
        thread: null,
        cancelled: null,
      };
    case 'bookings':
      return { ...s, step: 'bookings', bookings: a.items, busy: false, error: null };
    case 'open-booking':
      return s.busy
        ? s
        : { ...s, step: 'booking', booking: null, cancelled: null, busy: true, error: null, notice: null };
    case 'booking':
      return {
        ...s,
        step: 'booking',
        booking: a.booking,
        busy: false,
        error: null,
        ...(a.notice ? { notice: a.notice } : {}),
      };
    case 'ask-cancel':
      // the fee is shown before anything is cancelled: only from a loaded, cancellable booking
      if (s.busy || s.step !== 'booking' || !s.booking?.cancellation.cancellable) return s;
      return { ...s, step: 'cancel', error: null, notice: null };
    case 'pay-due':
      // only from a loaded booking that has something due
      if (s.busy || s.step !== 'booking' || !(s.booking && s.booking.balance.due > 0)) return s;
      return { ...s, busy: true, error: null, notice: null };
    case 'pay-ready':
      return { ...s, step: 'pay', due: a.due, busy: false, error: null };
    case 'paying':
      return s.busy || s.step !== 'pay' ? s : { ...s, busy: true, error: null };
    case 'paid-due':
    case 'changed':
      return {
        ...s,
        step: 'booking',
        booking: a.booking,
        due: null,
        busy: false,
        error: null,
        notice: a.notice,
        bookings: null,
      };
    case 'cancelled':
      return {
        ...s,
        step: 'booking',
        booking: a.booking,
        cancelled: a.result,
        busy: false,
        error: null,
        notice: a.notice,
        // the list is loaded again when shown
        bookings: null,
      };
    case 'threads':
      return { ...s, step: 'messages', threads: a.items, busy: false, error: null };
    case 'open-thread':
      return s.busy ? s : { ...s, step: 'thread', thread: null, busy: true, error: null, notice: null };
    case 'thread':
      return {
        ...s,
        step: 'thread',
        thread: a.thread,
        busy: false,
        error: null,
        notice: a.notice ?? null,
        threads: a.notice ? null : s.threads,
      };
    case 'compose':
      if (!s.signedIn || s.busy) return s;
      return { ...s, step: 'compose', about: a.about ?? null, error: null, notice: null };
    case 'profile':
      return { ...s, step: 'profile', profile: a.profile, busy: false, error: null, notice: a.notice ?? null };
    case 'failed':
      return { ...s, busy: false, error: a.message, notice: null };
    case 'back': {
      if (s.busy) return s;
      const step = BACK[s.step];
      if (step === s.step) return s;
      // back to a list: loaded again when it is empty (after a cancel or a new message)
      const reload = (step === 'bookings' && s.bookings === null) || (step === 'messages' && s.threads === null);
      return {
        ...s,
        step,
        busy: reload,
        error: null,
        notice: null,
        thread: step === 'messages' ? null : s.thread,
        due: step === 'booking' ? null : s.due,
      };
    }
  }
}
