import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../../platform/db/types.js';

import type { ContextType, ReportStatus } from './types.js';

export { CONTEXT_TYPES, REPORT_STATUSES, type ContextType, type ReportStatus } from './types.js';
export const OPEN_STATUSES: readonly ReportStatus[] = ['open', 'in_review'];

export interface ReportRow {
  id: string | number;
  vendor_id: string | number;
  vendor_name: string;
  vendor_email: string;
  context_type: ContextType;
  context_id: string | number | null;
  title: string;
  description: string;
  status: ReportStatus;
  admin_note: string | null;
  admin_user_id: string | number | null;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
}

export interface ReportEventRow {
  action: string;
  actor_id: string | number | null;
  note: string | null;
  created_at: string;
}

const SELECT = sql`SELECT r.*, coalesce(nullif(u.display_name, ''), u.login) AS vendor_name, u.email AS vendor_email
  FROM vendor_reports r JOIN rova_users u ON u.id = r.vendor_id`;

export interface ReportFilter {
  status: ReportStatus | 'all';
  contextType?: ContextType;
  vendorId?: number;
}

function where(f: ReportFilter) {
  const parts = [sql`true`];
  if (f.status !== 'all') parts.push(sql`r.status = ${f.status}`);
  if (f.contextType) parts.push(sql`r.context_type = ${f.contextType}`);
  if (f.vendorId !== undefined) parts.push(sql`r.vendor_id = ${f.vendorId}`);
  return sql.join(parts, sql` AND `);
}

