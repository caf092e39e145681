import type { Platform } from '../../../platform/context.js';
import { driverSettings, saveDriverSettings, termsAsked } from '../bookings/driver/settings.js';

/**
 * The demo store's rental terms (issue 36.4): a short text the booking widget shows on its review step next to the
 * cancellation policy, with a required box. The cancellation policy is not repeated here: the widget states it from
 * the store's own settings (BOOKING_FREE_CANCEL_HOURS, BOOKING_CANCEL_FEE_PERCENT), which may differ.
 */
export const DEMO_TERMS = {
  terms_text:
    'At pick-up the driver shows a driving licence held for at least one year and an ID card or passport. Return ' +
    'the car with the same fuel level; missing fuel, tolls and traffic fines during the rental are charged to the ' +
    'renter. No driving outside Türkiye or off paved roads, and no smoking in the car.',
  terms_version: '2026-11',
} as const;

/**
 * Sets the demo terms when the store has none (terms an operator set before seeding are kept). Customers booking
 * through the API then send `terms_accepted: true`, as the widget does once its box is ticked.
 */
export async function seedDemoTerms(p: Platform): Promise<void> {
  const s = await driverSettings(p);
  if (termsAsked(s)) return;
  await saveDriverSettings(p, { ...s, ...DEMO_TERMS });
}
