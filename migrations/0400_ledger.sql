-- Marketplace money ledger (design §6): double-entry, integer minor units, append-only.
-- Balances are sums of entries; ledger_accounts.balance is a cache kept in the same transaction and checked by
-- `rova ledger verify`.

CREATE TABLE ledger_accounts (
  id bigserial PRIMARY KEY,
  -- vendor:{id}:pending | vendor:{id}:available | vendor:{id}:payout_hold | platform:commission | platform:penalties | external
  code text NOT NULL UNIQUE,
  vendor_id bigint REFERENCES rova_users(id) ON DELETE RESTRICT,
  currency text NOT NULL,
  balance bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_accounts_vendor ON ledger_accounts(vendor_id) WHERE vendor_id IS NOT NULL;

CREATE TABLE ledger_transactions (
  id bigserial PRIMARY KEY,
  idempotency_key text NOT NULL UNIQUE,
  -- sha256 of the request that created it: a replay with the same key and hash answers the original, another
  -- hash is a conflict
  request_hash text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('commission', 'commission_clearing', 'commission_refund', 'payout_hold',
    'payout_release', 'payout_paid', 'payout_reversal', 'penalty', 'penalty_reversal')),
  vendor_id bigint REFERENCES rova_users(id) ON DELETE RESTRICT,
  -- what the money is about: booking:{id}, payout:{id}, vehicle:{id}, ledger_tx:{id}
  reference text,
  memo jsonb NOT NULL DEFAULT '{}'::jsonb,
  currency text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_transactions_vendor ON ledger_transactions(vendor_id, created_at DESC, id DESC);
CREATE INDEX ledger_transactions_reference ON ledger_transactions(reference);
CREATE INDEX ledger_transactions_kind ON ledger_transactions(kind, created_at);

CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  transaction_id bigint NOT NULL REFERENCES ledger_transactions(id) ON DELETE RESTRICT,
  account_id bigint NOT NULL REFERENCES ledger_accounts(id) ON DELETE RESTRICT,
  amount bigint NOT NULL CHECK (amount <> 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_tx ON ledger_entries(transaction_id);
CREATE INDEX ledger_entries_account ON ledger_entries(account_id, id);

-- Append-only: corrections are reversing transactions.
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: write a reversing transaction instead', TG_TABLE_NAME;
END $$;
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_transactions_no_truncate BEFORE TRUNCATE ON ledger_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

-- Every transaction balances (its entries sum to 0) and has at least two entries; checked at commit so the
-- entries of one transaction can be inserted one by one.
CREATE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx_id bigint;
  n integer;
  total numeric;
BEGIN
  IF TG_TABLE_NAME = 'ledger_entries' THEN tx_id := NEW.transaction_id; ELSE tx_id := NEW.id; END IF;
  SELECT count(*), coalesce(sum(amount), 0) INTO n, total FROM ledger_entries WHERE transaction_id = tx_id;
  IF n < 2 OR total <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % is not balanced (% entries, sum %)', tx_id, n, total;
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced();
CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced();

-- Vendors (a user approved as a supplier) and their listed vehicles. The application flow adds to these later.
CREATE TABLE rental_vendors (
  user_id bigint PRIMARY KEY REFERENCES rova_users(id) ON DELETE RESTRICT,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  -- percent override (null = volume tier / global rate)
  commission_rate numeric(5,2) CHECK (commission_rate IS NULL OR (commission_rate >= 0 AND commission_rate <= 100)),
  payout_freeze boolean NOT NULL DEFAULT false,
  approved_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Marketplace state of a vendor's vehicle (operator fleet vehicles have no row).
CREATE TABLE vendor_listings (
  vehicle_id bigint PRIMARY KEY REFERENCES rental_vehicles(id) ON DELETE CASCADE,
  vendor_id bigint NOT NULL REFERENCES rova_users(id) ON DELETE RESTRICT,
  lifecycle text NOT NULL DEFAULT 'pending_review'
    CHECK (lifecycle IN ('pending_review', 'active', 'paused', 'expired', 'withdrawn')),
  commission_rate numeric(5,2) CHECK (commission_rate IS NULL OR (commission_rate >= 0 AND commission_rate <= 100)),
  -- hidden by a vendor suspension: exactly these are restored on unsuspend
  hidden_by_suspension boolean NOT NULL DEFAULT false,
  withdrawn_at timestamptz,
  withdrawal_reason text,
  -- an upheld appeal: this withdrawal no longer counts (score, rolling count)
  withdrawal_excused boolean NOT NULL DEFAULT false,
  -- penalty captured at withdrawal while a vehicle_action report is open (minor units)
  deferred_penalty bigint,
  penalty_tx_id bigint REFERENCES ledger_transactions(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX vendor_listings_vendor ON vendor_listings(vendor_id, lifecycle);

-- Vendor audit log (design §6): what happened to a vendor's money and standing, append-only.
CREATE TABLE vendor_audit_log (
  id bigserial PRIMARY KEY,
  vendor_id bigint NOT NULL REFERENCES rova_users(id) ON DELETE RESTRICT,
  event_type text NOT NULL,
  booking_id bigint,
  vehicle_id bigint,
  payout_id bigint,
  ledger_tx_id bigint REFERENCES ledger_transactions(id),
  -- signed minor units, when the event moves money
  amount bigint,
  note text NOT NULL DEFAULT '',
  admin_user_id bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX vendor_audit_log_vendor ON vendor_audit_log(vendor_id, created_at DESC, id DESC);
CREATE TRIGGER vendor_audit_log_append_only BEFORE UPDATE OR DELETE ON vendor_audit_log
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
