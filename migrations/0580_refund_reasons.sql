-- A booking ended by an operator, by its vendor, or moved to `refunded` gives back what is still paid (issue 19
-- item 2): those refunds carry their own reasons, next to the customer's cancel and the late payment.
ALTER TABLE rental_refunds DROP CONSTRAINT rental_refunds_reason_check;
ALTER TABLE rental_refunds ADD CONSTRAINT rental_refunds_reason_check
  CHECK (reason IN ('late_payment_slot_taken', 'customer_cancelled', 'operator_cancelled', 'vendor_cancelled', 'booking_refunded'));
