import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import { insertParts, setClause } from '../sqlx.js';
import type { ROUTE_PRICINGS, TransferRouteInsert, TransferRouteUpdate } from './schema.js';

export interface TransferRouteRow {
  id: string | number;
  origin_location_id: string | number | null;
  destination_location_id: string | number | null;
  origin: string;
  destination: string;
  distance_km: string;
  duration_min: number;
  pricing: (typeof ROUTE_PRICINGS)[number];
  base_price: string;
  price_per_km: string;
  min_price: string;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

export async function listRoutes(
  db: Db,
  limit: number,
  offset: number,
): Promise<{ items: TransferRouteRow[]; total: number }> {
  const items = await rows<TransferRouteRow>(
    db,
    sql`SELECT * FROM rental_transfer_routes ORDER BY id LIMIT ${limit} OFFSET ${offset}`,
  );
  const t = await one<{ n: string }>(db, sql`SELECT count(*) AS n FROM rental_transfer_routes`);
  return { items, total: Number(t?.n ?? 0) };
}
export async function routeById(db: Db, id: number): Promise<TransferRouteRow | undefined> {
  return one<TransferRouteRow>(db, sql`SELECT * FROM rental_transfer_routes WHERE id = ${id}`);
}
export async function insertRoute(db: Db, f: TransferRouteInsert): Promise<TransferRouteRow> {
  const { cols, vals } = insertParts(f);
  return (await one<TransferRouteRow>(
    db,
    sql`INSERT INTO rental_transfer_routes (${cols}) VALUES (${vals}) RETURNING *`,
  ))!;
}
export async function updateRoute(db: Db, id: number, f: TransferRouteUpdate): Promise<TransferRouteRow | undefined> {
  return one<TransferRouteRow>(db, sql`UPDATE rental_transfer_routes SET ${setClause(f)} WHERE id = ${id} RETURNING *`);
}
export async function deleteRoute(db: Db, id: number): Promise<boolean> {
  return (await rows(db, sql`DELETE FROM rental_transfer_routes WHERE id = ${id} RETURNING id`)).length > 0;
}
