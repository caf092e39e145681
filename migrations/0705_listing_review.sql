-- The review of a vendor's listing (issue 35): an administrator approves it (active) or rejects it with a reason the
-- vendor reads in the portal and by mail. A rejected listing is not bookable; the vendor may edit it and submit it
-- again (back to pending_review). The last decision is kept on the listing; the vendor audit log keeps every one.
ALTER TABLE vendor_listings DROP CONSTRAINT IF EXISTS vendor_listings_lifecycle_check;
ALTER TABLE vendor_listings ADD CONSTRAINT vendor_listings_lifecycle_check
  CHECK (lifecycle IN ('pending_review', 'active', 'paused', 'expired', 'withdrawn', 'rejected'));
ALTER TABLE vendor_listings
  ADD COLUMN review_reason text,
  ADD COLUMN reviewed_at timestamptz,
  ADD COLUMN reviewed_by bigint REFERENCES rova_users(id) ON DELETE SET NULL;
-- the review queue: oldest waiting first
CREATE INDEX vendor_listings_waiting ON vendor_listings(updated_at, vehicle_id) WHERE lifecycle = 'pending_review';
