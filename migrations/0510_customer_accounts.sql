-- Customer accounts (self-service register, e-mail verification, password reset, profile) and the mail outbox.
ALTER TABLE rova_users
  ADD COLUMN first_name text NOT NULL DEFAULT '',
  ADD COLUMN last_name text NOT NULL DEFAULT '',
  ADD COLUMN phone text NOT NULL DEFAULT '',
  ADD COLUMN email_verified_at timestamptz;

-- Single-use, expiring tokens sent by e-mail; only their keyed hash is stored.
CREATE TABLE rova_account_tokens (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES rova_users(id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rova_account_tokens_user ON rova_account_tokens(user_id, purpose);

-- Without SMTP_URL every mail is stored here (status 'stored') for an admin to read; with it, a mail the
-- SMTP server refused is kept as 'failed' with the reason.
CREATE TABLE rova_mail_outbox (
  id bigserial PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  template text NOT NULL,
  status text NOT NULL CHECK (status IN ('stored', 'failed')),
  error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rova_mail_outbox_created ON rova_mail_outbox(created_at DESC);
