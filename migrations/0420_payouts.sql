-- Vendor payouts (design §8): requested → approved → paid | failed (a failure may come even after paid),
-- or requested → rejected. Money moves only through the ledger (payout_hold / release / paid / reversal).

CREATE TABLE vendor_payouts (
  id bigserial PRIMARY KEY,
  vendor_id bigint NOT NULL REFERENCES rova_users(id) ON DELETE RESTRICT,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'approved', 'rejected', 'paid', 'failed')),
  -- the vendor's Idempotency-Key header and a hash of the request body
  idempotency_key text,
  request_hash text NOT NULL,
  statement_number text UNIQUE,
  rejection_reason text,
  external_reference text,
  decided_by bigint REFERENCES rova_users(id) ON DELETE SET NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  paid_at timestamptz,
  failed_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (vendor_id, idempotency_key)
);
-- one open payout per vendor, whatever the races
CREATE UNIQUE INDEX vendor_payouts_one_open ON vendor_payouts(vendor_id) WHERE status IN ('requested', 'approved');
CREATE INDEX vendor_payouts_status ON vendor_payouts(status, id);
CREATE INDEX vendor_payouts_vendor ON vendor_payouts(vendor_id, id DESC);

-- Statement numbers PS-YYYY-NNNN: one counter row per year (the row lock serialises concurrent approvals).
CREATE TABLE payout_statement_counters (
  year integer PRIMARY KEY,
  last integer NOT NULL
);

-- Every processor callback's webhook-id, kept for good: a repeat is answered without acting again.
CREATE TABLE payout_webhook_receipts (
  webhook_id text PRIMARY KEY,
  payout_id bigint NOT NULL REFERENCES vendor_payouts(id) ON DELETE RESTRICT,
  status text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
