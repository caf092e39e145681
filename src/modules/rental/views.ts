import { toDate } from '../../platform/db/types.js';
import { money } from './money.js';
import type { VehicleRow } from './vehicles/repo.js';
import type { VehicleView } from './vehicles/schema.js';
import type { PhotoView } from './vehicles/photos/views.js';

export const num = (v: string | number | null): number | null => (v === null ? null : Number(v));
export const iso = (v: unknown): string => toDate(v).toISOString();

/** Vehicle → API (allow-list); `photos` already shaped (photoView), cover first. */
export function vehicleView(r: VehicleRow, photos: PhotoView[] = []): VehicleView {
  return {
    id: Number(r.id),
    name: r.name,
    slug: r.slug,
    status: r.status,
    vendor_id: num(r.vendor_id),
    price_per_day: money(r.price_per_day),
    deposit_percent: r.deposit_percent === null ? null : Number(r.deposit_percent),
    category: r.category,
    brand: r.brand,
    model: r.model,
    year: r.year,
    seats: r.seats,
    doors: r.doors,
    transmission: r.transmission,
    fuel_type: r.fuel_type,
    features: r.features,
    description: r.description,
    location_id: num(r.location_id),
    service_type: r.service_type,
    transfer_max_passengers: r.transfer_max_passengers,
    transfer_max_luggage: r.transfer_max_luggage,
    blocked_dates: r.blocked_dates,
    photos,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}
