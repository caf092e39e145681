import type { Platform } from '../../../../platform/context.js';
import type { Db } from '../../../../platform/db/types.js';
import { toDate } from '../../../../platform/db/types.js';
import { bookingNotFound, invalidField, RentalErrors } from '../../errors.js';
import { bookingById } from '../repo.js';
import { catalogueOf, type CatalogueSnapshot } from '../../catalogue.js';
import { rentalSettings } from '../../settings.js';
import { isValidDate, utcToLocal } from '../../time.js';
import type { JourneySettings } from '../settings.js';
import { driverOfBooking, insertDriver, type DriverRecord, type DriverRow } from './repo.js';

export type { DriverRecord } from './repo.js';
import type { BookingDriverView, DriverInput, DriverRulesView, DriverSettingsBody } from './schema.js';
import { driverSettings, minAgeFor, saveDriverSettings, termsAsked, type DriverSettings } from './settings.js';

/** What a booking stores of its driver, flight and terms (null fields: not given / not asked). */

/** The facts of the booking the rules look at. */
export interface DriverContext {
  /** The vehicle's category (its minimum age). */
  category: string;
  /** YYYY-MM-DD, store time zone: the age counts on this day. */
  pickup_date: string;
  /** The pick-up desk is an airport (a flight number is taken only there). */
  airport: boolean;
  /** YYYY-MM-DD today in the store's time zone (a date of birth must be before it). */
  today: string;
}

const LICENCE = /^[A-Za-z0-9][A-Za-z0-9 /-]{2,28}[A-Za-z0-9]$/;
const FLIGHT = /^[A-Z0-9]{2}[A-Z]?[0-9]{1,4}[A-Z]?$/;

