-- Issue 39.3: every booking pays an insert into each index of its rows; these three served nothing another index
-- does not serve as well.
--
-- rental_bookings_lapsing (the expiry job's sweep) and rental_bookings_payment_reminder (the reminder job's claim)
-- both indexed the deadlines of pending bookings, as rental_bookings_vehicle_lapsing (0630) already does with the
-- vehicle in front. The jobs run once a minute over the pending bookings, a set that lapses as it goes; the per-vehicle
-- lapse check of every booking write keeps its index.
DROP INDEX IF EXISTS rental_bookings_lapsing;
DROP INDEX IF EXISTS rental_bookings_payment_reminder;

-- A provider's payment id is unique where there is one; a new booking's payment has none yet, and no longer goes into
-- the index as a NULL. The WordPress import's upsert names the same predicate.
ALTER TABLE rental_payments DROP CONSTRAINT IF EXISTS rental_payments_external_id_key;
CREATE UNIQUE INDEX IF NOT EXISTS rental_payments_external_id_key ON rental_payments (external_id) WHERE external_id IS NOT NULL;
