import type { Db } from '../../../platform/db/types.js';
import { balanceMismatches, ledgerCounts, unbalancedTransactions } from './repo.js';
import { ledgerMeaningBreaches, type LedgerBreach } from './verify-meaning.js';

export interface LedgerVerification {
  ok: boolean;
  accounts: number;
  transactions: number;
  entries: number;
  /** Accounts whose cached balance differs from the sum of their entries. */
  mismatches: { account: string; cached: number; computed: number }[];
  /** Transactions whose entries do not sum to 0 (or have fewer than two). */
  unbalanced: { transaction_id: number; entries: number; sum: number }[];
  /** What the balanced sums must also mean (verify-meaning.ts): credits cleared once, links, no negative pending. */
  breaches: LedgerBreach[];
}

/**
 * Recomputes every balance from the entries, checks every transaction balances and that the ledger means what it
 * must (`rova ledger verify`, `rova verify`).
 */
export async function verifyLedger(db: Db): Promise<LedgerVerification> {
  const counts = await ledgerCounts(db);
  const mismatches = (await balanceMismatches(db)).map((r) => ({
    account: r.code,
    cached: Number(r.cached),
    computed: Number(r.computed),
  }));
  const unbalanced = (await unbalancedTransactions(db)).map((r) => ({
    transaction_id: Number(r.id),
    entries: Number(r.entries),
    sum: Number(r.total),
  }));
  const breaches = await ledgerMeaningBreaches(db);
  return {
    ok: mismatches.length === 0 && unbalanced.length === 0 && breaches.length === 0,
    ...counts,
    mismatches,
    unbalanced,
    breaches,
  };
}
