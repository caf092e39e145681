import { slugify } from '../../store/index.js';
import { detail, subject, type Notes } from './report.js';
import type { SqlRow, WpPost } from './source.js';
import { decimalOrNull, gmtIso, intOrNull, isRecord, listMeta, phpMeta, stringList } from './values.js';

/** MHM Rentiva locations, transfer routes and vehicles → Rova rows (pure). Ids are WordPress's own. */

const LOCATION_TYPES = ['airport', 'hotel', 'port', 'station', 'city_center', 'office', 'other'];
const TYPE_ALIASES: Record<string, string> = {
  train: 'station',
  marina: 'port',
  city: 'city_center',
  centre: 'city_center',
};

export interface LocationRow {
  id: number;
  name: string;
  slug: string;
  type: string;
  city: string;
  priority: number;
  isActive: boolean;
  allowRental: boolean;
  allowTransfer: boolean;
  createdAt: string;
}

const flag = (v: unknown, fallback: boolean) => (v === null || v === undefined ? fallback : Number(v) === 1);
const sqlDate = (v: unknown) => gmtIso(String(v ?? '')) ?? new Date(0).toISOString();

export function mapLocations(list: SqlRow[], notes: Notes): LocationRow[] {
  const slugs = new Set<string>();
  return list.map((r) => {
    const id = Number(r.id);
    const raw = String(r.type ?? 'other');
    let type = LOCATION_TYPES.includes(raw) ? raw : (TYPE_ALIASES[raw] ?? 'other');
    if (type !== raw)
      notes.warn(subject('location', id), 'unknown', `type "${raw}" is not a Rova location type, imported as ${type}`);
    if (!LOCATION_TYPES.includes(type)) type = 'other';
    const name = String(r.name ?? '').trim() || `Location ${id}`;
    let slug = slugify(name) || `location-${id}`;
    if (slugs.has(slug)) slug = `${slug}-${id}`;
    slugs.add(slug);
    return {
      id,
      name,
      slug,
      type,
      city: String(r.city ?? ''),
      priority: Number(r.priority ?? 0) || 0,
      isActive: flag(r.is_active, true),
      allowRental: flag(r.allow_rental, true),
      allowTransfer: flag(r.allow_transfer, true),
      createdAt: sqlDate(r.created_at),
    };
  });
}

export interface RouteRow {
  id: number;
  originId: number | null;
  destinationId: number | null;
  origin: string;
  destination: string;
  distanceKm: string;
  durationMin: number;
  pricing: 'fixed' | 'calculated';
  basePrice: string;
  pricePerKm: string;
  minPrice: string;
  createdAt: string;
}

/** The original prices a calculated route at distance × base_price (floored at min_price); Rova at base + distance × per-km. */
export function mapRoutes(list: SqlRow[], locations: Map<number, string>, notes: Notes): RouteRow[] {
  const out: RouteRow[] = [];
  for (const r of list) {
    const id = Number(r.id);
    const o = Number(r.origin_id);
    const d = Number(r.destination_id);
    if (!locations.has(o) || !locations.has(d)) {
      notes.skip(id, 'unlinked', `origin ${o} or destination ${d} is not an imported location`);
      continue;
    }
    const pricing = r.pricing_method === 'calculated' ? 'calculated' : 'fixed';
    const base =
      decimalOrNull(String(r.base_price ?? '0'), detail(subject('route', id), 'base price', 'base_price'), notes) ??
      '0';
    if (Number(r.max_price ?? 0) > 0)
      notes.warn(
        subject('route', id),
        'unsupported',
        `vendor ceiling max_price ${String(r.max_price)} has no Rova equivalent, not imported`,
      );
    out.push({
      id,
      originId: o,
      destinationId: d,
      origin: locations.get(o)!,
      destination: locations.get(d)!,
      distanceKm: String(Number(r.distance_km ?? 0)),
      durationMin: Number(r.duration_min ?? 0) || 0,
      pricing,
      basePrice: pricing === 'fixed' ? base : '0',
      pricePerKm: pricing === 'calculated' ? base : '0',
      minPrice:
        decimalOrNull(String(r.min_price ?? '0'), detail(subject('route', id), 'min price', 'min_price'), notes) ?? '0',
      createdAt: sqlDate(r.created_at),
    });
  }
  return out;
}

export interface VehicleRow {
  id: number;
  name: string;
  slug: string;
  status: 'active' | 'inactive' | 'maintenance';
  authorId: number;
  pricePerDay: string;
  depositPercent: string | null;
  category: string;
  brand: string;
  model: string;
  year: number | null;
  seats: number | null;
  doors: number | null;
  transmission: 'manual' | 'automatic';
  fuelType: string;
  features: string[];
  description: string;
  locationId: number | null;
  serviceType: 'rental' | 'transfer' | 'both';
  transferMaxPassengers: number | null;
  transferMaxLuggage: number | null;
  blockedDates: string[];
  createdAt: string;
  updatedAt: string;
  /** Marketplace listing state (vendor-owned vehicles only). */
  lifecycle: string;
  commissionRate: string | null;
}

