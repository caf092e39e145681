-- What a payment still asks of its provider (issue 37 item 1): a PaymentIntent of an amount due whose creation
-- failed (provider down, 5xx, timeout) is started again by the journey job with the same idempotency key, so a
-- retry of a creation that did reach Stripe gets the same intent back; an intent made stale (its booking cancelled,
-- repriced, the amount due superseded by another, the customer paying another way) is cancelled at the provider.
-- Status `cancelled`: nothing is asked through this payment any more (money that arrives through it anyway is
-- settled like any payment and refunded where it is not owed).
ALTER TABLE rental_payments DROP CONSTRAINT rental_payments_status_check;
ALTER TABLE rental_payments ADD CONSTRAINT rental_payments_status_check
  CHECK (status IN ('pending', 'succeeded', 'failed', 'refunded', 'cancelled'));
ALTER TABLE rental_payments
  ADD COLUMN provider_action text CHECK (provider_action IN ('start', 'cancel')),
  ADD COLUMN provider_attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN provider_next_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN provider_error text;
CREATE INDEX rental_payments_provider_work ON rental_payments(provider_next_at) WHERE provider_action IS NOT NULL;
