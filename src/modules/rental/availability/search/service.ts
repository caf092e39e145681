import type { Platform } from '../../../../platform/context.js';
import { invalidField, unknownLocation } from '../../errors.js';
import { parsePeriod } from '../service.js';
import { catalogueOf, type CatalogueSnapshot } from '../../catalogue.js';
import { money } from '../../money.js';
import { displayCurrency, shownIn } from '../shown-price.js';
import type { VehicleRow } from '../../vehicles/repo.js';
import { unavailability } from '../free.js';
import { photoView } from '../../vehicles/photos/views.js';
import { holdingIndexOf } from '../holding-index.js';
import { busyCacheOf } from './busy-cache.js';
import { rentalTotal } from './price-memo.js';
import { compareKeys, decodeCursor, encodeCursor, queryFingerprint, type SortKey } from './cursor.js';

export const SORTS = ['relevance', 'price_asc', 'price_desc', 'name', 'year_desc'] as const;

export interface SearchQuery {
  q?: string;
  pickup_date?: string;
  return_date?: string;
  pickup_time?: string;
  return_time?: string;
  location_id?: number;
  category?: string;
  min_price?: number;
  max_price?: number;
  fuel_type?: string;
  transmission?: string;
  seats?: number;
  brand?: string;
  year_min?: number;
  year_max?: number;
  features?: string;
  sort?: (typeof SORTS)[number];
  currency?: string;
  cursor?: string;
  page: number;
  per_page: number;
}

type Facets = Record<'category' | 'brand' | 'fuel_type' | 'transmission', Record<string, number>>;

function relevance(v: VehicleRow, words: string[]): number {
  const name = v.name.toLowerCase();
  return words.reduce(
    (s, w) =>
      s +
      (name.includes(w) ? 3 : 0) +
      (`${v.brand} ${v.model}`.toLowerCase().includes(w) ? 2 : 0) +
      (v.description.toLowerCase().includes(w) ? 1 : 0),
    0,
  );
}

/**
 * GET /vehicles/search (design §8): filters over the in-memory catalogue, the availability rules in memory and
 * ONE overlap query for the dates, prices from the pricing engine, facets over the filtered set, then the page.
 */
export async function searchVehicles(p: Platform, q: SearchQuery): Promise<SearchAnswer> {
  const cat = await catalogueOf(p).get();
  const cache = busyCacheOf(p);
  const key = JSON.stringify(q);
  const known = cache.answer<SearchAnswer>(key, cat);
  if (known) return known;
  const holds = holdingIndexOf(p);
  const version = holds.version;
  const answer = await computeSearch(p, cat, q);
  // a booking announced while it was computed may be missing from it: answer it, but do not keep it
  if (holds.version === version) cache.remember(key, cat, answer);
  return answer;
}

type SearchAnswer = Awaited<ReturnType<typeof computeSearch>>;

const baseMemo = new Map<number, number>();
function baseShown(n: number): number {
  let v = baseMemo.get(n);
  if (v === undefined) {
    v = money(n);
    if (baseMemo.size >= 10_000) baseMemo.clear();
    baseMemo.set(n, v);
  }
  return v;
}

