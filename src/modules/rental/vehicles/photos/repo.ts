import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../../platform/db/types.js';
import { bigintArray } from '../../sqlx.js';
import type { Size, Variant } from './images.js';

export interface PhotoRow {
  id: string | number;
  vehicle_id: string | number;
  position: number;
  alt: string;
  storage_id: string;
  digest: string;
  width: number;
  height: number;
  variants: Record<Variant, Size>;
}

const COLS = sql`id, vehicle_id, position, alt, storage_id, digest, width, height, variants`;

/** Every photo of every vehicle, cover first (the catalogue snapshot keeps them in memory). */
export function allPhotos(db: Db): Promise<PhotoRow[]> {
  return rows<PhotoRow>(db, sql`SELECT ${COLS} FROM rental_vehicle_photos ORDER BY vehicle_id, position`);
}

export function photosOf(db: Db, vehicleId: number): Promise<PhotoRow[]> {
  return rows<PhotoRow>(
    db,
    sql`SELECT ${COLS} FROM rental_vehicle_photos WHERE vehicle_id = ${vehicleId} ORDER BY position`,
  );
}

/** The photos of several vehicles (a page of them), cover first. */
export function photosOfMany(db: Db, vehicleIds: readonly number[]): Promise<PhotoRow[]> {
  if (vehicleIds.length === 0) return Promise.resolve([]);
  return rows<PhotoRow>(
    db,
    sql`SELECT ${COLS} FROM rental_vehicle_photos WHERE vehicle_id = ANY(${bigintArray(vehicleIds)}::bigint[])
        ORDER BY vehicle_id, position`,
  );
}

export function photoById(db: Db, vehicleId: number, photoId: number): Promise<PhotoRow | undefined> {
  return one<PhotoRow>(
    db,
    sql`SELECT ${COLS} FROM rental_vehicle_photos WHERE id = ${photoId} AND vehicle_id = ${vehicleId}`,
  );
}

/** Locks the vehicle row: photo writes of one vehicle run one after another (positions, the count limit). */
export async function lockVehicleForPhotos(tx: Db, vehicleId: number): Promise<boolean> {
  const r = await one<{ id: string }>(tx, sql`SELECT id FROM rental_vehicles WHERE id = ${vehicleId} FOR UPDATE`);
  return r !== undefined;
}

export interface NewPhoto {
  alt: string;
  storage_id: string;
  digest: string;
  width: number;
  height: number;
  variants: Record<Variant, Size>;
}

/** Appends the photos after the vehicle's last one (call under lockVehicleForPhotos). */
export async function insertPhotos(
  tx: Db,
  vehicleId: number,
  photos: NewPhoto[],
  by: number | null,
): Promise<number[]> {
  const ids: number[] = [];
  for (const p of photos) {
    const r = await one<{ id: string }>(
      tx,
      sql`INSERT INTO rental_vehicle_photos (vehicle_id, position, alt, storage_id, digest, width, height, variants, created_by)
          SELECT ${vehicleId}, COALESCE(MAX(position) + 1, 0), ${p.alt}, ${p.storage_id}, ${p.digest}, ${p.width},
                 ${p.height}, ${JSON.stringify(p.variants)}::jsonb, ${by}
          FROM rental_vehicle_photos WHERE vehicle_id = ${vehicleId}
          RETURNING id`,
    );
    ids.push(Number(r!.id));
  }
  return ids;
}

export async function setAlt(tx: Db, vehicleId: number, photoId: number, alt: string): Promise<boolean> {
  const r = await rows(
    tx,
    sql`UPDATE rental_vehicle_photos SET alt = ${alt} WHERE id = ${photoId} AND vehicle_id = ${vehicleId} RETURNING id`,
  );
  return r.length > 0;
}

/** Positions 0..n-1 in the order given (every photo of the vehicle, each once: the service checks). */
export async function setOrder(tx: Db, vehicleId: number, photoIds: readonly number[]): Promise<void> {
  await tx.execute(
    sql`UPDATE rental_vehicle_photos p SET position = o.ord - 1
        FROM unnest(${bigintArray(photoIds)}::bigint[]) WITH ORDINALITY AS o(id, ord)
        WHERE p.id = o.id AND p.vehicle_id = ${vehicleId}`,
  );
}

/** Removes the photo and closes the gap in the positions (the next one becomes the cover when it was). */
export async function deletePhoto(tx: Db, vehicleId: number, photoId: number): Promise<PhotoRow | undefined> {
  const gone = await one<PhotoRow>(
    tx,
    sql`DELETE FROM rental_vehicle_photos WHERE id = ${photoId} AND vehicle_id = ${vehicleId} RETURNING ${COLS}`,
  );
  if (gone)
    await tx.execute(
      sql`UPDATE rental_vehicle_photos SET position = position - 1
          WHERE vehicle_id = ${vehicleId} AND position > ${gone.position}`,
    );
  return gone;
}
