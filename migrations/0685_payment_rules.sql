-- Issue 35.1: each payment method has its own deadline rule (bookings/deadline.ts), a reminder goes out once before
-- a deadline lapses, and the desk records the payments it takes.
--
-- payment_reminded_at: set by the statement that claims the reminder (journey/reminders.ts), so two nodes or a re-run
-- of the job never mail it twice.
ALTER TABLE rental_bookings ADD COLUMN payment_reminded_at timestamptz;
CREATE INDEX rental_bookings_payment_reminder ON rental_bookings(payment_deadline)
  WHERE status = 'pending_payment' AND payment_reminded_at IS NULL;

-- A payment recorded at the desk (POST /v2/bookings/{id}/payments): how it was paid, the receipt or transfer
-- reference, and who recorded it. Null for payments a provider reported.
ALTER TABLE rental_payments
  ADD COLUMN method text CHECK (method IS NULL OR method IN ('cash', 'card_terminal', 'bank_transfer', 'other')),
  ADD COLUMN reference text,
  ADD COLUMN recorded_by bigint;

-- Demo bookings seeded before this rule waited for payment with a 30-minute deadline, so a restart cancelled them and
-- mailed their customers: the ones still holding their slot become what the demo means, pay-at-pick-up reservations.
UPDATE rental_bookings SET payment_method = 'pay_at_pickup', payment_deadline = NULL
  WHERE source = 'demo' AND status IN ('pending_payment', 'pending') AND payment_status = 'unpaid' AND holds_slot;
