import type { Db } from '../../../platform/db/types.js';
import { invalidField, notFoundError } from '../errors.js';
import * as repo from './repo.js';
import type { TransferRouteInsert, TransferRouteUpdate } from './schema.js';

export type { TransferRouteRow } from './repo.js';

/** An unknown origin or destination location is the caller's mistake (400), not a foreign-key 500. */
function fkError(e: unknown): never {
  const msg = e instanceof Error ? e.message + String((e as { cause?: unknown }).cause ?? '') : '';
  if (/foreign key|violates/.test(msg))
    throw invalidField('origin_location_id', 'origin_location_id or destination_location_id does not exist.');
  throw e;
}

export function findRoutes(db: Db, limit: number, offset: number) {
  return repo.listRoutes(db, limit, offset);
}

export async function routeOf(db: Db, id: number): Promise<repo.TransferRouteRow> {
  const r = await repo.routeById(db, id);
  if (!r) throw notFoundError('Transfer route', id);
  return r;
}

export function createRoute(tx: Db, fields: TransferRouteInsert): Promise<repo.TransferRouteRow> {
  return repo.insertRoute(tx, fields).catch(fkError);
}

export async function editRoute(db: Db, id: number, fields: TransferRouteUpdate): Promise<repo.TransferRouteRow> {
  const r = await repo.updateRoute(db, id, fields).catch(fkError);
  if (!r) throw notFoundError('Transfer route', id);
  return r;
}

export async function removeRoute(db: Db, id: number): Promise<void> {
  if (!(await repo.deleteRoute(db, id))) throw notFoundError('Transfer route', id);
}
