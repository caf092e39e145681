-- Outbound events: written by the modules in the same transaction as the change they describe (outbox
-- pattern), delivered to webhook endpoints by a job. A rolled-back change leaves no event behind.
CREATE TABLE rova_events (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL UNIQUE,
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rova_events_type_created ON rova_events(type, created_at);
