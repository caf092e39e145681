-- Driver and terms (issue 36.4): who drives a booking (name, date of birth, licence number), the flight number of an
-- airport pick-up, and which version of the rental terms the customer accepted and when. A table of its own, at most
-- one row per booking, written in the booking's transaction: personal data kept apart from the booking's accounting
-- columns, so erasing a customer deletes these rows outright (the bookings themselves are kept, anonymised).
-- Locations already say they are an airport (rental_locations.type = 'airport', migration 0300): no flag is added.
CREATE TABLE rental_booking_drivers (
  booking_id bigint PRIMARY KEY REFERENCES rental_bookings(id) ON DELETE CASCADE,
  name text CHECK (length(name) BETWEEN 1 AND 200),
  date_of_birth date,
  licence_number text CHECK (length(licence_number) BETWEEN 4 AND 30),
  flight_number text CHECK (length(flight_number) BETWEEN 3 AND 10),
  terms_version text,
  terms_accepted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- a driver is named, born and licensed, or not given at all
  CHECK ((name IS NULL) = (date_of_birth IS NULL) AND (name IS NULL) = (licence_number IS NULL)),
  -- an acceptance is a version and a time, or neither
  CHECK ((terms_version IS NULL) = (terms_accepted_at IS NULL))
);
