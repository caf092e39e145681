import type { Db } from '../../../platform/db/types.js';

export interface PayoutBrief {
  id: number;
  amount: number;
  currency: string;
  status: string;
  statement_number: string | null;
  requested_at: string;
}

/** The vendor's 10 latest payouts for the vendor detail (filled in by the payouts feature). */
export async function recentPayoutsOf(db: Db, vendorId: number, currency: string): Promise<PayoutBrief[]> {
  void db;
  void vendorId;
  void currency;
  return [];
}
