import { envInt, type Config } from '../../../config.js';
import type { Platform } from '../../../platform/context.js';
import { perPlatform } from '../../../platform/per-platform.js';

/** Settings of the customer journey (environment; see README configuration). */
export interface JourneySettings {
  /** Minutes a new pending_payment booking holds its slot (its payment deadline). */
  holdMinutes: number;
  /** A customer cancels free of charge until this many hours before pickup. */
  freeCancelHours: number;
  /** After that, this percent of the amount paid is kept. */
  cancelFeePercent: number;
  offlineInstructions: string;
}

/** Reads and checks the journey's variables (also at start, through the rental module's checkConfig: exit 2). */
export function readJourneySettings(c: Config): JourneySettings {
  const fee = envInt(c, 'BOOKING_CANCEL_FEE_PERCENT', 20, 0);
  return {
    holdMinutes: envInt(c, 'BOOKING_HOLD_MINUTES', 15, 1),
    freeCancelHours: envInt(c, 'BOOKING_FREE_CANCEL_HOURS', 24, 0),
    cancelFeePercent: Math.min(fee, 100),
    offlineInstructions: c.env.PAYMENT_OFFLINE_INSTRUCTIONS?.trim() || 'Pay at pickup (cash or card), or by bank transfer quoting the booking reference.',
  };
}

export const journeySettings: (p: Platform) => JourneySettings = perPlatform((p) => readJourneySettings(p.config));
