import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import { containsPattern } from '../shared/like.js';

export interface VendorRow {
  user_id: string | number;
  status: 'active' | 'suspended';
  display_name: string;
  email: string;
  phone: string;
  city: string;
  service_areas: string[];
  iban_encrypted: string | null;
  pending_iban_encrypted: string | null;
  iban_change_requested_at: string | null;
  account_holder: string;
  tax_office: string;
  tax_number: string;
  bio: string;
  application_id: string | number | null;
  commission_rate: string | null;
  payout_freeze: boolean;
  reliability_score: number;
  approved_at: string | null;
  suspended_at: string | null;
  vehicle_count: string | number;
  /** Minor units the vendor owes (a negative available balance), 0 when none. */
  owed: string | number;
}

// A vendor whose available balance went below 0 (a refund or penalty after the money was paid out) owes the difference.
const OWED = sql`greatest(0, -coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.code = 'vendor:' || d.user_id || ':available'), 0))`;

const SELECT = sql`SELECT d.*, coalesce(nullif(u.display_name, ''), u.login) AS display_name, u.email,
    (SELECT count(*) FROM rental_vehicles v WHERE v.vendor_id = d.user_id)::int AS vehicle_count,
    ${OWED}::text AS owed
  FROM rental_vendors d JOIN rova_users u ON u.id = d.user_id`;

export async function vendorById(db: Db, userId: number, forUpdate = false): Promise<VendorRow | undefined> {
  return one<VendorRow>(db, sql`${SELECT} WHERE d.user_id = ${userId} ${forUpdate ? sql`FOR UPDATE OF d` : sql``}`);
}

export const VENDOR_SORTS = {
  name: sql`display_name`,
  email: sql`u.email`,
  approved_at: sql`d.approved_at`,
  vehicle_count: sql`vehicle_count`,
  reliability_score: sql`d.reliability_score`,
  owed: sql`${OWED}`,
} as const;
export type VendorSort = keyof typeof VENDOR_SORTS;

export async function listVendors(
  db: Db,
  f: { search?: string; status?: string; owing?: boolean; sort: VendorSort; order: 'asc' | 'desc' },
  limit: number,
  offset: number,
): Promise<{ items: VendorRow[]; total: number }> {
  const c = [sql`true`];
  if (f.status && f.status !== 'all') c.push(sql`d.status = ${f.status}`);
  if (f.owing) c.push(sql`${OWED} > 0`);
  if (f.search)
    c.push(
      sql`(u.display_name ILIKE ${containsPattern(f.search)} OR u.email ILIKE ${containsPattern(f.search)} OR u.login ILIKE ${containsPattern(f.search)})`,
    );
  const w = sql.join(c, sql` AND `);
  const dir = f.order === 'asc' ? sql`ASC` : sql`DESC`;
  const items = await rows<VendorRow>(
    db,
    sql`${SELECT} WHERE ${w} ORDER BY ${VENDOR_SORTS[f.sort]} ${dir} NULLS LAST, d.user_id ASC LIMIT ${limit} OFFSET ${offset}`,
  );
  const n = await one<{ n: string }>(
    db,
    sql`SELECT count(*)::text AS n FROM rental_vendors d JOIN rova_users u ON u.id = d.user_id WHERE ${w}`,
  );
  return { items, total: Number(n?.n ?? 0) };
}

export async function setVendorStatus(db: Db, userId: number, status: 'active' | 'suspended'): Promise<void> {
  await db.execute(
    sql`UPDATE rental_vendors SET status = ${status}, suspended_at = ${status === 'suspended' ? sql`now()` : sql`NULL`}, updated_at = now() WHERE user_id = ${userId}`,
  );
}

/** Hides the vendor's listed (active) vehicles and remembers exactly which: returns their ids. */
export async function hideListedVehicles(db: Db, vendorId: number): Promise<number[]> {
  const listed = await rows<{ id: string }>(
    db,
    sql`SELECT id FROM rental_vehicles WHERE vendor_id = ${vendorId} AND status = 'active' ORDER BY id FOR UPDATE`,
  );
  const ids = listed.map((r) => Number(r.id));
  for (const id of ids) {
    await db.execute(sql`INSERT INTO vendor_listings (vehicle_id, vendor_id, lifecycle, hidden_by_suspension) VALUES (${id}, ${vendorId}, 'active', true)
      ON CONFLICT (vehicle_id) DO UPDATE SET hidden_by_suspension = true, updated_at = now()`);
    await db.execute(sql`UPDATE rental_vehicles SET status = 'inactive', updated_at = now() WHERE id = ${id}`);
  }
  return ids;
}

/** Restores exactly the vehicles a suspension hid. */
export async function restoreHiddenVehicles(db: Db, vendorId: number): Promise<number[]> {
  const hidden = await rows<{ vehicle_id: string }>(
    db,
    sql`UPDATE vendor_listings SET hidden_by_suspension = false, updated_at = now()
    WHERE vendor_id = ${vendorId} AND hidden_by_suspension RETURNING vehicle_id`,
  );
  const ids = hidden.map((r) => Number(r.vehicle_id)).sort((a, b) => a - b);
  for (const id of ids)
    await db.execute(sql`UPDATE rental_vehicles SET status = 'active', updated_at = now() WHERE id = ${id}`);
  return ids;
}

export async function vendorVehicles(
  db: Db,
  vendorId: number,
): Promise<{ id: string; name: string; status: string; lifecycle: string | null }[]> {
  return rows(
    db,
    sql`SELECT v.id, v.name, v.status, l.lifecycle FROM rental_vehicles v LEFT JOIN vendor_listings l ON l.vehicle_id = v.id
    WHERE v.vendor_id = ${vendorId} ORDER BY v.id LIMIT 100`,
  );
}

/** Completed and refunded bookings (from the ledger: commissions earned and reversed). */
export async function bookingCounts(db: Db, vendorId: number): Promise<{ completed: number; refunded: number }> {
  const r = await one<{ c: string; r: string }>(
    db,
    sql`SELECT count(*) FILTER (WHERE kind = 'commission')::text AS c,
    count(*) FILTER (WHERE kind = 'commission_refund')::text AS r FROM ledger_transactions WHERE vendor_id = ${vendorId}`,
  );
  return { completed: Number(r?.c ?? 0) - Number(r?.r ?? 0), refunded: Number(r?.r ?? 0) };
}

export async function setPendingIban(db: Db, vendorId: number, enc: string | null): Promise<void> {
  await db.execute(
    sql`UPDATE rental_vendors SET pending_iban_encrypted = ${enc}, iban_change_requested_at = ${enc ? sql`now()` : sql`NULL`}, updated_at = now() WHERE user_id = ${vendorId}`,
  );
}

export async function applyPendingIban(db: Db, vendorId: number): Promise<void> {
  await db.execute(sql`UPDATE rental_vendors SET iban_encrypted = pending_iban_encrypted, pending_iban_encrypted = NULL, iban_change_requested_at = NULL, updated_at = now()
    WHERE user_id = ${vendorId}`);
}
