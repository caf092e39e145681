import type { Db } from '../../../platform/db/types.js';
import { balanceMismatches, ledgerCounts, unbalancedTransactions } from './repo.js';

export interface LedgerVerification {
  ok: boolean;
  accounts: number;
  transactions: number;
  entries: number;
  /** Accounts whose cached balance differs from the sum of their entries. */
  mismatches: { account: string; cached: number; computed: number }[];
  /** Transactions whose entries do not sum to 0 (or have fewer than two). */
  unbalanced: { transaction_id: number; entries: number; sum: number }[];
}

/** Recomputes every balance from the entries and checks every transaction balances (`rova ledger verify`). */
export async function verifyLedger(db: Db): Promise<LedgerVerification> {
  const counts = await ledgerCounts(db);
  const mismatches = (await balanceMismatches(db)).map((r) => ({ account: r.code, cached: Number(r.cached), computed: Number(r.computed) }));
  const unbalanced = (await unbalancedTransactions(db)).map((r) => ({ transaction_id: Number(r.id), entries: Number(r.entries), sum: Number(r.total) }));
  return { ok: mismatches.length === 0 && unbalanced.length === 0, ...counts, mismatches, unbalanced };
}
