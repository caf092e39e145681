-- Currency service (rova-fx/v1): configured currencies and per-user cache-notice snoozes.
-- Settings, the base currency, last_sync and the recorded cache anomalies live in rova_options.
CREATE TABLE rova_fx_currencies (
  code text PRIMARY KEY CHECK (code ~ '^[A-Z]{3}$'),
  position integer NOT NULL,
  data jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE rova_fx_snoozes (
  user_id bigint NOT NULL REFERENCES rova_users(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('anomaly', 'fragments')),
  signature text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, kind)
);
