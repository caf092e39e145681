/**
 * The booking journey as a pure state machine (no DOM, no fetch): the widget renders `State` and feeds the
 * answers of the API back as actions. Tested on its own (test/storefront/book-journey.test.ts).
 */

import type { SearchItem } from './api-types.js';

export type Step = 'search' | 'results' | 'detail' | 'auth' | 'review' | 'pay' | 'done';
/** How the customer pays: `offline` is pay at pick-up (the API's pay_at_pickup), then bank transfer, card. */
export type PayMethod = 'offline' | 'bank_transfer' | 'stripe';

export interface Query {
  location: number | null;
  returnLocation: number | null;
  /** YYYY-MM-DD */
  pickupDate: string;
  /** HH:MM */
  pickupTime: string;
  returnDate: string;
  returnTime: string;
  sort: string;
  category: string;
  /** '' (any), 'manual' or 'automatic' */
  transmission: string;
  /** '' (any) or a fuel type of the search's facets (petrol, diesel, hybrid, electric, lpg) */
  fuel: string;
  /** At least this many seats (0: any) */
  seats: number;
}

/** One card of GET /v2/vehicles/search (the fields the widget shows; types from /openapi.json). */
export type Card = Pick<
  SearchItem,
  | 'vehicle_id'
  | 'name'
  | 'category'
  | 'brand'
  | 'model'
  | 'seats'
  | 'transmission'
  | 'fuel_type'
  | 'days'
  | 'price_per_day'
  | 'total_price'
  | 'currency'
> &
  Partial<Pick<SearchItem, 'location_id' | 'photos'>>;

/** What POST /v2/booking/check answers (the fields the widget shows). */
export interface Check {
  available: boolean;
  reason?: string;
  days?: number;
  currency?: string;
  net_price?: number;
  tax?: number;
  total?: number;
  deposit?: number;
  alternatives?: Alternative[];
  price_per_day?: number;
  tax_rate?: number;
  pickup_location_id?: number | null;
  return_location_id?: number | null;
  /** The extras the vehicle offers (add-on rules; names in the operator's language). */
  extras?: Extra[];
  /** The total in the visitor's display currency (asked with `currency`), as the currency service shows it. */
  display?: { currency: string; total: number };
  breakdown?: {
    base?: number;
    rules?: { name: string; kind: string; amount: number; days?: number | null }[];
    addons?: { code?: string; name: string; total: number; quantity?: number }[];
    addons_total?: number;
    duration_discount?: number;
  };
}

export interface Extra {
  code: string;
  name: string;
  charge: 'per_day' | 'per_booking';
  amount: number;
  max_per_day: number;
}

/** The extras chosen: code → quantity (absent: not taken). */
export type Chosen = Record<string, number>;

export interface Alternative {
  vehicle_id: number;
  name: string;
  category: string;
  price_per_day: number;
  total: number;
  currency: string;
}

export interface Booked {
  id: number;
  reference: string;
  total: number;
  currency: string;
  instructions: string;
  /** Card payment: the PaymentIntent's client secret for Stripe.js (then the `pay` step), else null. */
  clientSecret: string | null;
  /** The booking was seen confirmed after the card payment. */
  paid: boolean;
  /** The payment deadline (ISO-8601); null: a pay-at-pick-up reservation, held until pick-up. */
  deadline?: string | null;
}

export interface State {
  step: Step;
  query: Query;
  results: Card[];
  total: number;
  /** Category → count of the last search (the category filter's choices). */
  categories: Record<string, number>;
  /** Fuel type → count of the last search (the fuel filter's choices). */
  fuels: Record<string, number>;
  nextCursor: string | null;
  vehicle: Card | null;
  check: Check | null;
  /** The extras chosen on the check step, carried to the booking (priced by the API's check). */
  extras: Chosen;
  signedIn: boolean;
  /** Idempotency-Key of the current booking attempt: made once, kept for retries, dropped when the choice changes. */
  attemptKey: string | null;
  /** How the customer pays: at pick-up, or by card (when the store offers it). */
  payment: PayMethod;
  booking: Booked | null;
  busy: boolean;
  error: string | null;
}

