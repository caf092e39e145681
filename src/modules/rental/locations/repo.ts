import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import { insertParts, setClause } from '../sqlx.js';

import type { LocationInsert, LocationType, LocationUpdate, OpeningHours } from './schema.js';

export type { OpeningHours };

export interface LocationRow {
  id: string | number;
  name: string;
  slug: string;
  type: LocationType;
  city: string;
  address: string;
  latitude: string | null;
  longitude: string | null;
  priority: number;
  is_active: boolean;
  allow_rental: boolean;
  allow_transfer: boolean;
  opening_hours: OpeningHours | null;
  created_at: string;
  updated_at: string;
}

export async function allLocations(db: Db): Promise<LocationRow[]> {
  return rows<LocationRow>(db, sql`SELECT * FROM rental_locations ORDER BY priority DESC, name, id`);
}

export async function locationById(db: Db, id: number): Promise<LocationRow | undefined> {
  return one<LocationRow>(db, sql`SELECT * FROM rental_locations WHERE id = ${id}`);
}

export async function insertLocation(db: Db, f: LocationInsert): Promise<LocationRow> {
  const { cols, vals } = insertParts(f);
  return (await one<LocationRow>(db, sql`INSERT INTO rental_locations (${cols}) VALUES (${vals}) RETURNING *`))!;
}

export async function updateLocation(db: Db, id: number, f: LocationUpdate): Promise<LocationRow | undefined> {
  return one<LocationRow>(db, sql`UPDATE rental_locations SET ${setClause(f)} WHERE id = ${id} RETURNING *`);
}

export async function deleteLocation(db: Db, id: number): Promise<boolean> {
  return (await rows(db, sql`DELETE FROM rental_locations WHERE id = ${id} RETURNING id`)).length > 0;
}

export async function locationSlugTaken(db: Db, slug: string, exceptId = 0): Promise<boolean> {
  return (await rows(db, sql`SELECT 1 FROM rental_locations WHERE slug = ${slug} AND id <> ${exceptId}`)).length > 0;
}
