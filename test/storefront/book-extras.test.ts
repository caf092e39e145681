import { describe, expect, it } from 'vitest';
import { initialState, reduce, type Action, type Card, type Check, type State } from '../../src/web/book/journey.js';
import { queryFrom } from '../../src/web/book/options.js';

// Extras in the widget's state machine (issue 36.3): a choice is a new attempt, and it goes with the vehicle.

const query = queryFrom({ pickup: '2027-06-01T09:30', return: '2027-06-04T18:00' }, '2026-11-25');
const card = { vehicle_id: 7, name: 'Fiat Egea', days: 3, total_price: 90, currency: 'EUR' } as Card;
const free: Check = { available: true, days: 3, currency: 'USD', total: 123.9 };
let keys = 0;
const run = (s: State, ...actions: Action[]) => actions.reduce((acc, a) => reduce(acc, a, () => `key-${++keys}`), s);

describe('booking widget journey: extras', () => {
  it('choosing extras on the detail asks again (busy), drops the attempt key, and is kept to the review', () => {
    let s = run(initialState(query), { type: 'select', vehicle: card }, { type: 'checked', check: free });
    expect(s.extras).toEqual({});
    s = run(s, { type: 'extras', chosen: { child_seat: 2 } });
    expect(s).toMatchObject({ busy: true, attemptKey: null, extras: { child_seat: 2 } });
    s = run(s, { type: 'checked', check: { ...free, total: 153.9 } }, { type: 'continue' });
    expect(s).toMatchObject({ step: 'auth', busy: false, extras: { child_seat: 2 } });
    s = run(s, { type: 'signing-in' }, { type: 'signed-in' }, { type: 'book' });
    expect(s).toMatchObject({ step: 'review', extras: { child_seat: 2 } });
    expect(s.attemptKey).not.toBeNull();
  });

  it('no extras on a vehicle not free or outside the detail; another vehicle or search starts without them', () => {
    const taken = run(
      initialState(query),
      { type: 'select', vehicle: card },
      { type: 'checked', check: { available: false } },
    );
    expect(run(taken, { type: 'extras', chosen: { child_seat: 1 } })).toBe(taken);
    const chosen = run(
      initialState(query),
      { type: 'select', vehicle: card },
      { type: 'checked', check: free },
      { type: 'extras', chosen: { extra_driver: 1 } },
    );
    expect(run(chosen, { type: 'select', vehicle: { ...card, vehicle_id: 8 } }).extras).toEqual({});
    expect(run(chosen, { type: 'search', query }).extras).toEqual({});
  });
});
