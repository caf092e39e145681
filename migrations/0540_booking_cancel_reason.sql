-- Why a booking was cancelled, for the code (the human sentence goes to notes): 'payment_deadline_passed' (the
-- expiry job or the lazy release cancelled an unpaid hold; a payment arriving later may still confirm it while
-- the slot is free), 'late_payment_slot_taken' (that payment was refunded).
ALTER TABLE rental_bookings ADD COLUMN cancel_reason text;
