-- Outbound webhooks: endpoints (secrets encrypted with ROVA_SECRET), one delivery per event and endpoint,
-- and the log of every attempt. Events are fanned out from the rova_events outbox exactly once.
ALTER TABLE rova_events ADD COLUMN fanned_out_at timestamptz;
CREATE INDEX rova_events_pending ON rova_events(id) WHERE fanned_out_at IS NULL;

CREATE TABLE rova_webhook_endpoints (
  id bigserial PRIMARY KEY,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  events text[] NOT NULL,
  secret_enc text NOT NULL,
  previous_secret_enc text,
  previous_secret_until timestamptz,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE rova_webhook_deliveries (
  id bigserial PRIMARY KEY,
  endpoint_id bigint NOT NULL REFERENCES rova_webhook_endpoints(id) ON DELETE CASCADE,
  event_id text NOT NULL REFERENCES rova_events(event_id) ON DELETE CASCADE,
  event_type text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_status integer,
  last_duration_ms integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz
);
CREATE INDEX rova_webhook_deliveries_due ON rova_webhook_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX rova_webhook_deliveries_endpoint ON rova_webhook_deliveries(endpoint_id, id);

CREATE TABLE rova_webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES rova_webhook_deliveries(id) ON DELETE CASCADE,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  response_status integer,
  duration_ms integer NOT NULL,
  error text
);
CREATE INDEX rova_webhook_attempts_delivery ON rova_webhook_attempts(delivery_id);
