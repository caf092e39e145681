import { Type } from '@sinclair/typebox';
import { PageSchema, PagingQuery } from '../paging.js';
import { DateStr, Id, Nullable, Text, lit } from '../schemas.js';
import { LEDGER_KINDS } from '../ledger/accounts.js';

export const PAYOUT_STATUSES = ['requested', 'approved', 'rejected', 'paid', 'failed'] as const;

export const Payout = Type.Object({
  id: Type.Integer(),
  vendor_id: Type.Integer(),
  vendor_name: Type.String(),
  amount: Type.Number(),
  currency: Type.String(),
  status: lit(PAYOUT_STATUSES),
  statement_no: Type.Integer({
    description:
      "The vendor's own payout number (#1, #2, …), given at the request: how the portal and the statement name it",
  }),
  statement_number: Nullable(Type.String({ description: 'PS-YYYY-NNNN, frozen at approval' })),
  rejection_reason: Nullable(Type.String()),
  external_reference: Nullable(Type.String()),
  requested_at: Type.String(),
  decided_at: Nullable(Type.String()),
  paid_at: Nullable(Type.String()),
  failed_at: Nullable(Type.String()),
});

export const PayoutRequestBody = Type.Object(
  {
    amount: Type.Number({
      description: "Major units (e.g. 150.00) with at most the currency's decimals; > 0 and ≥ the minimum payout",
    }),
  },
  { additionalProperties: false },
);
export const PayoutIdParams = Type.Object({ id: Id({ description: 'Payout id' }) });
export const PayoutListQuery = Type.Object({
  status: Type.Optional(lit([...PAYOUT_STATUSES, 'all'] as const)),
  vendor_id: Type.Optional(Id()),
  ...PagingQuery,
});
export const RejectPayoutBody = Type.Object({ reason: Text({ maxLength: 2000 }) }, { additionalProperties: false });
export const CallbackBody = Type.Object(
  {
    payout_id: Id({
      description:
        'The payout this callback settles: must equal the id in the URL (the signature covers the body, so it binds the payout)',
    }),
    status: lit(['paid', 'failed'] as const),
    amount: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1e12,
        description: "The payout's amount in currency units; when given it must equal the payout's",
      }),
    ),
    external_reference: Type.Optional(Text({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export const CallbackResult = Type.Object({
  payout_id: Type.Integer(),
  status: Type.String(),
  idempotent: Type.Boolean(),
});

export const SummaryQuery = Type.Object({
  vendor_id: Type.Optional(
    Id({ description: 'Administrators: the vendor to read (required for them); vendors read their own' }),
  ),
  start_date: Type.Optional(DateStr),
  end_date: Type.Optional(DateStr),
  kind: Type.Optional(lit(LEDGER_KINDS)),
  entries_from: Type.Optional(DateStr),
  entries_to: Type.Optional(DateStr),
  ...PagingQuery,
});

const Money = Type.Number();
export const Summary = Type.Object({
  vendor_id: Type.Integer(),
  currency: Type.String(),
  start_date: Type.String(),
  end_date: Type.String(),
  balances: Type.Object({
    available: Type.Number({
      description:
        'May be below 0 after a refund or penalty of money already paid out: the vendor owes that much, and future income settles it first',
    }),
    pending: Money,
    on_hold: Money,
    total_earned: Money,
    total_paid_out: Money,
    penalties: Money,
    owed: Type.Number({
      description: 'What the vendor owes the platform (−available when available < 0), 0 when nothing',
    }),
  }),
  revenue: Type.Object({
    gross: Money,
    net: Money,
    previous_gross: Money,
    growth_pct: Type.Number({ description: 'vs the previous period of the same length' }),
  }),
  payouts: Type.Object(
    {
      min_payout: Type.Number({ description: 'The smallest payout a vendor may request (marketplace setting)' }),
      payout_freeze: Type.Boolean({ description: 'While true no payout can be requested' }),
      open_payout_id: Nullable(
        Type.Integer({ description: 'The requested or approved payout still open (one at a time), else null' }),
      ),
      open_payout_no: Nullable(Type.Integer({ description: "That payout's number for the vendor (#n), else null" })),
    },
    { description: 'What a payout request is checked against' },
  ),
  completed_bookings: Type.Integer(),
  occupancy_pct: Type.Number(),
  cancellation_rate_pct: Type.Number(),
  daily: Type.Array(Type.Object({ date: Type.String(), gross: Money, net: Money })),
  entries: PageSchema(
    Type.Object({
      id: Type.Integer(),
      transaction_id: Type.Integer(),
      kind: Type.String(),
      account: Type.String({ description: 'pending | available | payout_hold' }),
      amount: Money,
      reference: Nullable(Type.String()),
      created_at: Type.String(),
    }),
  ),
});

export const SettingsBody = Type.Object(
  {
    payout_freeze: Type.Optional(Type.Boolean()),
    min_payout: Type.Optional(Type.Number({ minimum: 0, maximum: 1_000_000 })),
    commission_rate: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    hold_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
  },
  { additionalProperties: false },
);
export const Settings = Type.Object({
  payout_freeze: Type.Boolean(),
  min_payout: Type.Number(),
  commission_rate: Type.Number(),
  hold_days: Type.Integer(),
  tiers: Type.Array(Type.Object({ min: Type.Number(), discount: Type.Number() })),
  penalty_tier2_rate: Type.Number(),
  penalty_tier3_rate: Type.Number(),
  rolling_window_months: Type.Integer(),
  terms_version: Type.String(),
});

const StatementMoney = Type.Number({ description: 'Currency units (exact to the minor unit)' });
export const StatementLine = Type.Object({
  transaction_id: Type.Integer({ description: 'The ledger transaction' }),
  at: Type.String({ description: 'When it moved (ISO-8601)' }),
  type: lit(['income', 'refund', 'penalty', 'penalty_reversed', 'payout', 'payout_returned', 'other'] as const),
  description: Type.String(),
  booking_reference: Nullable(Type.String()),
  booking_start: Nullable(Type.String({ description: 'Pick-up of the booking (ISO-8601)' })),
  booking_end: Nullable(Type.String({ description: 'Return of the booking (ISO-8601)' })),
  gross: Type.Number({ description: 'What the customer paid (a refund: given back, negative); 0 on other lines' }),
  commission: Type.Number({ description: "The platform's commission on it (a refund: returned, negative)" }),
  penalty: Type.Number({ description: 'A penalty charged (positive) or reversed (negative)' }),
  net: Type.Number({ description: 'The change of the available balance' }),
  balance: Type.Number({ description: 'The available balance after this line' }),
});
export const PayoutStatementLines = Type.Object({
  payout_id: Type.Integer(),
  statement_no: Type.Integer(),
  statement_number: Nullable(Type.String()),
  currency: Type.String(),
  period_start: Nullable(
    Type.String({ description: "The previous payout's request (ISO-8601); null for the vendor's first payout" }),
  ),
  period_end: Type.String({ description: "This payout's request (ISO-8601)" }),
  opening_balance: StatementMoney,
  closing_balance: StatementMoney,
  totals: Type.Object({
    income: StatementMoney,
    refunds: StatementMoney,
    penalties: StatementMoney,
    payouts: StatementMoney,
    returned: StatementMoney,
  }),
  lines: Type.Array(StatementLine),
});
