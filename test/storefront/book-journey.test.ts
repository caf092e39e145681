import { describe, expect, it } from 'vitest';
import { initialState, reduce, type Action, type Card, type Check, type State } from '../../src/web/book/journey.js';
import { fromDataset, fromOpen, fromUrl, queryFrom, vehicleFrom } from '../../src/web/book/options.js';

const query = queryFrom({ pickup: '2027-06-01T09:30', return: '2027-06-04T18:00', location: '1' }, '2026-11-25');
const card: Card = {
  vehicle_id: 7,
  name: 'Fiat Egea',
  category: 'economy',
  brand: 'Fiat',
  model: 'Egea',
  seats: 5,
  transmission: 'manual',
  fuel_type: 'diesel',
  days: 3,
  price_per_day: 30,
  total_price: 90,
  currency: 'EUR',
};
const free: Check = { available: true, days: 3, currency: 'USD', net_price: 105, tax: 18.9, total: 123.9 };

let keys = 0;
const newKey = () => `key-${++keys}`;
function run(s: State, ...actions: Action[]): State {
  return actions.reduce((acc, a) => reduce(acc, a, newKey), s);
}

describe('booking widget journey (state machine)', () => {
  it('search → results → detail → auth → review → done', () => {
    let s = initialState(query);
    expect(s.step).toBe('search');
    s = run(s, { type: 'search', query });
    expect(s).toMatchObject({ step: 'results', busy: true, results: [] });
    s = run(s, { type: 'results', items: [card], total: 1, next: null, append: false });
    expect(s).toMatchObject({ step: 'results', busy: false, total: 1 });
    s = run(s, { type: 'select', vehicle: card });
    expect(s).toMatchObject({ step: 'detail', busy: true, check: null });
    s = run(s, { type: 'checked', check: free }, { type: 'continue' });
    expect(s.step).toBe('auth');
    s = run(s, { type: 'signing-in' }, { type: 'signed-in' });
    expect(s).toMatchObject({ step: 'review', signedIn: true, busy: false });
    s = run(s, { type: 'book' });
    expect(s.busy).toBe(true);
    expect(s.attemptKey).toMatch(/^key-/);
    s = run(s, {
      type: 'created',
      booking: {
        id: 1,
        reference: 'RB-1',
        total: 123.9,
        currency: 'USD',
        instructions: '',
        clientSecret: null,
        paid: false,
      },
    });
    expect(s).toMatchObject({ step: 'done', booking: { reference: 'RB-1' } });
  });

  it('a signed-in customer goes from the detail straight to the review', () => {
    const s = run(
      { ...initialState(query), signedIn: true },
      { type: 'select', vehicle: card },
      { type: 'checked', check: free },
      { type: 'continue' },
    );
    expect(s.step).toBe('review');
  });

  it('one Idempotency-Key per attempt: a double click changes nothing, a retry after a failure reuses the key', () => {
    const review = run(
      { ...initialState(query), signedIn: true },
      { type: 'select', vehicle: card },
      { type: 'checked', check: free },
      { type: 'continue' },
    );
    const first = run(review, { type: 'book' });
    const key = first.attemptKey;
    expect(key).not.toBeNull();
    expect(run(first, { type: 'book' })).toBe(first); // second click while the first request runs
    const failed = run(first, { type: 'failed', message: 'HTTP 503' });
    expect(failed).toMatchObject({ busy: false, error: 'HTTP 503', attemptKey: key });
    expect(run(failed, { type: 'book' }).attemptKey).toBe(key);
    // another vehicle is another attempt
    const other = run(failed, { type: 'back' }, { type: 'select', vehicle: { ...card, vehicle_id: 8 } });
    expect(other.attemptKey).toBeNull();
  });

  it('a session that ended asks for the sign-in again and keeps the choice and the attempt key', () => {
    const review = run(
      { ...initialState(query), signedIn: true },
      { type: 'select', vehicle: card },
      { type: 'checked', check: free },
      { type: 'continue' },
      { type: 'book' },
    );
    const out = run(review, { type: 'signed-out', message: 'Log in again.' });
    expect(out).toMatchObject({
      step: 'auth',
      signedIn: false,
      busy: false,
      error: 'Log in again.',
      vehicle: { vehicle_id: 7 },
      attemptKey: review.attemptKey,
    });
    const back = run(out, { type: 'signing-in' }, { type: 'signed-in' }, { type: 'book' });
    expect(back).toMatchObject({ step: 'review', busy: true, attemptKey: review.attemptKey });
  });

  it('no booking without a free slot; a taken vehicle stays on the detail with its alternatives', () => {
    const taken: Check = {
      available: false,
      reason: 'booked',
      alternatives: [
        { vehicle_id: 9, name: 'Renault Clio', category: 'economy', price_per_day: 33, total: 99, currency: 'USD' },
      ],
    };
    const s = run(
      { ...initialState(query), signedIn: true },
      { type: 'select', vehicle: card },
      { type: 'checked', check: taken },
    );
    expect(run(s, { type: 'continue' })).toBe(s);
    expect(run(s, { type: 'book' })).toBe(s);
    expect(s.check?.alternatives?.[0]?.vehicle_id).toBe(9);
  });

  it('cursor paging appends; "more" without a cursor or while busy is ignored', () => {
    let s = run(
      initialState(query),
      { type: 'search', query },
      { type: 'results', items: [card], total: 2, next: 'abc', append: false },
    );
    s = run(s, { type: 'more' });
    expect(s.busy).toBe(true);
    expect(run(s, { type: 'more' })).toBe(s);
    s = run(s, { type: 'results', items: [{ ...card, vehicle_id: 8 }], total: 2, next: null, append: true });
    expect(s.results.map((c) => c.vehicle_id)).toEqual([7, 8]);
    expect(s.categories).toEqual({}); // kept from the first page when a page has none
    s = run(
      s,
      { type: 'search', query: { ...query, category: 'suv' } },
      { type: 'results', items: [], total: 0, next: null, append: false, categories: { suv: 0, economy: 3 } },
    );
    expect(s).toMatchObject({ results: [], query: { category: 'suv' }, categories: { economy: 3 } });
    expect(run(s, { type: 'more' })).toBe(s);
  });

  it('back walks the steps; an error is shown and cleared by the next action; restart keeps the sign-in', () => {
    let s = run(
      { ...initialState(query), signedIn: true },
      { type: 'search', query },
      { type: 'results', items: [card], total: 1, next: null, append: false },
      { type: 'select', vehicle: card },
      { type: 'failed', message: 'No such vehicle.' },
    );
    expect(s).toMatchObject({ step: 'detail', error: 'No such vehicle.', busy: false });
    s = run(s, { type: 'back' });
    expect(s).toMatchObject({ step: 'results', error: null });
    s = run(s, { type: 'restart' });
    expect(s).toMatchObject({ step: 'search', signedIn: true, results: [] });
  });
});

