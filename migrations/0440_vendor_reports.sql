-- Vendor reports (design §6, reference §2.8): a vendor raises an issue about a booking, a vehicle, a vehicle
-- action (withdrawal appeal), a penalty, or in general; administrators review, resolve or reject it.
CREATE TABLE vendor_reports (
  id bigserial PRIMARY KEY,
  vendor_id bigint NOT NULL REFERENCES rova_users(id) ON DELETE RESTRICT,
  context_type text NOT NULL CHECK (context_type IN ('booking', 'vehicle', 'vehicle_action', 'penalty', 'general')),
  -- booking / vehicle id, or the penalty's ledger transaction id; null for general
  context_id bigint,
  title text NOT NULL,
  description text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'in_review', 'resolved', 'rejected')),
  admin_note text,
  admin_user_id bigint REFERENCES rova_users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  CHECK ((context_type = 'general') = (context_id IS NULL))
);
-- one open (open or in_review) report per (vendor, context), whatever the races; general reports count as one context
CREATE UNIQUE INDEX vendor_reports_one_open ON vendor_reports(vendor_id, context_type, coalesce(context_id, 0))
  WHERE status IN ('open', 'in_review');
CREATE INDEX vendor_reports_status ON vendor_reports(status, created_at DESC, id DESC);
CREATE INDEX vendor_reports_vendor ON vendor_reports(vendor_id, created_at DESC, id DESC);

-- The audit trail of a report: every change with actor, note and time (append-only).
CREATE TABLE vendor_report_events (
  id bigserial PRIMARY KEY,
  report_id bigint NOT NULL REFERENCES vendor_reports(id) ON DELETE CASCADE,
  action text NOT NULL CHECK (action IN ('created', 'in_review', 'resolved', 'rejected')),
  actor_id bigint,
  note text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX vendor_report_events_report ON vendor_report_events(report_id, id);
CREATE TRIGGER vendor_report_events_append_only BEFORE UPDATE ON vendor_report_events
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

-- Who cancelled a booking and when (the reliability score counts vendor-initiated cancellations of the last 6
-- months, reference §2.13); both cleared when the booking leaves cancelled.
ALTER TABLE rental_bookings
  ADD COLUMN cancelled_by text CHECK (cancelled_by IN ('customer', 'vendor', 'admin', 'system')),
  ADD COLUMN cancelled_at timestamptz;
CREATE INDEX rental_bookings_vendor_cancellations ON rental_bookings(cancelled_at) WHERE cancelled_by = 'vendor';