const FUELS: Record<string, string> = {
  petrol: 'petrol',
  gasoline: 'petrol',
  benzin: 'petrol',
  diesel: 'diesel',
  dizel: 'diesel',
  hybrid: 'hybrid',
  electric: 'electric',
  ev: 'electric',
  lpg: 'lpg',
};
const BLOCKED_KEYS = ['_mhm_vehicle_blocked_dates', '_mhm_blocked_dates', '_mhm_rentiva_blocked_dates'];
const LIFECYCLES = ['pending_review', 'active', 'paused', 'expired', 'withdrawn'];

export function mapVehicles(posts: WpPost[], categories: Map<number, string>, notes: Notes): VehicleRow[] {
  const out: VehicleRow[] = [];
  for (const p of posts) {
    const at = subject('vehicle', p.id);
    const int = (key: string) => intOrNull(p.meta.get(key), { id: p.id, key }, notes);
    if (p.status === 'trash' || p.status === 'auto-draft') {
      notes.skip(p.id, 'not_live', p.status === 'trash' ? 'in the WordPress trash' : 'auto-draft (never saved)');
      continue;
    }
    const m = p.meta;
    const price =
      decimalOrNull(
        m.get('_mhm_rentiva_price_per_day'),
        detail(at, 'price per day', '_mhm_rentiva_price_per_day'),
        notes,
      ) ?? '0';
    const depRaw = (m.get('_mhm_rentiva_deposit') ?? '').replace('%', '').trim();
    const deposit =
      depRaw === '' || depRaw === '0'
        ? null
        : decimalOrNull(depRaw, detail(at, 'deposit', '_mhm_rentiva_deposit'), notes);
    const vstatus = m.get('_mhm_vehicle_status') ?? 'active';
    let status: VehicleRow['status'] = vstatus === 'inactive' || vstatus === 'maintenance' ? vstatus : 'active';
    if (p.status !== 'publish') status = status === 'maintenance' ? 'maintenance' : 'inactive';
    const tr = (m.get('_mhm_rentiva_transmission') ?? 'manual').toLowerCase();
    const transmission = tr === 'automatic' || tr === 'auto' ? 'automatic' : 'manual';
    if (tr !== transmission && tr !== 'auto') notes.warn(at, 'unknown', `transmission "${tr}" imported as manual`);
    const fuelRaw = (m.get('_mhm_rentiva_fuel_type') ?? 'petrol').toLowerCase();
    const fuelType = FUELS[fuelRaw] ?? 'petrol';
    if (!FUELS[fuelRaw]) notes.warn(at, 'unknown', `fuel type "${fuelRaw}" is not known, imported as petrol`);
    const svc = m.get('_mhm_vehicle_service_type') ?? m.get('_rentiva_vehicle_service_type') ?? 'rental';
    const serviceType = svc === 'transfer' || svc === 'both' ? svc : 'rental';
    // the meta box saves JSON text under _mhm_blocked_dates; older code and the cancellation blocker store PHP arrays
    const blocked: string[] = [];
    for (const key of BLOCKED_KEYS) {
      for (const x of listMeta(m.get(key), { id: p.id, key }, notes)) {
        const d = isRecord(x) ? String(x.date ?? '') : String(x);
        if (/^\d{4}-\d\d-\d\d$/.test(d)) blocked.push(d);
        else notes.value(p.id, key, 'unreadable', `entry "${d.slice(0, 40)}" is not a YYYY-MM-DD date; left out`);
      }
    }
    const lifeRaw = m.get('_mhm_vehicle_lifecycle_status') ?? '';
    const lifecycle = LIFECYCLES.includes(lifeRaw)
      ? lifeRaw
      : p.status === 'publish'
        ? 'active'
        : p.status === 'pending'
          ? 'pending_review'
          : 'withdrawn';
    const created = gmtIso(p.dateGmt) ?? new Date(0).toISOString();
    out.push({
      id: p.id,
      name: p.title || `Vehicle ${p.id}`,
      slug: p.name || slugify(p.title) || `vehicle-${p.id}`,
      status,
      authorId: p.author,
      pricePerDay: price,
      depositPercent: deposit,
      category: categories.get(p.id) ?? 'economy',
      brand: m.get('_mhm_rentiva_brand') ?? '',
      model: m.get('_mhm_rentiva_model') ?? '',
      year: m.has('_mhm_rentiva_year') ? int('_mhm_rentiva_year') : int('_mhm_rentiva_model_year'),
      seats: int('_mhm_rentiva_seats'),
      doors: int('_mhm_rentiva_doors'),
      transmission,
      fuelType,
      features: stringList(phpMeta(m.get('_mhm_rentiva_features'), { id: p.id, key: '_mhm_rentiva_features' }, notes)),
      description: p.content,
      locationId: int('_mhm_rentiva_location_id') || null,
      serviceType,
      transferMaxPassengers: m.has('_mhm_transfer_max_pax')
        ? int('_mhm_transfer_max_pax')
        : int('_rentiva_transfer_max_pax'),
      transferMaxLuggage: m.has('_mhm_transfer_max_luggage_score')
        ? int('_mhm_transfer_max_luggage_score')
        : int('_rentiva_transfer_max_luggage_score'),
      blockedDates: [...new Set(blocked)].sort(),
      createdAt: created,
      updatedAt: gmtIso(p.modifiedGmt) ?? created,
      lifecycle,
      commissionRate: decimalOrNull(
        m.get('_mhm_vendor_commission_rate'),
        detail(at, 'commission rate', '_mhm_vendor_commission_rate'),
        notes,
      ),
    });
  }
  return out;
}
