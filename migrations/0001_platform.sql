-- Platform: users, sessions, API keys, options, transients, audit log, job leases.
CREATE TABLE rova_users (
  id bigserial PRIMARY KEY,
  login text NOT NULL UNIQUE,
  email text NOT NULL UNIQUE,
  display_name text NOT NULL DEFAULT '',
  role text NOT NULL CHECK (role IN ('administrator', 'shop_manager', 'vendor', 'customer')),
  password_hash text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE rova_sessions (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id bigint NOT NULL REFERENCES rova_users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  ip text,
  user_agent text
);
CREATE INDEX rova_sessions_user ON rova_sessions(user_id);

CREATE TABLE rova_api_keys (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES rova_users(id) ON DELETE CASCADE,
  name text NOT NULL DEFAULT '',
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  scopes text[] NOT NULL DEFAULT ARRAY['read']::text[],
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rova_api_keys_user ON rova_api_keys(user_id);

CREATE TABLE rova_options (
  name text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE rova_transients (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  expires_at timestamptz
);
CREATE INDEX rova_transients_expiry ON rova_transients(expires_at);

CREATE TABLE rova_audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  request_id text NOT NULL,
  actor_user_id bigint,
  actor_login text,
  auth_method text NOT NULL,
  api_key_id bigint,
  ip text,
  method text NOT NULL,
  route text NOT NULL,
  path text NOT NULL,
  target text,
  status integer NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('success', 'failure', 'denied')),
  details jsonb
);
CREATE INDEX rova_audit_log_at ON rova_audit_log(at DESC);
CREATE INDEX rova_audit_log_actor ON rova_audit_log(actor_user_id, at DESC);

-- Append-only: the audit log can be read and added to, never changed.
CREATE FUNCTION rova_audit_log_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'rova_audit_log is append-only';
END $$;
CREATE TRIGGER rova_audit_log_no_update BEFORE UPDATE OR DELETE ON rova_audit_log
  FOR EACH ROW EXECUTE FUNCTION rova_audit_log_immutable();

CREATE TABLE rova_job_leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL
);
