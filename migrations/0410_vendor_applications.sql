-- Vendor applications (a logged-in user applies; admins decide) and their uploaded documents; the vendor's
-- profile and bank details copied on approval. IBANs are stored only encrypted (AES-256-GCM, key from ROVA_SECRET).

CREATE TABLE vendor_applications (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES rova_users(id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  phone text NOT NULL,
  city text NOT NULL,
  iban_encrypted text NOT NULL,
  account_holder text NOT NULL,
  tax_office text NOT NULL DEFAULT '',
  tax_number text NOT NULL DEFAULT '',
  bio text NOT NULL DEFAULT '',
  service_areas jsonb NOT NULL DEFAULT '[]'::jsonb,
  terms_version text NOT NULL,
  terms_accepted_at timestamptz NOT NULL,
  rejection_reason text,
  decided_by bigint REFERENCES rova_users(id) ON DELETE SET NULL,
  decided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- at most one pending application per user, whatever the races
CREATE UNIQUE INDEX vendor_applications_one_pending ON vendor_applications(user_id) WHERE status = 'pending';
CREATE INDEX vendor_applications_status ON vendor_applications(status, created_at DESC);

CREATE TABLE vendor_documents (
  id bigserial PRIMARY KEY,
  application_id bigint NOT NULL REFERENCES vendor_applications(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('id', 'license', 'address')),
  -- server-chosen random name under DATA_DIR/uploads/vendor-documents; the client's name is only a label
  stored_name text NOT NULL UNIQUE,
  original_name text NOT NULL,
  mime text NOT NULL,
  size integer NOT NULL CHECK (size > 0),
  sha256 text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (application_id, kind)
);

ALTER TABLE rental_vendors
  ADD COLUMN application_id bigint REFERENCES vendor_applications(id) ON DELETE SET NULL,
  ADD COLUMN phone text NOT NULL DEFAULT '',
  ADD COLUMN city text NOT NULL DEFAULT '',
  ADD COLUMN iban_encrypted text,
  ADD COLUMN account_holder text NOT NULL DEFAULT '',
  ADD COLUMN tax_office text NOT NULL DEFAULT '',
  ADD COLUMN tax_number text NOT NULL DEFAULT '',
  ADD COLUMN bio text NOT NULL DEFAULT '',
  ADD COLUMN service_areas jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- IBAN change request awaiting an admin
  ADD COLUMN pending_iban_encrypted text,
  ADD COLUMN iban_change_requested_at timestamptz,
  ADD COLUMN reliability_score integer NOT NULL DEFAULT 100 CHECK (reliability_score BETWEEN 0 AND 100),
  ADD COLUMN suspended_at timestamptz;
