import { perPlatform } from '../../platform/per-platform.js';
import { ConfigError, envInt, type Config } from '../../config.js';
import type { Platform } from '../../platform/context.js';
import { readJourneySettings, type JourneySettings } from './bookings/settings.js';

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
  /** ROVA_PAYOUT_WEBHOOK_SECRET, space-separated (rotation); checked by loadConfig (whsec_<base64> each). */
  payoutWebhookSecrets: readonly string[];
}

/** Reads and validates the RENTAL_* settings (also run at start, so a bad value stops the process, not a request). */
export function readRentalSettings(c: Config): RentalSettings {
  const s: RentalSettings = {
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
    payoutWebhookSecrets: (c.env.ROVA_PAYOUT_WEBHOOK_SECRET ?? '').split(/\s+/).filter(Boolean),
  };
  if (s.minDays > s.maxDays)
    throw new ConfigError(`RENTAL_MIN_DAYS (${s.minDays}) must not exceed RENTAL_MAX_DAYS (${s.maxDays})`);
  return s;
}

/** What the rental module's checkConfig returns: its RENTAL_* settings and the booking journey's. */
export interface RentalModuleSettings {
  rental: RentalSettings;
  journey: JourneySettings;
}

/** Reads every setting of the rental module (RENTAL_*, BOOKING_*, STRIPE_*, PAYMENT_*), each checked. */
export function readRentalModuleSettings(c: Config): RentalModuleSettings {
  return { rental: readRentalSettings(c), journey: readJourneySettings(c) };
}

export const rentalSettings: (p: Platform) => RentalSettings = perPlatform((p) => readRentalSettings(p.config));
