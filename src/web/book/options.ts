/**
 * Widget options: data attributes of the mount element, then the page URL's `rova_…` parameters, then the
 * options of `Rova.book.open()` — later wins. Pure: the caller passes the raw strings.
 */
import type { Query } from './journey.js';

export interface BookOptions {
  location?: number | string;
  'return-location'?: number | string;
  /** ISO date-time (store wall clock), e.g. 2027-06-01T10:00 */
  pickup?: string;
  return?: string;
  vehicle?: number | string;
  category?: string;
  currency?: string;
  lang?: string;
}

export const OPTION_NAMES = [
  'location',
  'return-location',
  'pickup',
  'return',
  'vehicle',
  'category',
  'currency',
  'lang',
] as const;
export type OptionName = (typeof OPTION_NAMES)[number];
export type RawOptions = Partial<Record<OptionName, string>>;

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}))?/;

/** From a data-attribute map (`data-pickup` → dataset.pickup, `data-return-location` → dataset.returnLocation). */
export function fromDataset(ds: Record<string, string | undefined>): RawOptions {
  const out: RawOptions = {};
  for (const n of OPTION_NAMES) {
    const v = ds[n.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())];
    if (v) out[n] = v;
  }
  return out;
}

/** From the page URL: `?rova_pickup=…&rova_return_location=…`. */
export function fromUrl(search: string): RawOptions {
  const p = new URLSearchParams(search);
  const out: RawOptions = {};
  for (const n of OPTION_NAMES) {
    const v = p.get('rova_' + n.replace('-', '_'));
    if (v) out[n] = v;
  }
  return out;
}

export function fromOpen(o: BookOptions = {}): RawOptions {
  const out: RawOptions = {};
  for (const n of OPTION_NAMES) {
    const v = o[n];
    if (v !== undefined && v !== null && v !== '') out[n] = String(v);
  }
  return out;
}

function id(v: string | undefined): number | null {
  return v && /^[1-9][0-9]{0,15}$/.test(v) ? Number(v) : null;
}

function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The search the options describe; dates default to tomorrow + 3 days (`today` is YYYY-MM-DD). */
export function queryFrom(o: RawOptions, today: string): Query {
  const p = DATE_TIME.exec(o.pickup ?? '');
  const r = DATE_TIME.exec(o.return ?? '');
  const pickupDate = p?.[1] ?? addDays(today, 1);
  let returnDate = r?.[1] ?? addDays(pickupDate, 3);
  if (returnDate < pickupDate) returnDate = addDays(pickupDate, 1);
  const location = id(o.location);
  return {
    location,
    returnLocation: id(o['return-location']),
    pickupDate,
    pickupTime: p?.[2] ?? '10:00',
    returnDate,
    returnTime: r?.[2] ?? p?.[2] ?? '10:00',
    sort: 'price_asc',
    category: o.category && /^[a-z0-9_-]{1,50}$/i.test(o.category) ? o.category : '',
    transmission: '',
    fuel: '',
    seats: 0,
  };
}

export function vehicleFrom(o: RawOptions): number | null {
  return id(o.vehicle);
}
