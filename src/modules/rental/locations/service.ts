import type { Db } from '../../../platform/db/types.js';
import { slugify } from '../../store/index.js';
import { notFoundError, slugTaken } from '../errors.js';
import * as repo from './repo.js';
import type { LocationInsert, LocationUpdate } from './schema.js';

export type { LocationRow } from './repo.js';

/** The slug asked for, else one made from city and name: at most 90 characters, `location` when nothing is left. */
export const locationSlug = (b: { slug?: string; city: string; name: string }) =>
  b.slug ?? (slugify(`${b.city}-${b.name}`).slice(0, 90).replace(/-+$/, '') || 'location');

/** A new location; a slug another location has is refused (409). */
export async function createLocation(tx: Db, fields: LocationInsert): Promise<repo.LocationRow> {
  if (await repo.locationSlugTaken(tx, fields.slug)) throw slugTaken(fields.slug);
  return repo.insertLocation(tx, fields);
}

export async function editLocation(db: Db, id: number, fields: LocationUpdate): Promise<repo.LocationRow> {
  if (fields.slug && (await repo.locationSlugTaken(db, fields.slug, id))) throw slugTaken();
  const l = await repo.updateLocation(db, id, fields);
  if (!l) throw notFoundError('Location', id);
  return l;
}

/** Deletes a location (vehicles and bookings keep a null location). */
export async function removeLocation(db: Db, id: number): Promise<void> {
  if (!(await repo.deleteLocation(db, id))) throw notFoundError('Location', id);
}
