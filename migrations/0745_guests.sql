-- Guest bookings (booking without an account).
--
-- A guest proves their e-mail address with a 6-digit code sent there; the code is stored only as a keyed hash
-- (HMAC with the server secret), lives a few minutes and allows a few attempts. A correct code gives a short-lived
-- guest pass (a random token, stored hashed too) that lets the guest book under that verified name and address.
CREATE TABLE rental_guest_codes (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL,
  code_hash text NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  verified_at timestamptz,
  pass_hash text UNIQUE,
  pass_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rental_guest_codes_email ON rental_guest_codes (lower(email), created_at DESC);

-- "Manage my booking" links are signed (HMAC), not stored; revoking a booking's links refuses every link issued
-- before `revoked_before` (mails sent after it carry a fresh, working link).
CREATE TABLE rental_manage_link_revocations (
  booking_id bigint PRIMARY KEY REFERENCES rental_bookings(id) ON DELETE CASCADE,
  revoked_before timestamptz NOT NULL
);
