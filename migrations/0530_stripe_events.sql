-- Stripe webhook events already acted on: Stripe delivers at least once, so a replayed event id acts once.
CREATE TABLE rental_stripe_events (
  event_id text PRIMARY KEY,
  type text NOT NULL,
  payment_intent text,
  outcome text NOT NULL DEFAULT 'received',
  received_at timestamptz NOT NULL DEFAULT now()
);
