-- JWT sessions for mobile apps: signing keys (private half encrypted with ROVA_SECRET), one session per
-- login (the `sid` claim), and its family of rotating refresh tokens (stored as keyed hashes only).
CREATE TABLE rova_signing_keys (
  kid text PRIMARY KEY,
  alg text NOT NULL,
  public_jwk jsonb NOT NULL,
  private_enc text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- set when a newer key takes over: the key still verifies until verify_until (its last tokens expire)
  retired_at timestamptz,
  verify_until timestamptz
);

CREATE TABLE rova_auth_sessions (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES rova_users(id) ON DELETE CASCADE,
  device text NOT NULL DEFAULT '',
  ip text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoke_reason text
);
CREATE INDEX rova_auth_sessions_user ON rova_auth_sessions(user_id);

CREATE TABLE rova_refresh_tokens (
  id bigserial PRIMARY KEY,
  session_id bigint NOT NULL REFERENCES rova_auth_sessions(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  parent_id bigint REFERENCES rova_refresh_tokens(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  used_at timestamptz,
  child_id bigint,
  -- the child token, encrypted, kept only so a concurrent refresh with the same parent gets the same child
  child_token_enc text
);
CREATE INDEX rova_refresh_tokens_session ON rova_refresh_tokens(session_id);