export async function listReports(
  db: Db,
  f: ReportFilter,
  limit: number,
  offset: number,
): Promise<{ items: ReportRow[]; total: number }> {
  const w = where(f);
  const items = await rows<ReportRow>(
    db,
    sql`${SELECT} WHERE ${w} ORDER BY r.created_at DESC, r.id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  const n = await one<{ n: string }>(db, sql`SELECT count(*)::text AS n FROM vendor_reports r WHERE ${w}`);
  return { items, total: Number(n?.n ?? 0) };
}

/** One report; with `vendorId` only that vendor's (another vendor's report is indistinguishable from a missing one). */
export async function reportById(
  db: Db,
  id: number,
  o: { vendorId?: number; forUpdate?: boolean } = {},
): Promise<ReportRow | undefined> {
  const own = o.vendorId === undefined ? sql`` : sql` AND r.vendor_id = ${o.vendorId}`;
  return one<ReportRow>(db, sql`${SELECT} WHERE r.id = ${id}${own} ${o.forUpdate ? sql`FOR UPDATE OF r` : sql``}`);
}

export async function reportEvents(db: Db, id: number): Promise<ReportEventRow[]> {
  return rows<ReportEventRow>(
    db,
    sql`SELECT action, actor_id, note, created_at FROM vendor_report_events WHERE report_id = ${id} ORDER BY id`,
  );
}

export async function openReportFor(
  db: Db,
  vendorId: number,
  type: ContextType,
  contextId: number | null,
): Promise<number | null> {
  const r = await one<{ id: string }>(
    db,
    sql`SELECT id::text FROM vendor_reports WHERE vendor_id = ${vendorId} AND context_type = ${type}
    AND coalesce(context_id, 0) = ${contextId ?? 0} AND status IN ('open', 'in_review')`,
  );
  return r ? Number(r.id) : null;
}

export async function insertReport(
  db: Db,
  r: { vendorId: number; type: ContextType; contextId: number | null; title: string; description: string; at?: string },
): Promise<number> {
  const x = await one<{ id: string }>(
    db,
    sql`INSERT INTO vendor_reports (vendor_id, context_type, context_id, title, description, created_at, updated_at)
    VALUES (${r.vendorId}, ${r.type}, ${r.contextId}, ${r.title}, ${r.description}, coalesce(${r.at ?? null}::timestamptz, now()), coalesce(${r.at ?? null}::timestamptz, now()))
    RETURNING id::text`,
  );
  return Number(x!.id);
}

export async function setReportStatus(
  db: Db,
  id: number,
  status: ReportStatus,
  adminId: number,
  note: string | null,
): Promise<void> {
  const terminal = status === 'resolved' || status === 'rejected';
  await db.execute(sql`UPDATE vendor_reports SET status = ${status}, admin_user_id = ${adminId}, admin_note = coalesce(${note}, admin_note),
      updated_at = now(), resolved_at = ${terminal ? sql`now()` : sql`NULL`} WHERE id = ${id}`);
}

export async function insertReportEvent(
  db: Db,
  id: number,
  action: 'created' | ReportStatus,
  actorId: number | null,
  note: string | null,
  at?: string,
): Promise<void> {
  await db.execute(sql`INSERT INTO vendor_report_events (report_id, action, actor_id, note, created_at)
    VALUES (${id}, ${action}, ${actorId}, ${note}, coalesce(${at ?? null}::timestamptz, now()))`);
}

/** Whether the context id names something of the vendor's (another vendor's is the same as a missing one). */
export async function contextOwned(db: Db, vendorId: number, type: ContextType, id: number): Promise<boolean> {
  const q =
    type === 'booking'
      ? sql`SELECT 1 AS ok FROM rental_bookings b JOIN rental_vehicles v ON v.id = b.vehicle_id WHERE b.id = ${id} AND v.vendor_id = ${vendorId}`
      : type === 'penalty'
        ? sql`SELECT 1 AS ok FROM ledger_transactions WHERE id = ${id} AND vendor_id = ${vendorId} AND kind = 'penalty'`
        : sql`SELECT 1 AS ok FROM vendor_listings WHERE vehicle_id = ${id} AND vendor_id = ${vendorId}`;
  return (await one<{ ok: number }>(db, q)) !== undefined;
}

/** The vendor's penalty transaction and the amount taken from the vendor (positive minor units). */
export async function penaltyOf(
  db: Db,
  vendorId: number,
  txId: number,
): Promise<{ amount: number; currency: string } | undefined> {
  const r = await one<{ amount: string; currency: string }>(
    db,
    sql`SELECT (-sum(e.amount))::text AS amount, t.currency
    FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
    WHERE t.id = ${txId} AND t.vendor_id = ${vendorId} AND t.kind = 'penalty' AND a.vendor_id = ${vendorId} GROUP BY t.currency`,
  );
  return r ? { amount: Number(r.amount), currency: r.currency } : undefined;
}

export interface WithdrawalState {
  lifecycle: string;
  withdrawn_at: string | null;
  withdrawal_excused: boolean;
  deferred_penalty: string | null;
  penalty_tx_id: string | number | null;
}

export async function withdrawalState(db: Db, vehicleId: number): Promise<WithdrawalState | undefined> {
  return one<WithdrawalState>(
    db,
    sql`SELECT lifecycle, withdrawn_at, withdrawal_excused, deferred_penalty::text, penalty_tx_id
    FROM vendor_listings WHERE vehicle_id = ${vehicleId} FOR UPDATE`,
  );
}

/** An upheld appeal: the withdrawal no longer counts and any deferred penalty is dropped. */
export async function excuseWithdrawal(db: Db, where: { vehicleId: number } | { penaltyTxId: number }): Promise<void> {
  const w = 'vehicleId' in where ? sql`vehicle_id = ${where.vehicleId}` : sql`penalty_tx_id = ${where.penaltyTxId}`;
  await db.execute(
    sql`UPDATE vendor_listings SET withdrawal_excused = true, deferred_penalty = NULL, updated_at = now() WHERE ${w}`,
  );
}

export async function clearDeferredPenalty(db: Db, vehicleId: number): Promise<void> {
  await db.execute(
    sql`UPDATE vendor_listings SET deferred_penalty = NULL, updated_at = now() WHERE vehicle_id = ${vehicleId}`,
  );
}

export async function deferPenalty(db: Db, vehicleId: number, amount: number): Promise<void> {
  await db.execute(
    sql`UPDATE vendor_listings SET deferred_penalty = ${amount}, updated_at = now() WHERE vehicle_id = ${vehicleId}`,
  );
}
