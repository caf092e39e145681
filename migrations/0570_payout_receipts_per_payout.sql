-- A processor callback's receipt belongs to the payout it settled (issue 19): the same webhook-id delivered for
-- another payout is another delivery, not a replay. The signed body now names its payout as well, so a signature
-- made for one payout can no longer settle another.
ALTER TABLE payout_webhook_receipts DROP CONSTRAINT payout_webhook_receipts_pkey;
ALTER TABLE payout_webhook_receipts ADD PRIMARY KEY (webhook_id, payout_id);
