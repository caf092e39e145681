import type { Db } from '../../../platform/db/types.js';
import { invalidParam, RentalErrors } from '../errors.js';
import { statusLabel } from '../shared/labels.js';
import { money } from '../shared/money.js';
import { pageOf, parsePaging } from '../paging.js';
import * as repo from './directory-repo.js';
import type { SortKey } from './directory-schemas.js';
import { iso } from '../views.js';
import { eraseDriversOfCustomers } from '../bookings/driver/repo.js';

type Tx = <T>(fn: (tx: Db) => Promise<T>) => Promise<T>;

const isoOrNull = (v: string | null) => (v === null ? null : iso(v));

function customerView(r: repo.CustomerRow, currency: string) {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    address: r.address,
    user_id: r.user_id,
    created_at: iso(r.created_at),
    bookings_count: r.bookings_count,
    total_spent: money(r.total_spent),
    first_booking: isoOrNull(r.first_booking),
    last_booking: isoOrNull(r.last_booking),
    currency,
  };
}

export interface ListInput {
  search?: string;
  sort_by?: SortKey;
  sort_order?: 'asc' | 'desc';
  sort_dir?: 'asc' | 'desc';
  page?: number;
  per_page?: number;
}

export async function list(db: Db, currency: string, q: ListInput) {
  const p = parsePaging(q);
  const { items, total } = await repo.listCustomers(db, {
    search: q.search,
    sortBy: q.sort_by ?? 'last_booking',
    desc: (q.sort_order ?? q.sort_dir ?? 'desc') === 'desc',
    limit: p.limit,
    offset: p.offset,
  });
  return pageOf(
    items.map((r) => customerView(r, currency)),
    total,
    p,
  );
}

export async function detail(db: Db, currency: string, id: number) {
  const c = await repo.getCustomer(db, id);
  if (!c) throw RentalErrors.notFound('Customer not found.');
  const [recent, threads] = await Promise.all([repo.recentBookingsOf(db, id), repo.threadCountOf(db, id)]);
  return {
    ...customerView(c, currency),
    recent_bookings: recent.map((b) => ({
      id: b.id,
      reference: b.reference,
      vehicle_id: b.vehicle_id,
      vehicle_name: b.vehicle_name,
      status: b.status,
      status_label: statusLabel(b.status),
      pickup_at: iso(b.pickup_at),
      return_at: iso(b.return_at),
      total: money(b.total),
      currency: b.currency,
      created_at: iso(b.created_at),
    })),
    message_threads: threads,
  };
}

export const MAX_BULK_IDS = 1000;

/** `ids` must be a non-empty JSON array of positive integers (numbers, not strings); duplicates count once. */
export function parseIds(raw: unknown): number[] {
  const bad = (why: string) =>
    invalidParam('ids', `ids must be a non-empty array of positive integer customer ids (${why}).`, why);
  if (!Array.isArray(raw)) throw bad('not an array');
  if (raw.length === 0) throw bad('empty');
  if (raw.length > MAX_BULK_IDS) throw bad(`at most ${MAX_BULK_IDS} ids per request`);
  for (const v of raw) {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1)
      throw bad(`${JSON.stringify(v)} is not a positive integer`);
  }
  return [...new Set(raw as number[])];
}

/**
 * Deletes the customers and anonymises their bookings and messages (amounts kept for accounting) in ONE
 * transaction: any failure leaves everything as it was. Unknown ids are skipped.
 */
export async function bulkDelete(transaction: Tx, raw: unknown) {
  const ids = parseIds(raw);
  return transaction(async (tx) => {
    const existing = await repo.lockExisting(tx, ids);
    if (existing.length === 0)
      return { deleted: 0, skipped: ids.length, deleted_ids: [] as number[], anonymised_bookings: 0 };
    // the drivers named on their bookings are personal data too: deleted, not kept anonymised (issue 36.4)
    await eraseDriversOfCustomers(tx, existing);
    const anonymised = await repo.anonymiseBookings(tx, existing);
    await repo.anonymiseMessages(tx, existing);
    const deleted = await repo.deleteCustomers(tx, existing);
    return {
      deleted: deleted.length,
      skipped: ids.length - deleted.length,
      deleted_ids: deleted,
      anonymised_bookings: anonymised,
    };
  });
}
