-- A booking whose price changes after money moved (issue 37 item 1: new dates re-price it) settles the difference:
-- what was paid beyond the new total is refunded (reason `booking_repriced`), what the new total asks beyond what
-- was paid is due (payment_status `partially_paid`, a pending payment for the difference). One payment can be
-- re-priced down more than once, so those refunds are not unique per payment and reason like the others.
ALTER TABLE rental_bookings DROP CONSTRAINT rental_bookings_payment_status_check;
ALTER TABLE rental_bookings ADD CONSTRAINT rental_bookings_payment_status_check
  CHECK (payment_status IN ('unpaid', 'deposit_paid', 'partially_paid', 'paid', 'refunded', 'partially_refunded', 'failed'));
ALTER TABLE rental_refunds DROP CONSTRAINT rental_refunds_reason_check;
ALTER TABLE rental_refunds ADD CONSTRAINT rental_refunds_reason_check
  CHECK (reason IN ('late_payment_slot_taken', 'customer_cancelled', 'operator_cancelled', 'vendor_cancelled', 'booking_refunded', 'booking_repriced'));
ALTER TABLE rental_refunds DROP CONSTRAINT rental_refunds_payment_id_reason_key;
CREATE UNIQUE INDEX rental_refunds_payment_reason ON rental_refunds(payment_id, reason) WHERE reason <> 'booking_repriced';
