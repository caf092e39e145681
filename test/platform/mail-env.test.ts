import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config-error.js';
import { parseMailEnv } from '../../src/platform/mail/env.js';
import {
  PAY_REST_BY_LINK,
  PAY_REST_IN_ACCOUNT,
  phrase,
  statusWord,
  storeTime,
} from '../../src/modules/rental/bookings/mail-text.js';

describe('mail settings: STORE_LANGUAGE and ACCOUNT_URL', () => {
  it('defaults: English, the account page Rova serves under PUBLIC_URL', () => {
    expect(parseMailEnv({ PUBLIC_URL: 'https://rent.example.test/' })).toMatchObject({
      language: 'en',
      accountUrl: 'https://rent.example.test/account',
    });
  });

  it('de and tr (any case); anything else stops the start with the accepted values', () => {
    expect(parseMailEnv({ STORE_LANGUAGE: 'DE' }).language).toBe('de');
    expect(parseMailEnv({ STORE_LANGUAGE: 'tr' }).language).toBe('tr');
    expect(() => parseMailEnv({ STORE_LANGUAGE: 'fr' })).toThrow(
      new ConfigError('STORE_LANGUAGE must be one of en, de, tr (got "fr")'),
    );
    expect(() => parseMailEnv({ ACCOUNT_URL: 'shop/account' })).toThrow(ConfigError);
    expect(() => parseMailEnv({ ACCOUNT_URL: 'https://shop.test/account#mine' })).toThrow(ConfigError);
    expect(parseMailEnv({ ACCOUNT_URL: 'https://shop.test/my-account/' }).accountUrl).toBe(
      'https://shop.test/my-account/',
    );
  });

  it('the amount due mail says how to pay the rest in the store language, naming the link by its translated label', () => {
    expect(phrase('de', PAY_REST_BY_LINK)).toBe(
      'Zahlen Sie den Rest per Karte über den Link „Buchung ohne Anmeldung verwalten“ unten.',
    );
    expect(phrase('de', PAY_REST_BY_LINK)).toContain(phrase('de', 'Manage your booking without signing in'));
    expect(phrase('tr', PAY_REST_BY_LINK)).toContain(phrase('tr', 'Manage your booking without signing in'));
    expect(phrase('de', PAY_REST_IN_ACCOUNT)).toBe('Zahlen Sie den Rest per Karte bei dieser Buchung in Ihrem Konto.');
    expect(phrase('tr', PAY_REST_IN_ACCOUNT)).toBe('Kalan tutarı hesabınızdaki bu rezervasyondan kartla ödeyin.');
    expect(phrase('en', PAY_REST_IN_ACCOUNT)).toBe('Pay the rest by card from this booking in your account.');
  });

  it('the fixed words and times of the booking mails in Turkish; English stays as written', () => {
    expect(phrase('tr', 'Booking confirmed')).toBe('Rezervasyon onaylandı');
    expect(phrase('tr', 'Pick-up location')).toBe('Teslim alma yeri');
    expect(phrase('en', 'Pick-up location')).toBe('Pick-up location');
    expect(phrase('de', 'RV-X_1')).toBe('RV-X_1'); // no row: unchanged
    expect(statusWord('tr', 'pending_payment')).toBe('Ödeme bekleniyor');
    expect(statusWord('en', 'pending_payment')).toBe('pending payment');
    expect(storeTime('2034-06-01T08:00:00Z', 'Europe/Istanbul', 'tr')).toBe('1 Haz 2034 11:00 (Europe/Istanbul)');
  });
});
