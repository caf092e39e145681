import { sql } from 'drizzle-orm';
import { Decimal } from '../money.js';
import { one, type Db } from '../../../platform/db/types.js';
import { PLATFORM_PENALTIES, vendorAccount } from './accounts.js';
import { recordVendorAudit } from './audit.js';
import { lockVendorMoney } from './income-repo.js';
import { postLedgerTransaction, type PostedLedgerTx } from './post.js';
import type { MarketplaceSettings } from './settings.js';

/** Penalty percent for the number of withdrawals in the rolling window, counting the current one (reference §2.13). */
export function penaltyRate(
  count: number,
  s: Pick<MarketplaceSettings, 'penalty_tier2_rate' | 'penalty_tier3_rate'>,
): number {
  if (count <= 0) return 0;
  return count === 1 ? s.penalty_tier2_rate : s.penalty_tier3_rate;
}

/** round(monthly average × rate / 100), half up, minor units; no income → 0. */
export function penaltyAmount(monthlyAverageMinor: number, ratePercent: number): number {
  return new Decimal(monthlyAverageMinor)
    .mul(ratePercent)
    .div(100)
    .toDecimalPlaces(0, Decimal.ROUND_HALF_UP)
    .toNumber();
}

export interface ScoreInputs {
  cancellations: number;
  withdrawals: number;
  pauses: number;
  completed: number;
}

/** 100 − 5×cancellations − 10×withdrawals − 2×pauses + min(5×completed, 20), clamped to 0..100. */
export function reliabilityScore(x: ScoreInputs): number {
  const s = 100 - 5 * x.cancellations - 10 * x.withdrawals - 2 * x.pauses + Math.min(5 * x.completed, 20);
  return Math.max(0, Math.min(100, s));
}

export function scoreLabel(score: number): 'Excellent' | 'Good' | 'Fair' | 'Poor' {
  return score >= 90 ? 'Excellent' : score >= 70 ? 'Good' : score >= 50 ? 'Fair' : 'Poor';
}

/** Non-excused withdrawals of the vendor's vehicles within the window (months); a relisted vehicle's withdrawal still counts. */
export async function withdrawalCount(db: Db, vendorId: number, months: number): Promise<number> {
  const r = await one<{ n: string }>(
    db,
    sql`SELECT count(*)::text AS n FROM vendor_listings WHERE vendor_id = ${vendorId} AND withdrawn_at IS NOT NULL
    AND NOT withdrawal_excused AND withdrawn_at >= now() - make_interval(months => ${months})`,
  );
  return Number(r?.n ?? 0);
}

/** Average monthly commission income (net credits) over the last 6 months: Σ / distinct months with income. */
export async function monthlyAverageIncome(db: Db, vendorId: number): Promise<number> {
  const r = await one<{ total: string; months: string }>(
    db,
    sql`SELECT coalesce(sum(e.amount), 0)::text AS total,
      count(DISTINCT date_trunc('month', t.created_at))::text AS months
    FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
    WHERE t.vendor_id = ${vendorId} AND t.kind = 'commission' AND a.vendor_id = ${vendorId} AND t.created_at >= now() - interval '6 months'`,
  );
  const months = Number(r?.months ?? 0);
  return months === 0 ? 0 : new Decimal(r!.total).div(months).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/** Writes the withdrawal penalty (vendor available → platform:penalties), keyed by the vehicle's withdrawal. */
export async function applyWithdrawalPenalty(
  tx: Db,
  vendorId: number,
  vehicleId: number,
  amount: number,
  currency: string,
  withdrawalKey: string,
): Promise<PostedLedgerTx | null> {
  if (amount <= 0) return null;
  await lockVendorMoney(tx, vendorId);
  const posted = await postLedgerTransaction(tx, {
    key: `penalty:vehicle:${vehicleId}:${withdrawalKey}`,
    kind: 'penalty',
    vendorId,
    reference: `vehicle:${vehicleId}`,
    currency,
    lines: [
      { account: vendorAccount(vendorId, 'available'), amount: -amount },
      { account: PLATFORM_PENALTIES, amount },
    ],
    memo: { vehicle_id: vehicleId },
  });
  if (!posted.replayed) {
    await tx.execute(
      sql`UPDATE vendor_listings SET penalty_tx_id = ${posted.transaction.id}, deferred_penalty = NULL WHERE vehicle_id = ${vehicleId}`,
    );
    await recordVendorAudit(tx, {
      vendorId,
      event: 'penalty_applied',
      vehicleId,
      ledgerTxId: Number(posted.transaction.id),
      amount: -amount,
      note: `Withdrawal penalty for vehicle ${vehicleId}.`,
    });
  }
  return posted;
}
