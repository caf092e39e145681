-- Per-key quota plans (admin-set). Keys without a row use the default plan (writes per minute).
CREATE TABLE rova_api_key_plans (
  api_key_id bigint PRIMARY KEY REFERENCES rova_api_keys(id) ON DELETE CASCADE,
  name text NOT NULL DEFAULT 'custom',
  requests_per_minute integer NOT NULL CHECK (requests_per_minute > 0),
  requests_per_day integer CHECK (requests_per_day > 0),
  route_costs jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);
