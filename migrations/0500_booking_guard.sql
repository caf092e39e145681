-- Double-booking guard: the database itself refuses two bookings that hold the same vehicle at overlapping
-- times, whatever the code does (design §8, ARCHITECTURE "Double-booking guard").
--
-- An exclusion constraint cannot call now(), yet a pending booking holds its slot only until its payment
-- deadline. So the row carries `holds_slot`, computed by a trigger on every write from the status and the
-- deadline (the same rule as findOverlap); a lapsed pending hold is released by touching the row (the expiry
-- job does it for every lapsed row, the booking service lazily for one vehicle before it checks a slot).
-- The buffer between two rentals (RENTAL_BUFFER_MINUTES) is stored per row and split in half around the
-- booking, so two slots collide exactly when the gap between them is shorter than the buffer.
CREATE EXTENSION IF NOT EXISTS btree_gist;

ALTER TABLE rental_bookings
  ADD COLUMN buffer_minutes integer NOT NULL DEFAULT 60 CHECK (buffer_minutes >= 0 AND buffer_minutes <= 10080),
  ADD COLUMN holds_slot boolean NOT NULL DEFAULT false,
  ADD COLUMN slot tstzrange;

CREATE FUNCTION rental_bookings_hold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.holds_slot := NEW.status IN ('confirmed', 'in_progress')
    OR (NEW.status IN ('pending_payment', 'pending') AND (NEW.payment_deadline IS NULL OR NEW.payment_deadline > now()));
  NEW.slot := tstzrange(NEW.pickup_at - make_interval(secs => NEW.buffer_minutes * 30),
                        NEW.return_at + make_interval(secs => NEW.buffer_minutes * 30), '[)');
  RETURN NEW;
END $$;
CREATE TRIGGER rental_bookings_hold BEFORE INSERT OR UPDATE ON rental_bookings
  FOR EACH ROW EXECUTE FUNCTION rental_bookings_hold();

-- existing rows: the trigger computes both columns
UPDATE rental_bookings SET holds_slot = holds_slot;

-- A lapsed hold that was never released could make an old database refuse this constraint: release first.
ALTER TABLE rental_bookings
  ADD CONSTRAINT rental_bookings_no_overlap EXCLUDE USING gist (vehicle_id WITH =, slot WITH &&) WHERE (holds_slot);

CREATE INDEX rental_bookings_lapsing ON rental_bookings(payment_deadline) WHERE holds_slot AND status IN ('pending_payment', 'pending');
