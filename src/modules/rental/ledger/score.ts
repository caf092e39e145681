import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import { reliabilityScore, withdrawalCount, type ScoreInputs } from './penalty.js';

/**
 * Recomputes a vendor's reliability score (reference §2.13) and appends the history row for the event.
 * Cancellations are the vendor-initiated ones (bookings.cancelled_by = 'vendor') of the last 6 months.
 */
/** The counts the score is made of, as they stand now (cancellations and pauses of the last 6 months). */
export async function scoreInputs(db: Db, vendorId: number, windowMonths: number): Promise<ScoreInputs> {
  const x = await one<{ pauses: string; completed: string; cancellations: string }>(
    db,
    sql`SELECT
      (SELECT count(*) FROM rental_bookings b JOIN rental_vehicles v ON v.id = b.vehicle_id WHERE v.vendor_id = ${vendorId}
        AND b.cancelled_by = 'vendor' AND b.cancelled_at >= now() - interval '6 months')::text AS cancellations,
      (SELECT count(*) FROM vendor_audit_log WHERE vendor_id = ${vendorId} AND event_type = 'vehicle_paused' AND created_at >= now() - interval '6 months')::text AS pauses,
      (SELECT count(*) FILTER (WHERE kind = 'commission') - count(*) FILTER (WHERE kind = 'commission_refund') FROM ledger_transactions
        WHERE vendor_id = ${vendorId} AND created_at >= now() - interval '6 months')::text AS completed`,
  );
  return {
    cancellations: Number(x?.cancellations ?? 0),
    withdrawals: await withdrawalCount(db, vendorId, windowMonths),
    pauses: Number(x?.pauses ?? 0),
    completed: Number(x?.completed ?? 0),
  };
}

/**
 * Recomputes a vendor's reliability score (reference §2.13) and appends the history row for the event.
 * Cancellations are the vendor-initiated ones (bookings.cancelled_by = 'vendor') of the last 6 months.
 */
export async function recomputeReliability(
  tx: Db,
  vendorId: number,
  event: string,
  vehicleId: number | null,
  windowMonths: number,
): Promise<{ before: number; after: number }> {
  const cur = await one<{ reliability_score: number }>(
    tx,
    sql`SELECT reliability_score FROM rental_vendors WHERE user_id = ${vendorId} FOR UPDATE`,
  );
  if (!cur) return { before: 100, after: 100 };
  const after = reliabilityScore(await scoreInputs(tx, vendorId, windowMonths));
  const before = cur.reliability_score;
  await tx.execute(
    sql`UPDATE rental_vendors SET reliability_score = ${after}, updated_at = now() WHERE user_id = ${vendorId}`,
  );
  await tx.execute(sql`INSERT INTO vendor_score_history (vendor_id, event_type, vehicle_id, score_before, score_after, delta)
    VALUES (${vendorId}, ${event}, ${vehicleId}, ${before}, ${after}, ${after - before})`);
  return { before, after };
}

export interface ScoreHistoryRow {
  event_type: string;
  vehicle_id: string | number | null;
  score_before: number;
  score_after: number;
  delta: number;
  created_at: string;
}

export async function scoreHistory(db: Db, vendorId: number, limit = 10): Promise<ScoreHistoryRow[]> {
  return rows(
    db,
    sql`SELECT event_type, vehicle_id, score_before, score_after, delta, created_at FROM vendor_score_history WHERE vendor_id = ${vendorId}
    ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
  );
}
