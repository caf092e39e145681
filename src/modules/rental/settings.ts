import { perPlatform } from '../../platform/per-platform.js';
import { envInt } from '../../config.js';
import type { Platform } from '../../platform/context.js';

/** Rental settings from the environment (deployment knobs; business prices live in pricing rules). */
export interface RentalSettings {
  publicRateLimit: number;
  writeRateLimit: number;
  bufferMinutes: number;
  graceMinutes: number;
  paymentDeadlineMinutes: number;
  minNoticeHours: number;
  minDays: number;
  maxDays: number;
  defaultTime: string;
  timezone: string;
  currency: string;
}

export const rentalSettings: (p: Platform) => RentalSettings = perPlatform((p) => {
  const c = p.config;
  return {
    publicRateLimit: envInt(c, 'RENTAL_PUBLIC_RATE_LIMIT', 60, 1),
    writeRateLimit: envInt(c, 'RENTAL_WRITE_RATE_LIMIT', 60, 1),
    bufferMinutes: envInt(c, 'RENTAL_BUFFER_MINUTES', 60, 0),
    graceMinutes: envInt(c, 'RENTAL_GRACE_MINUTES', 60, 0),
    paymentDeadlineMinutes: envInt(c, 'RENTAL_PAYMENT_DEADLINE_MINUTES', 30, 1),
    minNoticeHours: envInt(c, 'RENTAL_MIN_NOTICE_HOURS', 0, 0),
    minDays: envInt(c, 'RENTAL_MIN_DAYS', 1, 1),
    maxDays: envInt(c, 'RENTAL_MAX_DAYS', 30, 1),
    defaultTime: '10:00',
    timezone: c.storeTimezone,
    currency: c.storeCurrency,
  };
});
