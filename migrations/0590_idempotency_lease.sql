-- Idempotency-Key leases (issue 19 item 6). A key stayed `running` for 24 h after a request that failed without
-- releasing it (the database dropped, the process crashed), and every retry answered 409 though nothing had been
-- written. Now a running key is held under a lease: `lease_until` (now + the request timeout) and `holder` (the
-- request holding it). A request finding the lease run out takes the key over in one UPDATE, so of two retries one
-- wins. `committed`: the request's transaction committed its effect and the key together (the answer known then is
-- in response_*); such a key is never run again, only answered.
ALTER TABLE rova_idempotent_requests
  -- existing rows get the migration's time + 60 s (a running one is a leftover: free a minute later); the default
  -- also gives a lease to a row inserted by a node still running the previous release during a rolling update
  ADD COLUMN lease_until timestamptz DEFAULT now() + interval '60 seconds',
  ADD COLUMN holder text;
UPDATE rova_idempotent_requests SET lease_until = NULL WHERE status = 'done';
ALTER TABLE rova_idempotent_requests DROP CONSTRAINT rova_idempotent_requests_status_check;
ALTER TABLE rova_idempotent_requests ADD CONSTRAINT rova_idempotent_requests_status_check CHECK (status IN ('running', 'committed', 'done'));
ALTER TABLE rova_idempotent_requests ADD CONSTRAINT rova_idempotent_requests_lease CHECK (status = 'done' OR lease_until IS NOT NULL);
