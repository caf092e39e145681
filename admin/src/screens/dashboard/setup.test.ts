import { describe, expect, it } from 'vitest';
import { isEmptyInstallation, setupSteps, type SetupFacts } from './setup';

const EMPTY: SetupFacts = {
  currency: { base: 'USD', currencies: [] },
  locations: 0,
  vehicles: 0,
  payments: { providers: ['offline'], stripe: null },
  apiKeys: [],
};

describe('setupSteps', () => {
  it('an empty installation: every step open, in order, each but payment with its screen', () => {
    const s = setupSteps(EMPTY);
    expect(s.map((x) => [x.id, x.done, x.to])).toEqual([
      ['currency', false, '/currency'],
      ['location', false, '/locations'],
      ['vehicle', false, '/vehicles'],
      ['payment', false, null],
      ['api_key', false, '/system?tab=keys'],
    ]);
  });

  it('each step done from its own fact', () => {
    const s = setupSteps({
      currency: {
        base: 'USD',
        currencies: [
          { code: 'USD', enabled: true },
          { code: 'EUR', enabled: true },
          { code: 'GBP', enabled: false },
        ],
      },
      locations: 1,
      vehicles: 3,
      payments: { providers: ['offline', 'stripe'], stripe: { publishable_key: 'pk_test' } },
      apiKeys: [{ status: 'revoked' }, { status: 'active' }],
    });
    expect(s.every((x) => x.done)).toBe(true);
    expect(s.map((x) => x.detail)).toEqual([
      'Prices are kept in USD and shown in EUR.',
      '1 location.',
      '3 vehicles.',
      'Customers can pay by card (Stripe).',
      '1 active key.',
    ]);
  });

  it('the store currency alone, a disabled currency, revoked keys and stripe without its key are not done', () => {
    const s = setupSteps({
      ...EMPTY,
      currency: {
        base: 'USD',
        currencies: [
          { code: 'USD', enabled: true },
          { code: 'EUR', enabled: false },
        ],
      },
      payments: { providers: ['stripe'], stripe: null },
      apiKeys: [{ status: 'revoked' }, { status: 'expired' }],
    });
    expect(s.find((x) => x.id === 'currency')!.done).toBe(false);
    expect(s.find((x) => x.id === 'payment')!.done).toBe(false);
    expect(s.find((x) => x.id === 'api_key')!.done).toBe(false);
  });

  it('unknown facts are neither done nor open', () => {
    const s = setupSteps({
      currency: undefined,
      locations: undefined,
      vehicles: undefined,
      payments: undefined,
      apiKeys: undefined,
    });
    expect(s.map((x) => x.done)).toEqual([null, null, null, null, null]);
    expect(s.every((x) => x.detail === 'Checking…')).toBe(true);
  });
});

describe('isEmptyInstallation', () => {
  it('no bookings and no vehicles', () => {
    expect(isEmptyInstallation(0, 0)).toBe(true);
    expect(isEmptyInstallation(0, 1)).toBe(false);
    expect(isEmptyInstallation(4, 0)).toBe(false);
    expect(isEmptyInstallation(undefined, 0)).toBeUndefined();
    expect(isEmptyInstallation(0, undefined)).toBeUndefined();
  });
});
