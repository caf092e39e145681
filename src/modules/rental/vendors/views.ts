import { toDate } from '../../../platform/db/types.js';
import type { VendorAuditRow } from '../ledger/audit.js';
import type { VendorBalances } from '../ledger/balances.js';
import type { ScoreHistoryRow } from '../ledger/score.js';
import { fromMinor } from '../ledger/money.js';
import { maskStored } from './iban.js';
import type { PayoutBrief } from './portal/payouts-brief.js';
import type { documentView } from './applications/views.js';
import type { VendorRow } from './repo.js';

const iso = (v: unknown) => (v === null || v === undefined ? null : toDate(v).toISOString());

export function vendorListItem(v: VendorRow, currency: string) {
  return {
    id: Number(v.user_id),
    display_name: v.display_name,
    email: v.email,
    city: v.city,
    service_areas: v.service_areas,
    status: v.status,
    approved_at: iso(v.approved_at),
    vehicle_count: Number(v.vehicle_count),
    reliability_score: v.reliability_score,
    owed: fromMinor(v.owed, currency),
  };
}

export function vendorDetailView(
  v: VendorRow,
  secret: string,
  currency: string,
  x: {
    balances: VendorBalances;
    counts: { completed: number; refunded: number };
    documents: ReturnType<typeof documentView>[];
    vehicles: { id: string; name: string; status: string; lifecycle: string | null }[];
    payouts: PayoutBrief[];
    scores: ScoreHistoryRow[];
  },
) {
  const m = (n: number) => fromMinor(n, currency);
  return {
    ...vendorListItem(v, currency),
    phone: v.phone,
    account_holder: v.account_holder,
    tax_office: v.tax_office,
    tax_number: v.tax_number,
    bio: v.bio,
    iban_masked: maskStored(secret, v.iban_encrypted),
    pending_iban_masked: maskStored(secret, v.pending_iban_encrypted),
    commission_rate: v.commission_rate === null ? null : Number(v.commission_rate),
    suspended_at: iso(v.suspended_at),
    documents: x.documents,
    statistics: {
      available: m(x.balances.available),
      pending: m(x.balances.pending),
      on_hold: m(x.balances.on_hold),
      total_earned: m(x.balances.total_earned),
      total_paid_out: m(x.balances.total_paid_out),
      penalties: m(x.balances.penalties),
      owed: m(x.balances.owed),
      currency,
      completed_bookings: x.counts.completed,
      refunded_bookings: x.counts.refunded,
      vehicle_count: Number(v.vehicle_count),
      reliability_score: v.reliability_score,
    },
    recent_payouts: x.payouts,
    score_history: x.scores.map((h) => ({
      event_type: h.event_type,
      vehicle_id: h.vehicle_id === null ? null : Number(h.vehicle_id),
      score_before: h.score_before,
      score_after: h.score_after,
      delta: h.delta,
      created_at: iso(h.created_at)!,
    })),
    vehicles: x.vehicles.map((c) => ({
      id: Number(c.id),
      name: c.name,
      status: c.status,
      lifecycle: c.lifecycle ?? 'active',
    })),
  };
}

export function auditView(a: VendorAuditRow, currency: string) {
  return {
    id: Number(a.id),
    vendor_id: Number(a.vendor_id),
    event_type: a.event_type,
    booking_id: a.booking_id === null ? null : Number(a.booking_id),
    vehicle_id: a.vehicle_id === null ? null : Number(a.vehicle_id),
    payout_id: a.payout_id === null ? null : Number(a.payout_id),
    ledger_transaction_id: a.ledger_tx_id === null ? null : Number(a.ledger_tx_id),
    amount: a.amount === null ? null : fromMinor(a.amount, currency),
    currency,
    note: a.note,
    admin_user_id: a.admin_user_id === null ? null : Number(a.admin_user_id),
    created_at: iso(a.created_at)!,
  };
}
