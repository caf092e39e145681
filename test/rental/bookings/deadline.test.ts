import { describe, expect, it } from 'vitest';
import { paymentDeadlineFor } from '../../../src/modules/rental/bookings/deadline.js';
import { readJourneySettings } from '../../../src/modules/rental/bookings/settings.js';
import { loadConfig } from '../../../src/config.js';

const S = { holdMinutes: 15, bankTransferDays: 2 };
const now = new Date('2034-03-01T09:00:00Z');
const far = new Date('2034-03-20T10:00:00Z');

describe('paymentDeadlineFor: each method its own rule (issue 35.1)', () => {
  it('pay at pick-up: no deadline, the car is held until pick-up', () => {
    expect(paymentDeadlineFor('pay_at_pickup', far, now, S)).toBeNull();
  });
  it('bank transfer: the setting in days, never after the pick-up', () => {
    expect(paymentDeadlineFor('bank_transfer', far, now, S)?.toISOString()).toBe('2034-03-03T09:00:00.000Z');
    expect(paymentDeadlineFor('bank_transfer', far, now, { ...S, bankTransferDays: 5 })?.toISOString()).toBe(
      '2034-03-06T09:00:00.000Z',
    );
    const soon = new Date('2034-03-02T10:00:00Z');
    expect(paymentDeadlineFor('bank_transfer', soon, now, S)?.toISOString()).toBe(soon.toISOString());
  });
  it('card, the generic offline method and anything else: the short hold in minutes', () => {
    for (const m of ['stripe', 'offline', 'card', null, undefined])
      expect(paymentDeadlineFor(m, far, now, S)?.toISOString()).toBe('2034-03-01T09:15:00.000Z');
  });
  it('BOOKING_BANK_TRANSFER_DAYS (default 2) and BOOKING_PAYMENT_REMINDER_HOURS (default 24) are read and checked', () => {
    const cfg = (env: Record<string, string>) => readJourneySettings(loadConfig({ LOG_LEVEL: 'silent', ...env }));
    expect(cfg({})).toMatchObject({ bankTransferDays: 2, paymentReminderHours: 24, holdMinutes: 15 });
    expect(cfg({ BOOKING_BANK_TRANSFER_DAYS: '5', BOOKING_PAYMENT_REMINDER_HOURS: '12' })).toMatchObject({
      bankTransferDays: 5,
      paymentReminderHours: 12,
    });
    expect(() => cfg({ BOOKING_BANK_TRANSFER_DAYS: '0' })).toThrow(/BOOKING_BANK_TRANSFER_DAYS/);
    expect(() => cfg({ BOOKING_PAYMENT_REMINDER_HOURS: 'soon' })).toThrow(/BOOKING_PAYMENT_REMINDER_HOURS/);
  });
});
