import type { Db } from '../../../platform/db/types.js';
import { slugify } from '../../store/index.js';
import { invalidField, RentalErrors, slugTaken, vehicleNotFound } from '../errors.js';
import { isValidDate } from '../time.js';
import * as repo from './repo.js';
import type { VehicleInsert, VehicleUpdate } from './schema.js';

/** A slug of at most 90 characters (ASCII; accents folded), `vehicle` when nothing is left. */
const slugOf = (s: string) => slugify(s).slice(0, 90).replace(/-+$/, '') || 'vehicle';

type Columned = 'price_per_day' | 'deposit_percent' | 'blocked_dates';
type FieldsIn = { blocked_dates?: string[]; price_per_day?: number; deposit_percent?: number | null };

/** The body's values as columns: money and percent as decimal text, blocked dates checked, unique and sorted. */
export function vehicleFields<B extends FieldsIn>(b: B): Omit<B, Columned> & Pick<VehicleUpdate, Columned> {
  for (const d of b.blocked_dates ?? [])
    if (!isValidDate(d)) throw invalidField('blocked_dates', `blocked_dates: ${d} is not a date.`);
  return {
    ...b,
    price_per_day: b.price_per_day === undefined ? undefined : b.price_per_day.toFixed(2),
    deposit_percent:
      b.deposit_percent === undefined || b.deposit_percent === null ? b.deposit_percent : String(b.deposit_percent),
    blocked_dates: b.blocked_dates ? [...new Set(b.blocked_dates)].sort() : undefined,
  };
}

/** An unknown location or vendor is the caller's mistake (400), not a foreign-key 500. */
function fkError(e: unknown): never {
  const msg = e instanceof Error ? e.message + String((e as { cause?: unknown }).cause ?? '') : '';
  if (/foreign key|violates/.test(msg)) throw invalidField('location_id', 'location_id or vendor_id does not exist.');
  throw e;
}

export function findVehicles(db: Db, f: repo.VehicleFilter, limit: number, offset: number) {
  return repo.listVehicles(db, f, limit, offset);
}

export async function vehicleOf(db: Db, id: number): Promise<repo.VehicleRow> {
  const v = await repo.vehicleById(db, id);
  if (!v) throw vehicleNotFound(id);
  return v;
}

/** A new vehicle under the given slug, else the first free one made from its name (`base`, `base-2`, …). */
export async function createVehicle(
  tx: Db,
  fields: Omit<VehicleInsert, 'slug' | 'currency'> & { slug?: string },
  currency: string,
): Promise<repo.VehicleRow> {
  const slug = fields.slug ?? (await repo.freeVehicleSlug(tx, slugOf(fields.name)));
  if (await repo.slugTaken(tx, slug)) throw slugTaken(slug);
  return repo.insertVehicle(tx, { ...fields, slug, currency }).catch(fkError);
}

/** Updates a vehicle: a slug another vehicle has is refused (409) before the fields are checked. */
export async function editVehicle<B extends FieldsIn & { slug?: string }>(
  db: Db,
  id: number,
  body: B,
): Promise<repo.VehicleRow> {
  if (body.slug && (await repo.slugTaken(db, body.slug, id))) throw slugTaken();
  const v = await repo.updateVehicle(db, id, vehicleFields(body) as VehicleUpdate).catch(fkError);
  if (!v) throw vehicleNotFound(id);
  return v;
}

/** Deletes a vehicle without bookings; one with bookings is set inactive instead (409). */
export async function removeVehicle(db: Db, id: number): Promise<void> {
  if (!(await repo.vehicleById(db, id))) throw vehicleNotFound(id);
  if (await repo.vehicleHasBookings(db, id))
    throw RentalErrors.stateConflict('The vehicle has bookings; set its status to inactive instead.');
  await repo.deleteVehicle(db, id);
}
