import { vendorAccount } from './accounts.js';
import type { PostLedgerInput } from './post.js';

/*
 * The one way the ledger says "this income is cleared" and "this refund refunds that credit": the clearing or the
 * refund names the commission transaction in `settles_tx_id` (migration 0665; at most one of each per credit).
 * The clearing job, the booking refund path, the WordPress import and `rova verify` all go through here and
 * income-repo.ts's queries of that column, so a credit one writer cleared is cleared for every other. The kinds that may
 * settle a credit are post.ts's SETTLING_KINDS (kept there: post.ts must not import this file, which imports its types).
 */
/** The commission (income credit) a clearing acts on. */
export interface IncomeCredit {
  id: number;
  vendorId: number;
  /** The vendor's net, minor units. */
  net: number;
  currency: string;
  bookingId: number | null;
}

/**
 * The clearing of one credit (pending → available), to post with the caller's key and date. `reference` is only
 * descriptive (the link is `settles`); the import keeps the one its earlier runs hashed.
 */
export function clearingMovement(
  c: IncomeCredit,
  reference: string | null = `ledger_tx:${c.id}`,
  memo: Record<string, unknown> = {},
): Omit<PostLedgerInput, 'key' | 'at'> {
  return {
    kind: 'commission_clearing',
    vendorId: c.vendorId,
    reference,
    currency: c.currency,
    settles: c.id,
    lines: [
      { account: vendorAccount(c.vendorId, 'pending'), amount: -c.net },
      { account: vendorAccount(c.vendorId, 'available'), amount: c.net },
    ],
    memo: { booking_id: c.bookingId, commission_tx_id: String(c.id), ...memo },
  };
}
