-- Refunds owed to customers, written in the same transaction that decides them and delivered to the payment
-- provider after commit. A provider outage leaves the row pending; the journey job retries it with backoff, and
-- the provider's idempotency key makes a retry that did reach the provider harmless.
CREATE TABLE rental_refunds (
  id bigserial PRIMARY KEY,
  payment_id bigint NOT NULL REFERENCES rental_payments(id) ON DELETE CASCADE,
  booking_id bigint NOT NULL REFERENCES rental_bookings(id) ON DELETE CASCADE,
  amount numeric(12,2) NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('late_payment_slot_taken', 'customer_cancelled')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done')),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  done_at timestamptz,
  UNIQUE (payment_id, reason)
);
CREATE INDEX rental_refunds_due ON rental_refunds(next_attempt_at) WHERE status = 'pending';
