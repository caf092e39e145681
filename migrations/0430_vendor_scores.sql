-- Reliability score history (reference §2.13): one row per recomputation on an explicit event, newest first in reads.
CREATE TABLE vendor_score_history (
  id bigserial PRIMARY KEY,
  vendor_id bigint NOT NULL REFERENCES rova_users(id) ON DELETE CASCADE,
  event_type text NOT NULL,
  vehicle_id bigint,
  score_before integer NOT NULL,
  score_after integer NOT NULL,
  delta integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX vendor_score_history_vendor ON vendor_score_history(vendor_id, created_at DESC, id DESC);
