import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';

/** Instants [from, to) of a store-local date range. */
export interface Range {
  from: Date;
  to: Date;
}

export interface IncomeTotals {
  gross: number;
  net: number;
  completed: number;
}

/** Gross and net commission income of a vendor in a range (minor units), refunds netted. */
export async function incomeIn(db: Db, vendorId: number, r: Range): Promise<IncomeTotals> {
  const x = await one<{ gross: string; net: string; completed: string }>(
    db,
    sql`SELECT
      coalesce(-sum(e.amount) FILTER (WHERE a.code = 'external'), 0)::text AS gross,
      coalesce(sum(e.amount) FILTER (WHERE a.vendor_id IS NOT NULL), 0)::text AS net,
      (count(DISTINCT t.id) FILTER (WHERE t.kind = 'commission') - count(DISTINCT t.id) FILTER (WHERE t.kind = 'commission_refund'))::text AS completed
    FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
    WHERE t.vendor_id = ${vendorId} AND t.kind IN ('commission', 'commission_refund') AND t.created_at >= ${r.from.toISOString()} AND t.created_at < ${r.to.toISOString()}`,
  );
  return { gross: Number(x?.gross ?? 0), net: Number(x?.net ?? 0), completed: Number(x?.completed ?? 0) };
}

/** Net income per store-local day. */
export async function dailyIncome(
  db: Db,
  vendorId: number,
  r: Range,
  tz: string,
): Promise<Map<string, { gross: number; net: number }>> {
  const list = await rows<{ day: string; gross: string; net: string }>(
    db,
    sql`SELECT to_char(t.created_at AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS day,
      coalesce(-sum(e.amount) FILTER (WHERE a.code = 'external'), 0)::text AS gross, coalesce(sum(e.amount) FILTER (WHERE a.vendor_id IS NOT NULL), 0)::text AS net
    FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
    WHERE t.vendor_id = ${vendorId} AND t.kind IN ('commission', 'commission_refund') AND t.created_at >= ${r.from.toISOString()} AND t.created_at < ${r.to.toISOString()}
    GROUP BY 1`,
  );
  return new Map(list.map((d) => [d.day, { gross: Number(d.gross), net: Number(d.net) }]));
}

/** Bookings of the vendor's vehicles picked up in the range: all (non-draft), cancelled, and booked vehicle-days. */
export async function bookingStats(
  db: Db,
  vendorId: number,
  r: Range,
): Promise<{ total: number; cancelled: number; bookedDays: number; vehicles: number }> {
  const x = await one<{ total: string; cancelled: string; days: string; vehicles: string }>(
    db,
    sql`SELECT
      count(*) FILTER (WHERE b.status <> 'draft')::text AS total, count(*) FILTER (WHERE b.status = 'cancelled')::text AS cancelled,
      coalesce(sum(b.days) FILTER (WHERE b.status IN ('confirmed', 'in_progress', 'completed')), 0)::text AS days,
      (SELECT count(*) FROM rental_vehicles WHERE vendor_id = ${vendorId})::text AS vehicles
    FROM rental_bookings b JOIN rental_vehicles v ON v.id = b.vehicle_id
    WHERE v.vendor_id = ${vendorId} AND b.pickup_at >= ${r.from.toISOString()} AND b.pickup_at < ${r.to.toISOString()}`,
  );
  return {
    total: Number(x?.total ?? 0),
    cancelled: Number(x?.cancelled ?? 0),
    bookedDays: Number(x?.days ?? 0),
    vehicles: Number(x?.vehicles ?? 0),
  };
}

export interface EntryListRow {
  id: string | number;
  transaction_id: string | number;
  kind: string;
  account: string;
  amount: string | number;
  reference: string | null;
  created_at: string;
}

export interface EntryFilter {
  kind?: string;
  from?: Date;
  to?: Date;
}

function entryWhere(vendorId: number, f: EntryFilter) {
  const c = [sql`a.vendor_id = ${vendorId}`];
  if (f.kind) c.push(sql`t.kind = ${f.kind}`);
  if (f.from) c.push(sql`e.created_at >= ${f.from.toISOString()}`);
  if (f.to) c.push(sql`e.created_at < ${f.to.toISOString()}`);
  return sql.join(c, sql` AND `);
}

/** The vendor's own ledger entries (their accounts only), newest first. */
export async function vendorEntries(
  db: Db,
  vendorId: number,
  f: EntryFilter,
  limit: number,
  offset: number,
): Promise<{ items: EntryListRow[]; total: number }> {
  const w = entryWhere(vendorId, f);
  const base = sql`FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transactions t ON t.id = e.transaction_id WHERE ${w}`;
  const items = await rows<EntryListRow>(
    db,
    sql`SELECT e.id, e.transaction_id, t.kind, a.code AS account, e.amount, t.reference, e.created_at ${base} ORDER BY e.id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  const n = await one<{ n: string }>(db, sql`SELECT count(*)::text AS n ${base}`);
  return { items, total: Number(n?.n ?? 0) };
}

/** Keyset page of every ledger entry (id ascending, after `afterId`) for streaming exports. */
export async function entriesAfter(
  db: Db,
  afterId: number,
  limit: number,
): Promise<(EntryListRow & { vendor_id: string | number | null; currency: string })[]> {
  return rows(
    db,
    sql`SELECT e.id, e.transaction_id, t.kind, a.code AS account, a.vendor_id, e.amount, t.currency, t.reference, e.created_at
    FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transactions t ON t.id = e.transaction_id
    WHERE e.id > ${afterId} ORDER BY e.id LIMIT ${limit}`,
  );
}
