-- One way to say "this transaction settles that income credit" (issue 34.1): a clearing (pending → available) and
-- a commission refund name the commission transaction they act on in settles_tx_id. The clearing job, the refund
-- path, the WordPress import and `rova verify` all read and write this column; at most one clearing and one
-- refund per credit (unique indexes), so no writer can clear or refund the same income twice.
ALTER TABLE ledger_transactions ADD COLUMN settles_tx_id bigint REFERENCES ledger_transactions(id) ON DELETE RESTRICT;

-- Existing rows said it in two other ways; write those links into the column once. The append-only trigger is
-- lifted for this statement only (the rows' amounts and entries do not change).
ALTER TABLE ledger_transactions DISABLE TRIGGER ledger_transactions_append_only;
-- the clearing job: reference ledger_tx:{commission id}
UPDATE ledger_transactions k SET settles_tx_id = c.id FROM ledger_transactions c
  WHERE k.kind = 'commission_clearing' AND k.reference ~ '^ledger_tx:[0-9]+$' AND c.id = substring(k.reference FROM 11)::bigint AND c.kind = 'commission';
-- the refund path: memo.commission_tx_id (one refund per credit: the first one, should there be more)
UPDATE ledger_transactions r SET settles_tx_id = c.id FROM ledger_transactions c
  WHERE r.kind = 'commission_refund' AND r.memo->>'commission_tx_id' ~ '^[0-9]+$' AND c.id = (r.memo->>'commission_tx_id')::bigint AND c.kind = 'commission'
    AND NOT EXISTS (SELECT 1 FROM ledger_transactions o WHERE o.kind = 'commission_refund' AND o.id < r.id AND o.memo->>'commission_tx_id' = r.memo->>'commission_tx_id');
-- the WordPress import: key wordpress:ledger:{uuid}:clearing next to the credit's wordpress:ledger:{uuid}; left
-- unlinked when the credit already has a clearing (the job cleared it again): `rova verify` names those
UPDATE ledger_transactions k SET settles_tx_id = c.id FROM ledger_transactions c
  WHERE k.kind = 'commission_clearing' AND k.settles_tx_id IS NULL AND k.idempotency_key LIKE 'wordpress:ledger:%:clearing'
    AND c.idempotency_key = left(k.idempotency_key, length(k.idempotency_key) - length(':clearing')) AND c.kind = 'commission'
    AND NOT EXISTS (SELECT 1 FROM ledger_transactions o WHERE o.kind = 'commission_clearing' AND o.settles_tx_id = c.id);
ALTER TABLE ledger_transactions ENABLE TRIGGER ledger_transactions_append_only;

CREATE UNIQUE INDEX ledger_transactions_one_clearing ON ledger_transactions(settles_tx_id) WHERE kind = 'commission_clearing';
CREATE UNIQUE INDEX ledger_transactions_one_refund ON ledger_transactions(settles_tx_id) WHERE kind = 'commission_refund';
