import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';

export type PayoutStatus = 'requested' | 'approved' | 'rejected' | 'paid' | 'failed';

export interface PayoutRow {
  id: string | number;
  vendor_id: string | number;
  amount: string | number;
  currency: string;
  status: PayoutStatus;
  idempotency_key: string | null;
  request_hash: string;
  statement_number: string | null;
  /** The vendor's own payout number (#1, #2, …), given at the request. */
  statement_no: number;
  rejection_reason: string | null;
  external_reference: string | null;
  decided_by: string | number | null;
  requested_at: string;
  decided_at: string | null;
  paid_at: string | null;
  failed_at: string | null;
  vendor_name?: string;
}

const SELECT = sql`SELECT p.*, coalesce(nullif(u.display_name, ''), u.login) AS vendor_name FROM vendor_payouts p JOIN rova_users u ON u.id = p.vendor_id`;

export async function payoutById(db: Db, id: number, forUpdate = false): Promise<PayoutRow | undefined> {
  return one<PayoutRow>(db, sql`${SELECT} WHERE p.id = ${id} ${forUpdate ? sql`FOR UPDATE OF p` : sql``}`);
}

export async function payoutByKey(db: Db, vendorId: number, key: string): Promise<PayoutRow | undefined> {
  return one<PayoutRow>(db, sql`${SELECT} WHERE p.vendor_id = ${vendorId} AND p.idempotency_key = ${key}`);
}

export async function openPayoutOf(db: Db, vendorId: number): Promise<PayoutRow | undefined> {
  return one<PayoutRow>(db, sql`${SELECT} WHERE p.vendor_id = ${vendorId} AND p.status IN ('requested', 'approved')`);
}

export async function insertPayout(
  db: Db,
  f: {
    vendor_id: number;
    amount: number;
    currency: string;
    idempotency_key: string | null;
    request_hash: string;
    requested_at?: string;
  },
): Promise<PayoutRow> {
  // the vendor's next number: the caller holds the vendor's money lock, and the unique (vendor_id, statement_no)
  // index refuses a twin whatever happens
  return (await one<PayoutRow>(
    db,
    sql`INSERT INTO vendor_payouts (vendor_id, statement_no, amount, currency, idempotency_key, request_hash, requested_at)
    VALUES (${f.vendor_id}, (SELECT coalesce(max(statement_no), 0) + 1 FROM vendor_payouts WHERE vendor_id = ${f.vendor_id}),
      ${f.amount}, ${f.currency}, ${f.idempotency_key}, ${f.request_hash}, coalesce(${f.requested_at ?? null}::timestamptz, now()))
    RETURNING *`,
  ))!;
}

export async function updatePayout(
  db: Db,
  id: number,
  f: Partial<Pick<PayoutRow, 'status' | 'statement_number' | 'rejection_reason' | 'external_reference'>> & {
    decided_by?: number;
    stamp?: 'decided_at' | 'paid_at' | 'failed_at';
  },
): Promise<void> {
  await db.execute(sql`UPDATE vendor_payouts SET
      status = coalesce(${f.status ?? null}, status),
      statement_number = coalesce(${f.statement_number ?? null}, statement_number),
      rejection_reason = coalesce(${f.rejection_reason ?? null}, rejection_reason),
      external_reference = coalesce(${f.external_reference ?? null}, external_reference),
      decided_by = coalesce(${f.decided_by ?? null}, decided_by),
      decided_at = ${f.stamp === 'decided_at' ? sql`now()` : sql`decided_at`},
      paid_at = ${f.stamp === 'paid_at' ? sql`now()` : sql`paid_at`},
      failed_at = ${f.stamp === 'failed_at' ? sql`now()` : sql`failed_at`},
      updated_at = now()
    WHERE id = ${id}`);
}

/** Next statement number of the year (PS-YYYY-NNNN), under the counter row's lock. */
export async function nextStatementNumber(db: Db, year: number): Promise<string> {
  const r = await one<{ last: number }>(
    db,
    sql`INSERT INTO payout_statement_counters (year, last) VALUES (${year}, 1)
    ON CONFLICT (year) DO UPDATE SET last = payout_statement_counters.last + 1 RETURNING last`,
  );
  return `PS-${year}-${String(r!.last).padStart(4, '0')}`;
}

/** Stores a callback's receipt (webhook-id, payout); false when that delivery for that payout was seen before. */
export async function recordWebhook(db: Db, webhookId: string, payoutId: number, status: string): Promise<boolean> {
  const r = await one(
    db,
    sql`INSERT INTO payout_webhook_receipts (webhook_id, payout_id, status) VALUES (${webhookId}, ${payoutId}, ${status})
    ON CONFLICT (webhook_id, payout_id) DO NOTHING RETURNING webhook_id`,
  );
  return r !== undefined;
}

export async function webhookSeen(db: Db, webhookId: string): Promise<boolean> {
  return (await one(db, sql`SELECT 1 AS x FROM payout_webhook_receipts WHERE webhook_id = ${webhookId}`)) !== undefined;
}

export interface PayoutFilter {
  status?: string;
  vendor_id?: number;
}

export async function listPayouts(
  db: Db,
  f: PayoutFilter,
  limit: number,
  offset: number,
): Promise<{ items: PayoutRow[]; total: number }> {
  const c = [sql`true`];
  if (f.status && f.status !== 'all') c.push(sql`p.status = ${f.status}`);
  if (f.vendor_id !== undefined) c.push(sql`p.vendor_id = ${f.vendor_id}`);
  const w = sql.join(c, sql` AND `);
  const items = await rows<PayoutRow>(db, sql`${SELECT} WHERE ${w} ORDER BY p.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const n = await one<{ n: string }>(db, sql`SELECT count(*)::text AS n FROM vendor_payouts p WHERE ${w}`);
  return { items, total: Number(n?.n ?? 0) };
}

/** Keyset page (id ascending, after `afterId`) for streaming exports. */
export async function payoutsAfter(db: Db, afterId: number, limit: number, f: PayoutFilter = {}): Promise<PayoutRow[]> {
  const c = [sql`p.id > ${afterId}`];
  if (f.status && f.status !== 'all') c.push(sql`p.status = ${f.status}`);
  if (f.vendor_id !== undefined) c.push(sql`p.vendor_id = ${f.vendor_id}`);
  return rows<PayoutRow>(db, sql`${SELECT} WHERE ${sql.join(c, sql` AND `)} ORDER BY p.id LIMIT ${limit}`);
}