export type Action =
  | { type: 'search'; query: Query }
  | {
      type: 'results';
      items: Card[];
      total: number;
      next: string | null;
      append: boolean;
      categories?: Record<string, number>;
      fuels?: Record<string, number>;
    }
  | { type: 'more' }
  | { type: 'select'; vehicle: Card }
  | { type: 'checked'; check: Check }
  /** Extras changed: the check is asked again with them (a new attempt: another body). */
  | { type: 'extras'; chosen: Chosen }
  | { type: 'continue' }
  | { type: 'book' }
  | { type: 'signing-in' }
  | { type: 'signed-in' }
  /** The session ended (401 after a refresh): sign in again; the choice and the attempt's key are kept. */
  | { type: 'signed-out'; message: string }
  | { type: 'created'; booking: Booked }
  /** The payment method changed: a new attempt (another body needs another Idempotency-Key). */
  | { type: 'pay-with'; method: PayMethod }
  | { type: 'paying' }
  /** The booking was seen confirmed after the card payment. */
  | { type: 'paid' }
  | { type: 'failed'; message: string }
  | { type: 'back' }
  | { type: 'restart' };

export function initialState(query: Query): State {
  return {
    step: 'search',
    query,
    results: [],
    total: 0,
    categories: {},
    fuels: {},
    nextCursor: null,
    vehicle: null,
    check: null,
    extras: {},
    signedIn: false,
    attemptKey: null,
    payment: 'offline',
    booking: null,
    busy: false,
    error: null,
  };
}

const BACK: Record<Step, Step> = {
  search: 'search',
  results: 'search',
  detail: 'results',
  auth: 'detail',
  review: 'detail',
  pay: 'pay',
  done: 'done',
};

/**
 * The next state. `newKey` makes an Idempotency-Key (crypto.randomUUID in the browser); it is called only when
 * a booking attempt starts, so a double click or a retry of the same attempt reuses the key.
 */
export function reduce(s: State, a: Action, newKey: () => string): State {
  switch (a.type) {
    case 'search':
      return {
        ...s,
        step: 'results',
        query: a.query,
        results: [],
        total: 0,
        nextCursor: null,
        vehicle: null,
        check: null,
        extras: {},
        attemptKey: null,
        busy: true,
        error: null,
      };
    case 'more':
      return s.busy || !s.nextCursor ? s : { ...s, busy: true, error: null };
    case 'results':
      return {
        ...s,
        step: 'results',
        results: a.append ? [...s.results, ...a.items] : a.items,
        total: a.total,
        nextCursor: a.next,
        categories: a.categories ?? s.categories,
        fuels: a.fuels ?? s.fuels,
        busy: false,
        error: null,
      };
    case 'select':
      return {
        ...s,
        step: 'detail',
        vehicle: a.vehicle,
        check: null,
        extras: {},
        attemptKey: null,
        busy: true,
        error: null,
      };
    case 'extras':
      if (s.step !== 'detail' || !s.check?.available) return s;
      return { ...s, extras: a.chosen, attemptKey: null, busy: true, error: null };
    case 'checked':
      return { ...s, step: 'detail', check: a.check, busy: false };
    case 'continue':
      if (s.busy || s.step !== 'detail' || !s.check?.available) return s;
      return { ...s, step: s.signedIn ? 'review' : 'auth', error: null };
    case 'book':
      // one request per attempt at a time: a second click while the first is under way changes nothing
      if (s.busy || s.step !== 'review' || !s.vehicle || !s.check?.available) return s;
      return { ...s, busy: true, error: null, attemptKey: s.attemptKey ?? newKey() };
    case 'signing-in':
      return s.busy ? s : { ...s, busy: true, error: null };
    case 'signed-in':
      return { ...s, signedIn: true, step: s.step === 'auth' ? 'review' : s.step, busy: false, error: null };
    case 'signed-out':
      return { ...s, signedIn: false, step: s.step === 'review' ? 'auth' : s.step, busy: false, error: a.message };
    case 'created':
      return { ...s, step: a.booking.clientSecret ? 'pay' : 'done', booking: a.booking, busy: false, error: null };
    case 'pay-with':
      if (s.busy || s.step !== 'review' || s.payment === a.method) return s;
      return { ...s, payment: a.method, attemptKey: null };
    case 'paying':
      return s.busy || s.step !== 'pay' ? s : { ...s, busy: true, error: null };
    case 'paid':
      return s.booking ? { ...s, step: 'done', booking: { ...s.booking, paid: true }, busy: false, error: null } : s;
    case 'failed':
      // the attempt key is kept: retrying the same booking must not make a second one
      return { ...s, busy: false, error: a.message };
    case 'back':
      if (s.busy) return s;
      return { ...s, step: BACK[s.step], error: null };
    case 'restart':
      return { ...initialState(s.query), signedIn: s.signedIn, payment: s.payment };
  }
}
