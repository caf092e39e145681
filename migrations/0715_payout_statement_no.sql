-- A vendor's payouts are numbered 1, 2, 3… per vendor (issue 35 item 4): the portal, the statement and the payout
-- mails name a payout "#n" by this number, not by the global id (a vendor's first payout showed "#2"). Assigned at
-- the request under the vendor's money lock (max + 1); existing payouts are numbered in their order per vendor.
ALTER TABLE vendor_payouts ADD COLUMN statement_no integer;
UPDATE vendor_payouts p SET statement_no = n.no
  FROM (SELECT id, row_number() OVER (PARTITION BY vendor_id ORDER BY id) AS no FROM vendor_payouts) n
  WHERE n.id = p.id;
ALTER TABLE vendor_payouts ALTER COLUMN statement_no SET NOT NULL;
ALTER TABLE vendor_payouts ADD CONSTRAINT vendor_payouts_statement_no_positive CHECK (statement_no > 0);
CREATE UNIQUE INDEX vendor_payouts_vendor_statement_no ON vendor_payouts(vendor_id, statement_no);
