-- The customer's booking journey (v2 /booking/create): the order with its lines, the payments against it,
-- and stored answers for Idempotency-Key (IETF draft semantics, kept 24 h).
CREATE TABLE rental_orders (
  id bigserial PRIMARY KEY,
  booking_id bigint NOT NULL UNIQUE REFERENCES rental_bookings(id) ON DELETE CASCADE,
  user_id bigint REFERENCES rova_users(id) ON DELETE SET NULL,
  payment_plan text NOT NULL CHECK (payment_plan IN ('deposit', 'full')),
  currency text NOT NULL,
  total numeric(12,2) NOT NULL,
  amount_due numeric(12,2) NOT NULL CHECK (amount_due >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rental_orders_user ON rental_orders(user_id, created_at DESC);

CREATE TABLE rental_order_lines (
  id bigserial PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES rental_orders(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('rental', 'addon', 'tax', 'deposit', 'full')),
  code text,
  description text NOT NULL,
  amount numeric(12,2) NOT NULL
);
CREATE INDEX rental_order_lines_order ON rental_order_lines(order_id);

CREATE TABLE rental_payments (
  id bigserial PRIMARY KEY,
  booking_id bigint NOT NULL REFERENCES rental_bookings(id) ON DELETE CASCADE,
  provider text NOT NULL CHECK (provider IN ('offline', 'stripe')),
  external_id text UNIQUE,
  amount numeric(12,2) NOT NULL,
  currency text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'refunded')),
  refunded_amount numeric(12,2) NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rental_payments_booking ON rental_payments(booking_id);

CREATE TABLE rova_idempotent_requests (
  scope text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'done')),
  response_status integer,
  response_body jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX rova_idempotent_requests_expiry ON rova_idempotent_requests(expires_at);
