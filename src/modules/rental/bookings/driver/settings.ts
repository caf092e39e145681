import { sql } from 'drizzle-orm';
import type { Platform } from '../../../../platform/context.js';
import { one, type Db } from '../../../../platform/db/types.js';

/** Driver and terms settings (database option `rental_driver_terms`, edited by admins: PUT /driver-settings). */
export interface DriverSettings {
  /** Booking create refuses a booking without `driver` (the widget always asks; API clients may be told to). */
  driver_required: boolean;
  /** Youngest driver, in years on the pick-up date, for a vehicle category without its own minimum. */
  min_age: number;
  /** Minimum age by vehicle category (lower-case category → years), e.g. {suv: 25}. */
  min_age_by_category: Record<string, number>;
  /** The rental terms as text shown on the review step ('' = none). */
  terms_text: string;
  /** … or a link to them ('' = none). With neither, no acceptance is asked. */
  terms_url: string;
  /** The version a customer accepts (stored on the booking with the time). */
  terms_version: string;
}

export const DEFAULT_DRIVER_SETTINGS: DriverSettings = {
  driver_required: false,
  min_age: 21,
  min_age_by_category: { suv: 25 },
  terms_text: '',
  terms_url: '',
  terms_version: '',
};

const OPTION = 'rental_driver_terms';

export async function driverSettings(p: Platform): Promise<DriverSettings> {
  const stored = await p.options.get<Partial<DriverSettings>>(OPTION);
  return { ...DEFAULT_DRIVER_SETTINGS, ...(stored ?? {}) };
}

/** The same read through a transaction (PGlite has one connection: a pool read inside a transaction would wait). */
export async function driverSettingsIn(tx: Db): Promise<DriverSettings> {
  const r = await one<{ value: Partial<DriverSettings> }>(
    tx,
    sql`SELECT value FROM rova_options WHERE name = ${OPTION}`,
  );
  return { ...DEFAULT_DRIVER_SETTINGS, ...(r?.value ?? {}) };
}

export async function saveDriverSettings(p: Platform, next: DriverSettings): Promise<DriverSettings> {
  await p.options.set(OPTION, next);
  return next;
}

/** Terms are asked for when the store has any (text or link). */
export const termsAsked = (s: DriverSettings): boolean => s.terms_text.trim() !== '' || s.terms_url.trim() !== '';

/** The minimum driver age for a vehicle category. */
export const minAgeFor = (s: DriverSettings, category: string): number =>
  s.min_age_by_category[category.toLowerCase()] ?? s.min_age;
