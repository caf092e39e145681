import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import { dedupeSlug } from '../../store/index.js';
import { insertParts, setClause, whereAll } from '../sqlx.js';
import type {
  FUEL_TYPES,
  SERVICE_TYPES,
  TRANSMISSIONS,
  VEHICLE_STATUSES,
  VehicleInsert,
  VehicleUpdate,
} from './schema.js';

export interface VehicleRow {
  id: string | number;
  name: string;
  slug: string;
  status: (typeof VEHICLE_STATUSES)[number];
  vendor_id: string | number | null;
  price_per_day: string;
  deposit_percent: string | null;
  category: string;
  brand: string;
  model: string;
  year: number | null;
  seats: number | null;
  doors: number | null;
  transmission: (typeof TRANSMISSIONS)[number];
  fuel_type: (typeof FUEL_TYPES)[number];
  features: string[];
  description: string;
  location_id: string | number | null;
  service_type: (typeof SERVICE_TYPES)[number];
  transfer_max_passengers: number | null;
  transfer_max_luggage: number | null;
  blocked_dates: string[];
  created_at: string;
  updated_at: string;
}

export async function allVehicles(db: Db): Promise<VehicleRow[]> {
  return rows<VehicleRow>(db, sql`SELECT * FROM rental_vehicles ORDER BY id`);
}

export async function vehicleById(db: Db, id: number): Promise<VehicleRow | undefined> {
  return one<VehicleRow>(db, sql`SELECT * FROM rental_vehicles WHERE id = ${id}`);
}

/** Locks the vehicle row for the rest of the transaction (serialises bookings of one vehicle). */
export async function lockVehicle(tx: Db, id: number): Promise<VehicleRow | undefined> {
  return one<VehicleRow>(tx, sql`SELECT * FROM rental_vehicles WHERE id = ${id} FOR UPDATE`);
}

export interface VehicleFilter {
  status?: string;
  category?: string;
  location_id?: number;
  vendor_id?: number;
  search?: string;
}

export async function listVehicles(
  db: Db,
  f: VehicleFilter,
  limit: number,
  offset: number,
): Promise<{ items: VehicleRow[]; total: number }> {
  const c = [];
  if (f.status) c.push(sql`status = ${f.status}`);
  if (f.category) c.push(sql`category = ${f.category}`);
  if (f.location_id !== undefined) c.push(sql`location_id = ${f.location_id}`);
  if (f.vendor_id !== undefined) c.push(sql`vendor_id = ${f.vendor_id}`);
  if (f.search)
    c.push(
      sql`(name ILIKE ${'%' + f.search + '%'} OR brand ILIKE ${'%' + f.search + '%'} OR model ILIKE ${'%' + f.search + '%'})`,
    );
  const w = whereAll(c);
  const items = await rows<VehicleRow>(
    db,
    sql`SELECT * FROM rental_vehicles ${w} ORDER BY id LIMIT ${limit} OFFSET ${offset}`,
  );
  const total = await one<{ n: string | number }>(db, sql`SELECT count(*) AS n FROM rental_vehicles ${w}`);
  return { items, total: Number(total?.n ?? 0) };
}

export async function insertVehicle(db: Db, fields: VehicleInsert): Promise<VehicleRow> {
  const { cols, vals } = insertParts(fields);
  return (await one<VehicleRow>(db, sql`INSERT INTO rental_vehicles (${cols}) VALUES (${vals}) RETURNING *`))!;
}

export async function updateVehicle(db: Db, id: number, fields: VehicleUpdate): Promise<VehicleRow | undefined> {
  return one<VehicleRow>(db, sql`UPDATE rental_vehicles SET ${setClause(fields)} WHERE id = ${id} RETURNING *`);
}

export async function deleteVehicle(db: Db, id: number): Promise<boolean> {
  return (await rows(db, sql`DELETE FROM rental_vehicles WHERE id = ${id} RETURNING id`)).length > 0;
}

export async function vehicleHasBookings(db: Db, id: number): Promise<boolean> {
  return (await rows(db, sql`SELECT 1 FROM rental_bookings WHERE vehicle_id = ${id} LIMIT 1`)).length > 0;
}

/** Like the store's slugs: `base` when free, else the first free `base-2`, `base-3`, … */
export async function freeVehicleSlug(db: Db, base: string): Promise<string> {
  const like = base.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
  const r = await rows<{ slug: string }>(db, sql`SELECT slug FROM rental_vehicles WHERE slug LIKE ${like}`);
  return dedupeSlug(base, new Set(r.map((x) => x.slug)));
}

export async function slugTaken(db: Db, slug: string, exceptId?: number): Promise<boolean> {
  return (
    (await rows(db, sql`SELECT 1 FROM rental_vehicles WHERE slug = ${slug} AND id <> ${exceptId ?? 0}`)).length > 0
  );
}
