import type { Db } from '../../../platform/db/types.js';
import { verifyLedger } from '../ledger/verify.js';
import { paidBalanceMismatches } from './paid-balance.js';
import { bookingsKeepingMoney, bookingsOverBlocks, overlappingHolders, strayRefunds } from './repo.js';

export interface IntegrityReport {
  ok: boolean;
  /** One line per finding, naming the ids. */
  findings: string[];
  summary: string;
}

/**
 * Everything `rova verify` checks: the ledger (every balance equals its entries, every transaction sums to 0) and the
 * booking invariants no race may break: no cancelled or refunded booking keeps a succeeded payment unrefunded and
 * unowed, no two bookings hold one vehicle at once, no booking holds a vehicle over a block of it, every refund belongs to a payment of its booking, every booking's
 * payments minus refunds are what its payment_status says is paid (paid-balance.ts).
 */
export async function verifyIntegrity(db: Db): Promise<IntegrityReport> {
  const ledger = await verifyLedger(db);
  const kept = await bookingsKeepingMoney(db);
  const overlaps = await overlappingHolders(db);
  const overBlocks = await bookingsOverBlocks(db);
  const stray = await strayRefunds(db);
  const findings = [
    ...ledger.mismatches.map((m) => `ledger: account ${m.account} cached ${m.cached}, entries sum ${m.computed}`),
    ...ledger.unbalanced.map(
      (u) => `ledger: transaction ${u.transaction_id} does not balance (${u.entries} entries, sum ${u.sum})`,
    ),
    ...ledger.breaches.map((b) => `ledger: ${b.message}`),
    ...kept.map(
      (k) =>
        `booking ${k.booking_id}: cancelled or refunded, but payment ${k.payment_id} succeeded and is neither refunded nor owed`,
    ),
    ...overlaps.map((o) => `bookings ${o.a} and ${o.b} both hold vehicle ${o.vehicle_id} over overlapping times`),
    ...overBlocks.map(
      (o) =>
        `booking ${o.booking_id} holds vehicle ${o.vehicle_id} over its block ${o.block_id} (maintenance or own use)`,
    ),
    ...stray.map((s) => `refund ${s.refund_id} is not tied to a payment of its booking`),
    ...(await paidBalanceMismatches(db)),
  ];
  const summary = `${ledger.accounts} accounts, ${ledger.transactions} transactions, ${ledger.entries} entries; bookings: ${kept.length} keeping money, ${overlaps.length} overlapping, ${overBlocks.length} over a vehicle block, ${stray.length} stray refunds`;
  return { ok: findings.length === 0, findings, summary };
}
