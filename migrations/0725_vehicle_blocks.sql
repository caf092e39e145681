-- Vehicle blocks (issue 35.5): days a vendor takes an own vehicle off the market (maintenance, own use). A block is
-- whole days in the store's time zone, [from_date, to_date] inclusive; starts_at/ends_at are those days as instants
-- (from_date 00:00 to the day after to_date 00:00, computed by the application, which knows STORE_TIMEZONE).
CREATE TABLE rental_vehicle_blocks (
  id bigserial PRIMARY KEY,
  vehicle_id bigint NOT NULL REFERENCES rental_vehicles(id) ON DELETE CASCADE,
  from_date date NOT NULL,
  to_date date NOT NULL,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  reason text NOT NULL CHECK (reason IN ('maintenance', 'own_use')),
  note text NOT NULL DEFAULT '',
  created_by bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (to_date >= from_date),
  CHECK (ends_at > starts_at)
);
CREATE INDEX rental_vehicle_blocks_vehicle ON rental_vehicle_blocks(vehicle_id, ends_at);

-- The double-booking guard of migration 0500 for blocks: a booking that comes to hold its slot (inserted holding,
-- or moved, reinstated, paid late) over a block of its vehicle is refused, with the buffer the availability check
-- keeps between a booking and whatever else holds the vehicle. Every writer holds the vehicle's row lock (the block
-- writer too), and in READ COMMITTED this trigger's query takes its own snapshot, after that lock was granted: a
-- block committed by the lock's previous holder is seen, whatever the snapshot of the statement that inserts.
CREATE FUNCTION rental_bookings_not_blocked() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  blk bigint;
BEGIN
  SELECT id INTO blk FROM rental_vehicle_blocks
    WHERE vehicle_id = NEW.vehicle_id
      AND starts_at < NEW.return_at + make_interval(secs => NEW.buffer_minutes * 60)
      AND ends_at > NEW.pickup_at - make_interval(secs => NEW.buffer_minutes * 60)
    LIMIT 1;
  IF blk IS NOT NULL THEN
    RAISE EXCEPTION 'vehicle % is blocked (block %) in the period of booking %', NEW.vehicle_id, blk, NEW.reference
      USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'rental_vehicle_blocks_no_booking';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER rental_bookings_not_blocked AFTER INSERT ON rental_bookings
  FOR EACH ROW WHEN (NEW.holds_slot) EXECUTE FUNCTION rental_bookings_not_blocked();
CREATE TRIGGER rental_bookings_not_blocked_moved AFTER UPDATE ON rental_bookings
  FOR EACH ROW WHEN (NEW.holds_slot AND (NOT OLD.holds_slot OR NEW.status IS DISTINCT FROM OLD.status
    OR NEW.slot IS DISTINCT FROM OLD.slot OR NEW.vehicle_id <> OLD.vehicle_id))
  EXECUTE FUNCTION rental_bookings_not_blocked();
