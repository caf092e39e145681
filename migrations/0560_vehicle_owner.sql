-- One owner per vehicle (issue 19): the vendor a marketplace vehicle belongs to is written in two places,
-- rental_vehicles.vendor_id (commission reads it) and vendor_listings.vendor_id (the vendor's own screens read it).
-- They must never disagree, or a vendor's income goes to another vendor. The listing is the record of who listed the
-- vehicle, so any vehicle that disagrees with its listing takes the listing's vendor, and from then on a composite
-- foreign key makes the database refuse any change that would split them again.
UPDATE rental_vehicles v SET vendor_id = l.vendor_id, updated_at = now()
  FROM vendor_listings l
  WHERE l.vehicle_id = v.id AND v.vendor_id IS DISTINCT FROM l.vendor_id;

CREATE UNIQUE INDEX IF NOT EXISTS rental_vehicles_id_vendor ON rental_vehicles(id, vendor_id);

ALTER TABLE vendor_listings
  ADD CONSTRAINT vendor_listings_one_owner FOREIGN KEY (vehicle_id, vendor_id) REFERENCES rental_vehicles(id, vendor_id);
