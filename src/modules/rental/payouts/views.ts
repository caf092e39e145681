import { toDate } from '../../../platform/db/types.js';
import { fromMinor } from '../ledger/money.js';
import type { PayoutStatementData } from './lines.js';
import type { PayoutRow } from './repo.js';

const iso = (v: unknown) => (v === null || v === undefined ? null : toDate(v).toISOString());

export function payoutView(p: PayoutRow) {
  return {
    id: Number(p.id),
    vendor_id: Number(p.vendor_id),
    vendor_name: p.vendor_name ?? `#${p.vendor_id}`,
    amount: fromMinor(p.amount, p.currency),
    currency: p.currency,
    status: p.status,
    statement_no: Number(p.statement_no),
    statement_number: p.statement_number,
    rejection_reason: p.rejection_reason,
    external_reference: p.external_reference,
    requested_at: iso(p.requested_at)!,
    decided_at: iso(p.decided_at),
    paid_at: iso(p.paid_at),
    failed_at: iso(p.failed_at),
  };
}

/** A statement's lines for the API: money in currency units (exact to the minor unit). */
export function statementLinesView(s: PayoutStatementData) {
  const c = s.payout.currency;
  const m = (n: number) => fromMinor(n, c);
  return {
    payout_id: Number(s.payout.id),
    statement_no: Number(s.payout.statement_no),
    statement_number: s.payout.statement_number,
    currency: c,
    period_start: s.period_start,
    period_end: s.period_end,
    opening_balance: m(s.opening),
    closing_balance: m(s.closing),
    totals: {
      income: m(s.totals.income),
      refunds: m(s.totals.refunds),
      penalties: m(s.totals.penalties),
      payouts: m(s.totals.payouts),
      returned: m(s.totals.returned),
    },
    lines: s.lines.map((l) => ({
      ...l,
      gross: m(l.gross),
      commission: m(l.commission),
      penalty: m(l.penalty),
      net: m(l.net),
      balance: m(l.balance),
    })),
  };
}