describe('booking widget options', () => {
  it('data attributes, then URL parameters, then open() options; later wins', () => {
    const o = {
      ...fromDataset({ location: '1', pickup: '2027-06-01T10:00', lang: 'de' }),
      ...fromUrl('?rova_pickup=2027-07-01T09:00&rova_vehicle=5&rova_return_location=2'),
      ...fromOpen({ lang: 'tr' }),
    };
    expect(o).toEqual({ location: '1', pickup: '2027-07-01T09:00', vehicle: '5', 'return-location': '2', lang: 'tr' });
    expect(queryFrom(o, '2026-11-25')).toMatchObject({
      location: 1,
      returnLocation: 2,
      pickupDate: '2027-07-01',
      pickupTime: '09:00',
      returnDate: '2027-07-04',
      returnTime: '09:00',
    });
    expect(vehicleFrom(o)).toBe(5);
  });

  it('defaults: tomorrow for three days at 10:00; junk is ignored', () => {
    expect(queryFrom({ location: 'x', vehicle: '-1', category: '<b>' }, '2026-12-30')).toMatchObject({
      location: null,
      pickupDate: '2026-12-31',
      returnDate: '2027-01-03',
      pickupTime: '10:00',
      category: '',
    });
    expect(vehicleFrom({ vehicle: '0' })).toBeNull();
    expect(queryFrom({ pickup: '2027-06-05', return: '2027-06-01' }, '2026-11-25').returnDate).toBe('2027-06-06');
    expect(query).toMatchObject({ pickupTime: '09:30', returnTime: '18:00', location: 1 });
  });
});

describe('booking widget journey: card payment', () => {
  const booked = { id: 2, reference: 'RB-2', total: 123.9, currency: 'USD', instructions: '', paid: false };
  it('a card booking goes to the pay step, then done once paid; changing the method starts a new attempt', () => {
    let s = run(
      { ...initialState(query), signedIn: true },
      { type: 'select', vehicle: card },
      { type: 'checked', check: free },
      { type: 'continue' },
      { type: 'book' },
    );
    const offlineKey = s.attemptKey;
    s = run(s, { type: 'failed', message: 'lost' }, { type: 'pay-with', method: 'stripe' });
    expect(s).toMatchObject({ payment: 'stripe', attemptKey: null });
    s = run(s, { type: 'book' });
    expect(s.attemptKey).not.toBe(offlineKey);
    s = run(s, { type: 'created', booking: { ...booked, clientSecret: 'pi_1_secret_x' } });
    expect(s).toMatchObject({ step: 'pay', busy: false });
    expect(run(s, { type: 'back' }).step).toBe('pay'); // the booking exists: no way back to the review
    s = run(s, { type: 'paying' });
    expect(s.busy).toBe(true);
    expect(run(s, { type: 'paying' })).toBe(s);
    s = run(s, { type: 'failed', message: 'Your card was declined.' }, { type: 'paying' }, { type: 'paid' });
    expect(s).toMatchObject({ step: 'done', busy: false, booking: { paid: true } });
    expect(run(s, { type: 'restart' }).payment).toBe('stripe');
  });

  it('an offline booking goes straight to done; the method cannot change while a booking request runs', () => {
    let s = run(
      { ...initialState(query), signedIn: true },
      { type: 'select', vehicle: card },
      { type: 'checked', check: free },
      { type: 'continue' },
      { type: 'book' },
    );
    expect(run(s, { type: 'pay-with', method: 'stripe' })).toBe(s);
    s = run(s, { type: 'created', booking: { ...booked, clientSecret: null } });
    expect(s.step).toBe('done');
  });
});