/** Whole years from `birth` to `on` (both YYYY-MM-DD): a birthday counts on its day. */
export function ageOn(birth: string, on: string): number {
  const [by, bm, bd] = birth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = on.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/**
 * The facts of a booking about to be made: its vehicle's category, its pick-up desk (the vehicle's when none is
 * named) and day. Null when the vehicle does not exist (the booking path answers its 404).
 */
export function driverContext(
  p: Platform,
  cat: CatalogueSnapshot,
  b: { vehicle_id: number; pickup_date: string; pickup_location_id?: number },
): DriverContext | null {
  const v = cat.vehicles.get(b.vehicle_id);
  if (!v) return null;
  const desk = b.pickup_location_id ?? (v.location_id === null ? null : Number(v.location_id));
  return {
    category: v.category,
    pickup_date: b.pickup_date,
    airport: desk !== null && cat.locations.get(desk)?.type === 'airport',
    today: utcToLocal(new Date(), rentalSettings(p).timezone).date,
  };
}

/**
 * An operator's booking (POST /bookings): the same rules, but terms are the customer's to accept, so an operator's
 * booking stores an acceptance only when the body says the customer gave it.
 */
export async function driverOfOperatorBooking(
  p: Platform,
  b: DriverInput & { vehicle_id: number; pickup_date: string; location_id?: number; kind?: 'rental' | 'transfer' },
): Promise<DriverRecord | null> {
  const ctx = driverContext(p, await catalogueOf(p).get(), { ...b, pickup_location_id: b.location_id });
  if (!ctx) return null;
  const s = await driverSettings(p);
  const asked = termsAsked(s) && b.terms_accepted === true;
  return checkDriver({ ...s, driver_required: false, ...(asked ? {} : { terms_text: '', terms_url: '' }) }, b, ctx);
}

/** "an SUV", "a van": the category as the refusal names it (short codes are acronyms). */
function categoryPhrase(category: string): string {
  const acronym = category.length <= 3;
  const label = acronym ? category.toUpperCase() : category.toLowerCase();
  const an = acronym ? /^[AEFHILMNORSX]/.test(label) : /^[aeiou]/.test(label);
  return `${an ? 'an' : 'a'} ${label}`;
}

const refuse = (field: string, reason: string, message: string) =>
  RentalErrors.invalidParams(message, { field, reason });

/**
 * The rules of issue 36.4, decided before anything is written: the driver (when given, or required) is a real
 * person old enough for the vehicle's category on the pick-up date, the flight number belongs to an airport pick-up,
 * and the store's current terms were accepted. Answers what the booking stores, or null when there is nothing to.
 */
export function checkDriver(s: DriverSettings, input: DriverInput, c: DriverContext): DriverRecord | null {
  let driver: DriverRecord['driver'] = null;
  if (input.driver) {
    const name = input.driver.name.trim().replace(/\s+/g, ' ');
    if (!name) throw invalidField('driver.name', 'driver.name: give the driver’s full name.');
    const dob = input.driver.date_of_birth;
    if (!isValidDate(dob))
      throw refuse('driver.date_of_birth', 'invalid_date', 'driver.date_of_birth must be a real date, YYYY-MM-DD.');
    if (dob >= c.today || dob < '1900-01-01')
      throw refuse('driver.date_of_birth', 'not_past', 'driver.date_of_birth must be a date in the past.');
    const licence = input.driver.licence_number.trim();
    if (!LICENCE.test(licence))
      throw invalidField(
        'driver.licence_number',
        'driver.licence_number must be 4–30 letters or digits (spaces, - and / allowed inside).',
      );
    const min = minAgeFor(s, c.category);
    const age = ageOn(dob, c.pickup_date);
    if (age < min)
      throw refuse(
        'driver.date_of_birth',
        'driver_under_age',
        `The driver must be at least ${min} for ${categoryPhrase(c.category)}; the driver is ${age} on the pick-up date.`,
      );
    driver = { name, date_of_birth: dob, licence_number: licence.toUpperCase() };
  } else if (s.driver_required) {
    throw invalidField('driver', 'driver is required: give the driver’s name, date of birth and licence number.');
  }
  let flight: string | null = null;
  if (input.flight_number !== undefined && input.flight_number.trim() !== '') {
    flight = input.flight_number.replace(/\s+/g, '').toUpperCase();
    if (!c.airport) throw refuse('flight_number', 'not_airport', 'flight_number is only for a pick-up at an airport.');
    if (!FLIGHT.test(flight))
      throw invalidField('flight_number', 'flight_number must look like TK1234 (airline code and number).');
  }
  let version: string | null = null;
  if (termsAsked(s)) {
    if (input.terms_accepted !== true)
      throw refuse('terms_accepted', 'terms_not_accepted', 'Accept the rental terms to book (terms_accepted: true).');
    if (input.terms_version !== undefined && input.terms_version !== s.terms_version)
      throw refuse(
        'terms_version',
        'terms_changed',
        `The rental terms changed (now version ${s.terms_version}): read and accept them again.`,
      );
    version = s.terms_version;
  }
  return driver || flight || version ? { driver, flight_number: flight, terms_version: version } : null;
}

/** The booking's mail lines for its driver, flight and terms. */
export function driverMailRows(d: DriverRecord | null): [string, string][] {
  if (!d) return [];
  return [
    ...(d.driver
      ? ([
          ['Driver', `${d.driver.name} (born ${d.driver.date_of_birth})`],
          ['Driving licence', d.driver.licence_number],
        ] as [string, string][])
      : []),
    ...(d.flight_number ? [['Flight', d.flight_number] as [string, string]] : []),
    ...(d.terms_version ? [['Rental terms accepted', `version ${d.terms_version}`] as [string, string]] : []),
  ];
}

/** Writes the record in the booking's transaction. */
export async function saveDriverOf(tx: Db, bookingId: number, d: DriverRecord | null): Promise<void> {
  if (d) await insertDriver(tx, bookingId, d);
}

export function driverView(r: DriverRow | undefined): BookingDriverView | null {
  if (!r) return null;
  return {
    name: r.name,
    date_of_birth: r.date_of_birth,
    licence_number: r.licence_number,
    flight_number: r.flight_number,
    terms_version: r.terms_version,
    terms_accepted_at: r.terms_accepted_at === null ? null : toDate(r.terms_accepted_at).toISOString(),
  };
}

export async function bookingDriver(db: Db, bookingId: number): Promise<BookingDriverView | null> {
  return driverView(await driverOfBooking(db, bookingId));
}

/** GET /booking/driver-rules: what the widget shows and checks up front (the server decides again). */
/** The driver of any booking, for the store's staff; 404 when there is no such booking. */
export async function staffBookingDriver(p: Platform, bookingId: number): Promise<BookingDriverView | null> {
  if (!(await bookingById(p.db, bookingId))) throw bookingNotFound(bookingId);
  return bookingDriver(p.db, bookingId);
}

export function driverRules(s: DriverSettings, j: Pick<JourneySettings, 'freeCancelHours' | 'cancelFeePercent'>) {
  const rules: DriverRulesView = {
    driver_required: s.driver_required,
    min_age: s.min_age,
    min_age_by_category: s.min_age_by_category,
    terms: termsAsked(s) ? { version: s.terms_version, text: s.terms_text, url: s.terms_url } : null,
    cancellation: { free_cancel_hours: j.freeCancelHours, fee_percent: j.cancelFeePercent },
  };
  return rules;
}

/** PUT /driver-settings: the change merged over what is stored, checked as a whole. */
export async function changeDriverSettings(p: Platform, patch: DriverSettingsBody): Promise<DriverSettings> {
  const next: DriverSettings = { ...(await driverSettings(p)), ...patch };
  next.terms_text = next.terms_text.trim();
  next.terms_url = next.terms_url.trim();
  next.terms_version = next.terms_version.trim();
  if (next.terms_url !== '') {
    let u: URL | null = null;
    try {
      u = new URL(next.terms_url);
    } catch {
      u = null;
    }
    if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:'))
      throw invalidField('terms_url', 'terms_url must be an http(s) URL, or "" for none.');
  }
  if (termsAsked(next) && next.terms_version === '')
    throw invalidField('terms_version', 'terms_version is required when there are terms (text or URL).');
  return saveDriverSettings(p, next);
}