async function computeSearch(p: Platform, cat: CatalogueSnapshot, q: SearchQuery) {
  if ((q.pickup_date === undefined) !== (q.return_date === undefined)) {
    throw invalidField(
      q.pickup_date === undefined ? 'pickup_date' : 'return_date',
      'Give both pickup_date and return_date, or neither.',
    );
  }
  if (q.location_id !== undefined && !cat.locations.has(q.location_id))
    throw unknownLocation('location_id', q.location_id);
  const period =
    q.pickup_date !== undefined
      ? parsePeriod(p, {
          pickup_date: q.pickup_date,
          return_date: q.return_date,
          pickup_time: q.pickup_time,
          return_time: q.return_time,
        })
      : null;
  const words = (q.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const feats = (q.features ?? '')
    .split(',')
    .map((f) => f.trim().toLowerCase())
    .filter(Boolean);
  let list = [...cat.vehicles.values()].filter((v) => v.status === 'active' && v.service_type !== 'transfer');
  list = list.filter(
    (v) =>
      (q.location_id === undefined || Number(v.location_id) === q.location_id) &&
      (!q.category || v.category === q.category) &&
      (!q.fuel_type || v.fuel_type === q.fuel_type) &&
      (!q.transmission || v.transmission === q.transmission) &&
      (!q.brand || v.brand.toLowerCase() === q.brand.toLowerCase()) &&
      (q.seats === undefined || (v.seats ?? 0) >= q.seats) &&
      (q.year_min === undefined || (v.year ?? 0) >= q.year_min) &&
      (q.year_max === undefined || (v.year ?? Infinity) <= q.year_max) &&
      (q.min_price === undefined || Number(v.price_per_day) >= q.min_price) &&
      (q.max_price === undefined || Number(v.price_per_day) <= q.max_price) &&
      feats.every((f) => v.features.some((x) => String(x).toLowerCase() === f)) &&
      (words.length === 0 || relevance(v, words) > 0),
  );
  if (period) {
    const cache = busyCacheOf(p);
    const why = await unavailability(p, p.db, cat, list, period, q.location_id, (from, to) => cache.get(from, to));
    list = list.filter((v) => !why.has(Number(v.id)));
  }
  const days = period?.days ?? 1;
  const totals = new Map(
    list.map((v) => [Number(v.id), period ? rentalTotal(cat, v, period) : Number(v.price_per_day)]),
  );
  const facets: Facets = { category: {}, brand: {}, fuel_type: {}, transmission: {} };
  for (const v of list)
    for (const k of Object.keys(facets) as (keyof Facets)[]) if (v[k]) facets[k][v[k]] = (facets[k][v[k]] ?? 0) + 1;
  // every order ends on the id, so keys are unique and a cursor is an exact position
  const price = (v: VehicleRow) => totals.get(Number(v.id))!;
  const keyOf: Record<(typeof SORTS)[number], (v: VehicleRow) => SortKey> = {
    relevance: (v) => [-relevance(v, words), Number(v.price_per_day), Number(v.id)],
    price_asc: (v) => [price(v), Number(v.id)],
    price_desc: (v) => [-price(v), Number(v.id)],
    name: (v) => [v.name, Number(v.id)],
    year_desc: (v) => [-(v.year ?? 0), Number(v.id)],
  };
  const sortKey = keyOf[q.sort ?? 'relevance'];
  const keyed = list.map((v) => ({ v, k: sortKey(v) })).sort((a, b) => compareKeys(a.k, b.k));
  const base = p.storeCurrency.code;
  const conv = displayCurrency(p, q.currency);
  const currency = conv ? conv.format.code : base;
  const shown = (n: number) => (conv ? shownIn(conv, n) : baseShown(n));
  const fp = queryFingerprint(q as unknown as Record<string, unknown>);
  let from = (q.page - 1) * q.per_page;
  if (q.cursor !== undefined) {
    const after = decodeCursor(p.config.secret, fp, q.cursor);
    from = keyed.findIndex((x) => compareKeys(x.k, after) > 0);
    if (from < 0) from = keyed.length;
  }
  const slice = keyed.slice(from, from + q.per_page);
  const more = from + q.per_page < keyed.length && slice.length > 0;
  const page = slice.map((x) => x.v);
  return {
    next_cursor: more ? encodeCursor(p.config.secret, fp, slice[slice.length - 1]!.k) : null,
    items: page.map((v) => ({
      vehicle_id: Number(v.id),
      name: v.name,
      slug: v.slug,
      category: v.category,
      brand: v.brand,
      model: v.model,
      year: v.year,
      seats: v.seats,
      transmission: v.transmission,
      fuel_type: v.fuel_type,
      features: v.features,
      location_id: v.location_id === null ? null : Number(v.location_id),
      photos: (cat.photos.get(Number(v.id)) ?? []).map((r) => photoView(p.config.restRoot, r)),
      days,
      price_per_day: shown(Number(v.price_per_day)),
      total_price: shown(totals.get(Number(v.id))!),
      currency,
    })),
    total: list.length,
    total_pages: Math.ceil(list.length / q.per_page),
    page: q.cursor === undefined ? q.page : null,
    per_page: q.per_page,
    facets,
    currency,
  };
}
